"""The dashboard ("my table"): the campaigns a user runs and plays in, their characters,
and joining a campaign by its invite code."""

from django.contrib import messages
from django.db.models import Count, Q
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from characters import throttle
from characters.errors import OwnCampaign, ServiceError
from characters.forms.campaigns import JoinForm
from characters.forms.table import TableForm
from characters.models import Campaign, Character
from characters.selectors.keeping import (
    archived_campaigns,
    archived_characters,
    table_campaigns,
    table_characters,
)
from characters.services import campaigns as services


@require_safe
def dashboard(request):
    return _dashboard(request, JoinForm())


@require_POST
def join_by_code(request):
    with throttle.attempt(join_throttles(request)) as tried:
        if tried.wait:
            return throttle.too_many(
                request, tried.wait, tried.throttle, lambda: _dashboard(request, JoinForm())
            )
        form = JoinForm(request.POST)
        if form.is_valid():
            try:
                membership = services.campaign_join(
                    user=request.user, code=form.cleaned_data["code"]
                )
            except OwnCampaign as own:  # the GM trying their own code: not a guess
                message = gettext("You run {name}: this code is for your players.")
                messages.info(request, message.format(name=own.campaign.name))
                return redirect("campaign_detail", own.campaign.pk)
            except ServiceError as error:
                form.add_error("code", str(error))
                tried.keep()
            else:
                messages.success(
                    request, gettext("Welcome to {name}!").format(name=membership.campaign.name)
                )
                return redirect("campaign_detail", membership.campaign_id)
    return _dashboard(request, form, status=400)


def join_throttles(request):
    """Invite codes are guessed per user and per address (characters/throttle.py)."""
    return [
        (throttle.JOIN_BY_USER, str(request.user.pk)),
        (throttle.JOIN_BY_ADDRESS, throttle.client_address(request)),
    ]


def _dashboard(request, join_form, *, status=200):
    user = request.user
    table_form = TableForm(request.GET, campaigns=table_campaigns(user))
    archived, archived_run = list(archived_characters(user)), list(archived_campaigns(user))
    context = {
        "join_form": join_form,
        "table_form": table_form,
        "filtered": any(table_form.filters()[k] for k in ("q", "state", "campaign")),
        "archived_characters": archived,
        "archived_campaigns": archived_run,
        "archived_count": len(archived) + len(archived_run),
        "gm_campaigns": Campaign.objects.run_by(user)
        .current()
        .with_game()
        .annotate(
            player_count=Count("memberships", distinct=True),
            waiting_count=Count(
                "characters", filter=Q(characters__state=Character.State.SUBMITTED), distinct=True
            ),
            # A spend the rules hand to the GM (a gift, a power) waits in the same queue.
            requests_waiting=Count(
                "characters__ledger", filter=Q(characters__ledger__pending=True), distinct=True
            ),
        ),
        "player_campaigns": Campaign.objects.played_by(user)
        .current()
        .with_game()
        .select_related("gm"),
        "characters": table_characters(user, **table_form.filters()),
    }
    return render(request, "dashboard.html", context, status=status)
