"""The advancement page of an approved character: spends at the ruleset's costs, the GM's
awards (to one character or the party), pending spends, meta points and Fudge points.

Every write re-renders the page's one dynamic panel (#advancement) under htmx, with the new
version for the other forms (HX-Trigger versionChanged); a plain post redirects back. A
refused write shows why: in #alerts under htmx, else on the page with the error status.
The GM's decisions (an award, a grant, a pending spend's accept and refuse) are made only
with their form's one-time token (services.decisions), refused like any other write."""

from dataclasses import asdict
from functools import partial

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from characters.adapters import ruleset_for
from characters.errors import ServiceError
from characters.forms.builder import VersionedForm
from characters.forms.review import (
    AwardForm,
    PlanMoveForm,
    PlanStepForm,
    PointsForm,
    RefuseForm,
    SpendForm,
)
from characters.models import DecisionToken
from characters.recorded import ledger_reason_said
from characters.selectors.access import character_for_owner, character_for_viewer, is_gm_of
from characters.selectors.advancement import amount_said, quote_spend
from characters.selectors.plans import plan_step_said
from characters.selectors.review import (
    advancement_context,
    character_for_gm,
    pending_entry_for_gm,
    spend_label,
)
from characters.services import advancement as services
from characters.services import plans
from characters.services.decisions import decision_once
from characters.views.htmx import (
    fragments,
    news,
    posted_decision_token,
    refused,
    with_version,
)

PAGE = "review/advancement.html"


@require_safe
def character_advancement(request, pk):
    return _page(request, character_for_viewer(request.user, pk))


@require_POST
def advancement_spend(request, pk):
    """A spend is asked once: the first post comes back priced, with how it goes (at once,
    or to the GM) and a button to confirm; the confirmed post makes it."""
    character = character_for_viewer(request.user, pk)
    form = SpendForm(request.POST)
    if not form.is_valid():
        message = form.errors.get("name", [_("Choose what to spend experience on.")])[0]
        return _invalid(request, character, message)
    data = form.cleaned_data
    trait = get_object_or_404(character.traits, pk=data["trait"]) if data["trait"] else None
    if not data["confirmed"]:
        try:
            quote = quote_spend(
                character,
                ruleset_for(character),
                acting_gm=is_gm_of(character, request.user),
                trait=trait,
                **form.spend(),
            )
        except ServiceError as error:
            return _refused(request, character, error)
        label = spend_label(asdict(quote.priced), ruleset_for(character))
        confirm = {"quote": quote, "form": form, "trait": trait, "label": label}
        return _page(request, character, confirm=confirm)
    write = partial(
        services.experience_spend,
        character=character,
        actor=request.user,
        expected_version=data["version"],
        trait=trait,
        **form.spend(),
    )
    return _write(
        request,
        character,
        write,
        lambda entry: (_("Asked the GM: {what}.") if entry.pending else _("Done: {what}.")).format(
            what=ledger_reason_said(entry)
        ),
    )


@require_POST
def spend_take_back(request, pk):
    character = character_for_owner(request.user, pk)
    form = VersionedForm(request.POST)
    if not form.is_valid():
        return _invalid(request, character, _("Reload the page and try again."))
    write = partial(
        services.spend_take_back,
        character=character,
        actor=request.user,
        expected_version=form.cleaned_data["version"],
    )
    return _write(request, character, write, lambda entry: f"{ledger_reason_said(entry)}.")


@require_POST
def spend_withdraw(request, pk, entry_pk):
    character = character_for_owner(request.user, pk)
    entry = get_object_or_404(character.ledger.filter(pending=True), pk=entry_pk)
    write = partial(services.spend_withdraw, entry=entry, actor=request.user)
    return _write(
        request,
        character,
        write,
        lambda result: _("Request taken back: {what}.").format(what=ledger_reason_said(entry)),
    )


@require_POST
def advancement_award(request, pk):
    character = character_for_gm(request.user, pk)
    form = AwardForm(request.POST)
    if not form.is_valid():
        return _page(request, character, award_form=form, status=400)
    data = form.cleaned_data
    common = {"actor": request.user, "amount": data["amount"], "reason": data["reason"]}
    if data["to"] == AwardForm.PARTY:
        write = partial(services.experience_award_party, campaign=character.campaign, **common)
    else:
        write = partial(services.experience_award, character=character, **common)
    write = _once(request, write, DecisionToken.Kind.AWARD, character.pk)

    def said(result):
        entries = result if isinstance(result, list) else [result]
        names = ", ".join(entry.character.name for entry in entries)
        amount = amount_said(data["amount"], ruleset_for(character))
        # Counted, though English says it one way: other languages agree with the amount.
        awarded = ngettext(
            "Awarded {amount} to {names}.", "Awarded {amount} to {names}.", data["amount"]
        )
        return awarded.format(amount=amount, names=names)

    return _write(request, character, write, said)


