"""The GM's NPCs on the campaign page (services.npcs, docs/npcs.md): make one from a blank,
a template, a copy or a file; show it to the players; copy it N times; archive and restore
it. Only the campaign's GM reaches these (a 404 for anyone else). Each write answers htmx
with the NPCs section again and a plain post with a redirect to it."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from characters.errors import ServiceError
from characters.forms.npcs import COPY, FILE, TEMPLATE, NpcCopiesForm, NpcForm, NpcShownForm
from characters.models import NpcShown
from characters.selectors.access import campaign_for_gm
from characters.selectors.npcs import campaign_npc_list, npc_for_gm, npc_form_choices
from characters.services import keeping, npcs
from characters.views.htmx import fragments, news, refused

NEW_PAGE = "campaigns/npc_new.html"
DETAIL = "campaigns/detail.html"


def npcs_url(campaign) -> str:
    return reverse("campaign_detail", args=[campaign.pk]) + "#npcs"


@require_http_methods(["GET", "HEAD", "POST"])
def npc_new(request, pk):
    campaign = campaign_for_gm(request.user, pk)
    form = NpcForm(request.POST or None, request.FILES or None, **npc_form_choices(campaign))
    if request.method == "POST" and form.is_valid():
        try:
            npc = _make(campaign, request.user, form.cleaned_data)
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request,
                gettext(
                    "{name} is made, hidden from the players: give it the traits that matter."
                ).format(name=npc.name),
            )
            return redirect("character_builder", npc.pk)
    status = 400 if form.is_bound else 200
    return render(request, NEW_PAGE, {"campaign": campaign, "form": form}, status=status)


def _make(campaign, actor, data):
    how, name, group_size = data["how"], data["name"], data["group_size"]
    budget = data["budget"]
    if how == COPY:
        return npcs.npc_copy(
            campaign=campaign,
            actor=actor,
            source=data["source"],
            name=name,
            group_size=group_size,
            budget=budget,
        )
    if how == FILE:
        npc, _imported = npcs.npc_import(campaign=campaign, actor=actor, text=data["content"])
        return npc
    template = data["template"] if how == TEMPLATE else ""
    return npcs.npc_create(
        campaign=campaign,
        actor=actor,
        name=name,
        group_size=group_size,
        template=template,
        budget=budget,
    )


@require_POST
def npc_show(request, pk):
    npc = npc_for_gm(request.user, pk)
    form = NpcShownForm(request.POST)
    shown = form.cleaned_data["shown"] if form.is_valid() else ""
    return _write(
        request,
        npc,
        lambda: npcs.npc_show(npc=npc, actor=request.user, shown=shown),
        lambda shown_npc: _shown_said(shown_npc),
    )


def _shown_said(npc) -> str:
    if npc.npc_shown == NpcShown.HIDDEN:
        return gettext("{name} is hidden from the players.").format(name=npc.name)
    if npc.npc_shown == NpcShown.NAME:
        return gettext("The players now see {name}'s name, not its sheet.").format(name=npc.name)
    return gettext("The players now see {name}'s sheet.").format(name=npc.name)


@require_POST
def npc_copies(request, pk):
    npc = npc_for_gm(request.user, pk)
    form = NpcCopiesForm(request.POST)
    count = form.cleaned_data["count"] if form.is_valid() else 0
    return _write(
        request,
        npc,
        lambda: npcs.npc_copies(npc=npc, actor=request.user, count=count),
        gettext("{name}: copies made, each its own NPC, hidden from the players.").format(
            name=npc.name
        ),
    )


@require_POST
def npc_archive(request, pk):
    npc = npc_for_gm(request.user, pk)
    return _write(
        request,
        npc,
        lambda: keeping.character_archive(character=npc, actor=request.user),
        gettext("{name} is archived: it stays in the list below to restore.").format(name=npc.name),
    )


@require_POST
def npc_restore(request, pk):
    npc = npc_for_gm(request.user, pk)
    return _write(
        request,
        npc,
        lambda: keeping.character_restore(character=npc, actor=request.user),
        gettext("{name} is back among the NPCs.").format(name=npc.name),
    )


def _write(request, npc, write, said):
    """Run `write`; `said` is the news, or a function of what the write returned."""
    campaign = npc.campaign
    try:
        changed = write()
    except ServiceError as error:
        return refused(request, str(error), status=error.status, back=npcs_url(campaign))
    said = said(changed) if callable(said) else said
    if not request.htmx:
        messages.success(request, said)
        return redirect(npcs_url(campaign))
    section = render_to_string(
        f"{DETAIL}#npcs",
        {
            "campaign": campaign,
            "npcs": campaign_npc_list(campaign),
            "shown_choices": NpcShown.choices,
        },
        request,
    )
    return fragments(section, news(request, said))
