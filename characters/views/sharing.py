"""Share links: the character's sheet for anyone holding the link (no account), as a page and
as a PDF; and the player's forms to make and revoke it. A revoked or guessed link is a plain
404. The shared page shows the sheet only: what its player sees on it, nothing of the GM's."""

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from characters.errors import PrinterBusy, ServiceError
from characters.print_options import DEFAULT_PRINT
from characters.selectors.access import character_for_owner
from characters.selectors.sharing import shared_character
from characters.services import printing
from characters.services import sharing as services
from characters.sheets import sheet_for_character
from characters.views.sheets import pdf_response


def _private(response):
    """Not for search engines, and the token never leaves in a Referer."""
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "private, no-store"
    return response


@require_safe
@login_not_required
def shared_sheet(request, token):
    link, character = shared_character(token)
    services.share_link_opened(link)
    context = {
        "sheet": sheet_for_character(character),
        "pdf_url": reverse("shared_sheet_pdf", args=[token]),
    }
    return _private(render(request, "sheets/shared.html", context))


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
