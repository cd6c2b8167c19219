"""Share links: the character's sheet for anyone holding the link (no account), as a page, as a
PDF and as a statblock; and the player's forms to make and revoke it and to say which sites
may frame it. A revoked or guessed link is a plain 404. The shared page shows the sheet only:
what its player sees on it, nothing of the GM's.

Framing: every page of the site refuses to be shown in another site's frame (X-Frame-Options
DENY, Content-Security-Policy frame-ancestors 'none'). A share link's sheet and statblock
pages are the exception its player makes: the sites the link names (ShareLink.frame_origins,
https origins) may frame those two responses, and only those (docs/exports.md)."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from characters.errors import PrinterBusy, ServiceError
from characters.forms.sharing import FrameOriginsForm
from characters.print_options import DEFAULT_PRINT
from characters.selectors.access import character_for_owner
from characters.selectors.sharing import shared_character
from characters.selectors.statblock import DOWNLOADS, statblock, statblock_of
from characters.services import printing
from characters.services import sharing as services
from characters.sheets import sheet_for_character
from characters.views.exports import statblock_context, statblock_download
from characters.views.sheets import pdf_response


def _private(response):
    """Not for search engines, and the token never leaves in a Referer."""
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "private, no-store"
    return response


def _framable(response, link):
    """The response may be framed by the sites the link names, and by no other: its own
    Content-Security-Policy's frame-ancestors lists them, and X-Frame-Options (which cannot
    name a site) is left off it. With no site named it stays as every page is: DENY."""
    if link.frame_origins:
        response._csp_config = {**settings.SECURE_CSP, "frame-ancestors": link.frame_origins}
        response.xframe_options_exempt = True
    return response


def _shared_statblock(token: str, block) -> dict:
    return statblock_context(
        block,
        download=lambda extension: reverse("shared_statblock_download", args=[token, extension]),
        back=reverse("shared_sheet", args=[token]),
    )


@require_safe
@login_not_required
def shared_sheet(request, token):
    link, character = shared_character(token)
    services.share_link_opened(link)
    sheet = sheet_for_character(character)
    context = {
        "sheet": sheet,
        "pdf_url": reverse("shared_sheet_pdf", args=[token]),
        "statblock_url": reverse("shared_statblock", args=[token]),
        **_shared_statblock(token, statblock(sheet)),
    }
    return _framable(_private(render(request, "sheets/shared.html", context)), link)


@require_safe
@login_not_required
def shared_statblock(request, token):
    """The shared sheet's statblock alone: a small page for a frame."""
    link, character = shared_character(token)
    services.share_link_opened(link)
    context = _shared_statblock(token, statblock_of(character))
    return _framable(_private(render(request, "sheets/statblock.html", context)), link)


@require_safe
@login_not_required
def shared_statblock_download(request, token, extension):
    if extension not in DOWNLOADS:
        raise Http404("No such format.")
    link, character = shared_character(token)
    services.share_link_opened(link)
    return _private(statblock_download(statblock_of(character), extension, character.name))


@require_safe
@login_not_required
def shared_sheet_pdf(request, token):
    link, character = shared_character(token)
    services.share_link_opened(link)
    # The player's own share of the printer: a shared sheet prints on their account.
    try:
        document = printing.sheet_pdf_render(
            character=character, options=DEFAULT_PRINT, user=character.owner
        )
    except PrinterBusy as busy:
        response = render(request, "sheets/busy.html", {"message": str(busy)}, status=429)
        response["Retry-After"] = str(busy.retry_after)
        return _private(response)
    return _private(pdf_response(document, slugify(character.name) or "character"))


@require_POST
def share_link_create(request, pk):
    character = character_for_owner(request.user, pk)
    try:
        services.share_link_create(character=character, actor=request.user)
        messages.success(
            request,
            _("Anyone with the link now sees {name}'s sheet.").format(name=character.name),
        )
    except ServiceError as error:
        messages.error(request, str(error))
    return redirect(reverse("character_builder", args=[pk]) + "#share")


@require_POST
def share_link_revoke(request, pk):
    character = character_for_owner(request.user, pk)
    link = get_object_or_404(character.share_links.filter(revoked_at__isnull=True))
    services.share_link_revoke(link=link, actor=request.user)
    messages.success(
        request, _("The link to {name}'s sheet no longer works.").format(name=character.name)
    )
    return redirect(reverse("character_builder", args=[pk]) + "#share")


@require_POST
def share_link_framing(request, pk):
    """The sites that may frame the shared sheet, from the builder's share form."""
    character = character_for_owner(request.user, pk)
    link = get_object_or_404(character.share_links.filter(revoked_at__isnull=True))
    form = FrameOriginsForm(request.POST)
    if not form.is_valid():
        for problem in form.errors.get("origins", []):
            messages.error(request, problem)
        return redirect(reverse("character_builder", args=[pk]) + "#share")
    origins = form.cleaned_data["origins"]
    try:
        services.share_link_frame_origins_set(link=link, origins=origins, actor=request.user)
    except ServiceError as error:
        messages.error(request, str(error))
    else:
        if origins:
            said = _("{sites} may now show {name}'s shared sheet in a frame.").format(
                sites=", ".join(origins), name=character.name
            )
        else:
            said = _("No other site may show {name}'s shared sheet in a frame.").format(
                name=character.name
            )
        messages.success(request, said)
    return redirect(reverse("character_builder", args=[pk]) + "#share")