@require_POST
def spend_decide(request, pk, entry_pk, decision):
    character = character_for_gm(request.user, pk)

    def decide():
        # Found inside the decision, so a second post of a decided spend is told it was
        # decided (its token is used) rather than that the spend is not pending any more.
        entry = pending_entry_for_gm(request.user, pk, entry_pk)
        if decision == "accept":
            services.spend_accept(entry=entry, actor=request.user)
        else:
            form = RefuseForm(request.POST)
            reason = form.cleaned_data["reason"] if form.is_valid() else ""
            services.spend_refuse(entry=entry, actor=request.user, reason=reason)
        return entry

    kind = (
        DecisionToken.Kind.SPEND_ACCEPT if decision == "accept" else DecisionToken.Kind.SPEND_REFUSE
    )
    said = _("Accepted: {what}.") if decision == "accept" else _("Refused: {what}.")
    return _write(
        request,
        character,
        _once(request, decide, kind, entry_pk),
        lambda entry: said.format(what=ledger_reason_said(entry)),
    )


@require_POST
def points_spend(request, pk):
    return _points(request, character_for_owner(request.user, pk), services.meta_points_spend)


@require_POST
def points_grant(request, pk):
    character = character_for_gm(request.user, pk)
    return _points(request, character, services.meta_points_grant, decision=True)


@require_POST
def points_convert(request, pk):
    character = character_for_owner(request.user, pk)
    form = VersionedForm(request.POST)
    if not form.is_valid():
        return _invalid(request, character, _("Reload the page and try again."))
    write = partial(
        services.fudge_points_convert,
        character=character,
        actor=request.user,
        expected_version=form.cleaned_data["version"],
    )
    return _write(
        request, character, write, lambda entry: f"{ledger_reason_said(entry)}: +{entry.amount}."
    )


def _points(request, character, service, *, decision=False):
    form = PointsForm(request.POST)
    if not form.is_valid():
        return _invalid(request, character, _("Give a number of points between 1 and 10."))
    data = form.cleaned_data
    write = partial(
        service,
        character=character,
        actor=request.user,
        expected_version=data["version"],
        count=data["count"],
        reason=data["reason"],
    )
    if decision:  # the GM's grant
        write = _once(request, write, DecisionToken.Kind.POINTS_GRANT, character.pk)
    return _write(
        request,
        character,
        write,
        lambda locked: _("{name} has {count} now.").format(
            name=locked.name, count=locked.meta_points
        ),
    )


@require_POST
def plan_step_add(request, pk):
    """A step added to the plan: priced at once on the panel, bought later, one spend at a
    time, through advancement_spend."""
    character = character_for_owner(request.user, pk)
    form = PlanStepForm(request.POST)
    if not form.is_valid():
        errors = [e for field_errors in form.errors.values() for e in field_errors]
        return _invalid(request, character, errors[0] if errors else _("Choose a step to plan."))
    step = form.step()
    write = partial(
        plans.plan_step_add,
        character=character,
        actor=request.user,
        expected_version=form.cleaned_data["version"],
        step=step,
    )
    return _write(
        request,
        character,
        write,
        lambda locked: _("Planned: {step}.").format(step=plan_step_said(step, character)),
    )


@require_POST
def plan_step_change(request, pk, action):
    """A step moved up or down (`offset` -1 or 1) or removed."""
    character = character_for_owner(request.user, pk)
    form = PlanMoveForm(request.POST)
    if not form.is_valid():
        return _invalid(request, character, _("Reload the page and try again."))
    data = form.cleaned_data
    common = {
        "character": character,
        "actor": request.user,
        "expected_version": data["version"],
        "index": data["index"],
    }
    if action == "remove":
        write = partial(plans.plan_step_remove, **common)
        said = _("Removed from the plan.")
    else:
        write = partial(plans.plan_step_move, **common, offset=data["offset"] or 1)
        said = _("The plan is reordered.")
    return _write(request, character, write, lambda locked: said)


def _once(request, write, kind, target):
    """`write` as the decision `kind` on `target`, made only with its form's one-time token
    (services.decisions)."""
    return partial(
        decision_once,
        actor=request.user,
        token=posted_decision_token(request),
        kind=kind,
        target=target,
        decide=write,
    )


# -- responses -----------------------------------------------------------------------------------


def _write(request, character, write, said):
    """Run a service call; answer with the fresh panel and the news (htmx), or go back."""
    url = reverse("character_advancement", args=[character.pk])
    try:
        result = write()
    except ServiceError as error:  # a decision's token refused among them (services.decisions)
        return _refused(request, character, error)
    if not request.htmx:
        messages.success(request, said(result))
        return redirect(url)
    fresh = character_for_viewer(request.user, character.pk)
    context = {**advancement_context(fresh, request.user), "award_form": AwardForm()}
    return with_version(
        fragments(render_to_string(f"{PAGE}#panel", context, request), news(request, said(result))),
        fresh.version,
    )


def _refused(request, character, error: ServiceError):
    if request.htmx:
        url = reverse("character_advancement", args=[character.pk])
        return refused(request, str(error), status=error.status, back=url)
    messages.error(request, str(error))
    return _page(request, character, status=error.status)


def _invalid(request, character, message):
    if request.htmx:
        url = reverse("character_advancement", args=[character.pk])
        return refused(request, message, status=400, back=url)
    messages.error(request, message)
    return _page(request, character, status=400)


def _page(request, character, *, award_form=None, confirm=None, status=200):
    context = {
        **advancement_context(character, request.user),
        "award_form": award_form or AwardForm(),
        "confirm": confirm,
    }
    template = f"{PAGE}#panel" if request.htmx else PAGE
    return render(request, template, context, status=status)
