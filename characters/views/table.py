"""The campaign at the table (docs/play.md): the GM's party view, live, and the dice log
every member of the campaign reads. The party view polls party_live and the log page
log_live every few seconds; each answers 204 when nothing changed, with a fixed number
of queries. Anyone else gets a 404."""

from functools import partial

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from characters.adapters import campaign_ruleset
from characters.errors import ServiceError
from characters.forms.play import GroupRollForm, NpcRollForm, ReactionForm
from characters.models import DecisionToken
from characters.selectors.access import campaign_for_gm
from characters.selectors.npc_table import (
    campaign_npcs,
    campaign_pcs,
    npc_of,
    npc_table_context,
    pc_of,
    split_choice,
    trait_choices,
)
from characters.selectors.party import campaign_for_party, party_context, party_fingerprint
from characters.selectors.play import (
    LOG_PAGE_LENGTH,
    campaign_for_log,
    campaign_log,
    gm_log,
    last_log_line,
    log_lines,
    log_subject,
    log_title,
)
from characters.services import npc_rolls
from characters.services.decisions import decision_once
from characters.services.play import session_start
from characters.views.htmx import fragments, news, posted_decision_token, refused
from characters.views.play import form_problem, poll_unchanged

PARTY, LOG = "play/party.html", "play/log.html"


@require_safe
def campaign_party(request, pk):
    campaign = campaign_for_party(request.user, pk)
    return render(request, PARTY, _party(campaign))


def _party(campaign) -> dict:
    context = party_context(campaign)
    return {**context, **npc_table_context(campaign, context)}


@require_safe
def party_live(request, pk):
    campaign = campaign_for_gm(request.user, pk)
    now = party_fingerprint(campaign)
    unchanged = poll_unchanged(request, now)  # a reload: the party or a build changed
    if unchanged:
        return unchanged
    context = party_context(campaign, with_sheets=False, fingerprint=now)
    return render(request, f"{PARTY}#live", context)


@require_POST
def party_new_session(request, pk):
    campaign = campaign_for_party(request.user, pk)
    back = reverse("campaign_party", args=[pk])
    try:
        entry = decision_once(
            actor=request.user,
            token=posted_decision_token(request),
            kind=DecisionToken.Kind.SESSION_START,
            target=campaign.pk,
            decide=partial(session_start, campaign=campaign, actor=request.user),
        )
    except ServiceError as error:  # its token refused among them (services.decisions)
        if request.htmx:
            return refused(request, str(error), status=error.status, back=back)
        messages.error(request, str(error))
        return render(request, PARTY, _party(campaign), status=error.status)
    said = gettext("{session} started: the dice log opens a new page.").format(
        session=log_subject(entry)
    )
    if not request.htmx:
        messages.success(request, said)
        return redirect(back)
    log = render_to_string(
        f"{LOG}#log",
        {"log": campaign_log(campaign, request.user), "oob": True, "campaign": campaign},
        request,
    )
    form = render_to_string(f"{PARTY}#new_session", {"campaign": campaign, "oob": True}, request)
    return fragments(log, form, news(request, said))


@require_safe
def campaign_log_page(request, pk):
    campaign = campaign_for_log(request.user, pk)
    return render(request, LOG, _log_context(campaign, request.user))


@require_safe
def log_live(request, pk):
    campaign = campaign_for_log(request.user, pk)
    if request.GET.get("after") == str(last_log_line(campaign, request.user)):
        return HttpResponse(status=204)
    return render(request, f"{LOG}#live", _log_context(campaign, request.user))


def _log_context(campaign, user) -> dict:
    log = campaign_log(campaign, user, LOG_PAGE_LENGTH)
    return {
        "campaign": campaign,
        "log": log,
        "log_title": log_title(campaign),
        "after": log[0].entry.pk if log else 0,
    }


# -- the GM's rolls for NPCs (services.npc_rolls) ------------------------------------------------


@require_POST
def party_npc_roll(request, pk):
    campaign = campaign_for_gm(request.user, pk)
    form = NpcRollForm(request.POST, npc_traits=trait_choices(campaign_npcs(campaign)))

    def call():
        npc_pk, trait = split_choice(form.cleaned_data["npc_trait"])
        data = form.cleaned_data
        return npc_rolls.npc_roll(
            character=npc_of(campaign, npc_pk),
            actor=request.user,
            trait=trait,
            modifier=data["modifier"] or 0,
            against=data["against"],
            secret=data["secret"],
        )

    return _gm_roll(request, campaign, form, call)


@require_POST
def party_group_roll(request, pk):
    campaign = campaign_for_gm(request.user, pk)
    form = GroupRollForm(
        request.POST,
        npc_traits=trait_choices(campaign_npcs(campaign)),
        pc_traits=trait_choices(campaign_pcs(campaign)),
    )

    def call():
        data = form.cleaned_data
        foes = []
        for value in data["foes"]:
            npc_pk, trait = split_choice(value)
            foes.append((npc_of(campaign, npc_pk), trait))
        pc_pk, pc_trait = split_choice(data["pc_trait"])
        return npc_rolls.npc_group_roll(
            campaign=campaign,
            actor=request.user,
            foes=foes,
            pc=pc_of(campaign, pc_pk),
            pc_trait=pc_trait,
            pc_result=data["pc_result"],
            secret=data["secret"],
        )

    return _gm_roll(request, campaign, form, call)


@require_POST
def party_reaction_roll(request, pk):
    campaign = campaign_for_gm(request.user, pk)
    form = ReactionForm(request.POST, npcs=list(campaign_npcs(campaign)))

    def call():
        chosen = form.cleaned_data["npc"]
        return npc_rolls.npc_reaction_roll(
            campaign=campaign,
            actor=request.user,
            character=npc_of(campaign, int(chosen)) if chosen else None,
            modifiers=form.modifiers(),
        )

    return _gm_roll(request, campaign, form, call)


def _gm_roll(request, campaign, form, call) -> HttpResponse:
    """Bind, roll, answer: the fresh log (the GM's, secret lines too) and the roll in words
    under htmx, or back to the party view with it as a message."""
    back = reverse("campaign_party", args=[campaign.pk]) + "#npc-table"
    if not form.is_valid():
        return refused(request, form_problem(form), status=400, back=back)
    try:
        entry = call()
    except ServiceError as error:
        return refused(request, str(error), status=error.status, back=back)
    line = log_lines([entry], campaign_ruleset(campaign))[0]
    said = ". ".join(part for part in (f"{line.subject}: {line.roll}", line.outcome) if part)
    if not request.htmx:
        messages.success(request, said)
        return redirect(back)
    context = {
        "log": gm_log(campaign),
        "log_title": log_title(campaign),
        "oob": True,
        "campaign": campaign,
    }
    return fragments(render_to_string(f"{LOG}#log", context, request), news(request, said))
