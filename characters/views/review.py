"""The approval workflow's pages: the player's submit and withdraw (buttons of the builder's
review panel), the GM's queue and the review of one build.

A transition changes what the whole page may do (a submitted build is read-only), so a
successful one reloads the page: a redirect, or HX-Redirect under htmx. A refused one says
why in #alerts under htmx, or as a message on the page it came from."""

from functools import partial

from django.contrib import messages
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST, require_safe

from characters.adapters import (
    approval_summary,
    build_changed,
    character_to_rules,
    ruleset_for,
)
from characters.errors import DecisionRefused, ServiceError
from characters.forms.review import APPROVE, ReviewForm
from characters.forms.threads import ThreadStartForm
from characters.models import Campaign, Character, DecisionToken
from characters.selectors.access import campaign_for_gm, character_for_owner
from characters.selectors.advancement import settled_report
from characters.selectors.review import (
    character_for_gm,
    character_versions,
    compare,
    default_comparison,
    pending_spend_queue,
    review_queue,
)
from characters.selectors.review_rows import broad_template_breaking_caps, review_rows
from characters.selectors.threads import threads_on
from characters.services import review as services
from characters.services.decisions import decision_once
from characters.views.htmx import done, posted_decision_token, posted_version, refused
from characters.views.methods import page_with_form
from rules.report import build_report, scale_phrases


@require_safe
def review_queue_page(request, campaign_pk=None):
    campaign = campaign_for_gm(request.user, campaign_pk) if campaign_pk else None
    return render(
        request,
        "review/queue.html",
        {
            "campaign": campaign,
            "campaigns": Campaign.objects.run_by(request.user),
            "items": review_queue(request.user, campaign),
            "spends": pending_spend_queue(request.user, campaign),
        },
    )


@page_with_form
def character_review(request, pk):
    character = character_for_gm(request.user, pk)
    form = ReviewForm(
        request.POST or None,
        traits=character.traits.all(),
        equipment=character.equipment.all(),
        initial={"version": character.version},
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                decision_once(
                    actor=request.user,
                    token=posted_decision_token(request),
                    kind=DecisionToken.Kind.REVIEW,
                    target=character.pk,
                    decide=partial(_decide, request, character, form),
                )
            except DecisionRefused as error:  # not this form's to decide: said in #alerts
                if request.htmx:
                    back = reverse("character_review", args=[character.pk])
                    return refused(request, str(error), status=error.status, back=back)
                messages.error(request, str(error))
                status = error.status
            except ServiceError as error:
                form.refuse(error)
                status = error.status
            else:
                return done(request, reverse("campaign_review_queue", args=[character.campaign_id]))
        else:
            status = 400
    value, ruleset = character_to_rules(character), ruleset_for(character)
    report = settled_report(character, build_report(value, ruleset))
    versions = character_versions(character)
    old, new, changes = compare(versions, *default_comparison(versions), ruleset)
    changed = build_changed(character)
    context = {
        "broad_template": broad_template_breaking_caps(character, ruleset, report),
        # Each trait and piece of equipment in the sheet's order, with its cost and how it
        # stands against the campaign's catalogue, beside its comment box.
        "rows": form.rows(review_rows(character, ruleset, report)),
        "old": old,  # what changed since the last approval, or since the build sent back
        "new": new,
        "changes": changes,
        "character": character,
        "ruleset": ruleset,
        "report": report,
        "scale_notes": scale_phrases(value, ruleset),
        "has_scale": ruleset.has_scale,
        "form": form,
        "comments": character.latest_comments,
        # The conversation with the player.
        "threads": threads_on(character, ruleset),
        "start_form": ThreadStartForm(character=character, ruleset=ruleset),
        "approvals": [
            (approval, approval_summary(approval, terms=ruleset.terms))
            for approval in character.approvals.select_related("approved_by")
        ],
        # An approved build changed behind the app is decided again: approved as it is now,
        # or sent back (issue 31).
        "build_changed": changed,
        "page": "review",
        "reviewable": character.state == Character.State.SUBMITTED or changed,
        # An approved build may be sent back when the player asks for a change.
        "reopenable": character.state == Character.State.APPROVED and not changed,
    }
    template = "review/review.html#review_form" if request.htmx else "review/review.html"
    return render(request, template, context, status=status)


def _decide(request, character, form) -> None:
    data = form.cleaned_data
    if data["decision"] == APPROVE:
        approval = services.character_approve(
            character=character,
            actor=request.user,
            expected_version=data["version"],
            override_reason=data["override_reason"],
            comments=form.comments(),
        )
        # The summary ends with the GM's reason, which may end with its own full stop.
        said = approval_summary(approval).rstrip(".")
        messages.success(request, _("{name}: {summary}.").format(name=character.name, summary=said))
    else:
        services.character_request_changes(
            character=character,
            actor=request.user,
            expected_version=data["version"],
            comments=form.comments(),
        )
        messages.success(
            request,
            _("{name} went back to {player} with your comments.").format(
                name=character.name, player=character.owner.username
            ),
        )


@require_POST
def character_submit(request, pk):
    return _owner_transition(
        request,
        pk,
        services.character_submit,
        gettext_lazy("{name} is submitted: the GM reviews it next. It is locked until then."),
    )


@require_POST
def character_withdraw(request, pk):
    return _owner_transition(
        request,
        pk,
        services.character_withdraw,
        gettext_lazy("{name} is withdrawn: a draft again."),
    )


def _owner_transition(request, pk, service, success):
    character = character_for_owner(request.user, pk)
    back = reverse("character_builder", args=[character.pk])
    try:
        service(character=character, actor=request.user, expected_version=posted_version(request))
    except ServiceError as error:
        return refused(request, str(error), status=error.status, back=back)
    messages.success(request, str(success).format(name=character.name))
    return done(request, back)
