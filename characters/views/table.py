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

from characters.errors import ServiceError
from characters.models import DecisionToken
from characters.selectors.access import campaign_for_gm
from characters.selectors.play import (
    LOG_PAGE_LENGTH,
    campaign_for_log,
    campaign_log,
    log_subject,
    log_title,
    party_context,
    party_fingerprint,
)
from characters.services.decisions import decision_once
from characters.services.play import session_start
from characters.views.htmx import fragments, news, posted_decision_token, refused
from characters.views.play import poll_unchanged

PARTY, LOG = "play/party.html", "play/log.html"


@require_safe
def campaign_party(request, pk):
    campaign = campaign_for_gm(request.user, pk)
    return render(request, PARTY, party_context(campaign))


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
    campaign = campaign_for_gm(request.user, pk)
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
        return render(request, PARTY, party_context(campaign), status=error.status)
    said = gettext("{session} started: the dice log opens a new page.").format(
        session=log_subject(entry)
    )
    if not request.htmx:
        messages.success(request, said)
        return redirect(back)
    log = render_to_string(
        f"{LOG}#log", {"log": campaign_log(campaign), "oob": True, "campaign": campaign}, request
    )
    form = render_to_string(f"{PARTY}#new_session", {"campaign": campaign, "oob": True}, request)
    return fragments(log, form, news(request, said))


@require_safe
def campaign_log_page(request, pk):
    campaign = campaign_for_log(request.user, pk)
    return render(request, LOG, _log_context(campaign))


@require_safe
def log_live(request, pk):
    campaign = campaign_for_log(request.user, pk)
    last = campaign.dice_log.values_list("id", flat=True).first() or 0
    if request.GET.get("after") == str(last):
        return HttpResponse(status=204)
    return render(request, f"{LOG}#live", _log_context(campaign))


def _log_context(campaign) -> dict:
    log = campaign_log(campaign, LOG_PAGE_LENGTH)
    return {
        "campaign": campaign,
        "log": log,
        "log_title": log_title(campaign),
        "after": log[0].entry.pk if log else 0,
    }
