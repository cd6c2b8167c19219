"""The approval workflow (docs/approval.md):

    draft -> submitted -> approved
                       -> changes_requested -> submitted ...
    submitted -> draft (the player withdraws)

Only the owner submits and withdraws; only the campaign's GM approves or sends a build back.
A character outside any campaign has no GM, so it cannot be submitted. Each transition
locks the character row, checks the version the page was loaded at, moves the state, bumps
the version and records the event (with the comments, the snapshot or the approval) in one
transaction.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from characters.adapters import (
    build_changed,
    build_sha256,
    character_base,
    character_file,
    character_to_rules,
    file_sha256,
    ruleset_for,
    trait_target,
)
from characters.errors import NotAllowed, ServiceError
from characters.models import Approval, Character, Notification, ReviewComment, Submission
from characters.selectors.access import is_gm_of
from characters.selectors.review_rows import equipment_target
from characters.services.audit import commit_change, lock_character, record_event
from characters.services.notifications import notify
from characters.services.threads import open_thread
from characters.wording import said
from rules.charfile import write_character
from rules.report import build_report
from rules.words import say, say_plural

# The event each transition records, by the state it moves to.
TRANSITION_ACTIONS = {
    Character.State.SUBMITTED: "submitted",
    Character.State.DRAFT: "withdrawn",
    Character.State.CHANGES_REQUESTED: "changes_requested",
    Character.State.APPROVED: "approved",
}
SUBMISSION_OUTCOMES = {
    Character.State.DRAFT: Submission.Outcome.WITHDRAWN,
    Character.State.CHANGES_REQUESTED: Submission.Outcome.CHANGES_REQUESTED,
    Character.State.APPROVED: Submission.Outcome.APPROVED,
}


@transaction.atomic
def character_submit(*, character: Character, actor, expected_version: int | None) -> Character:
    locked = lock_character(character=character, expected_version=expected_version)
    if locked.owner_id != actor.pk:
        raise NotAllowed(_("Only the player who made this character can submit it."))
    if locked.campaign_id is None:
        raise ServiceError(
            _(
                "{name} is not in a campaign, so there is no GM to review it: its build "
                "report is the check. Make the character in a campaign (or import its file "
                "there) to have the GM approve it."
            ).format(name=locked.name)
        )
    if locked.is_npc:
        raise ServiceError(
            _("{name} is an NPC, the GM's own: NPCs are never submitted for review.").format(
                name=locked.name
            )
        )
    if locked.state not in (Character.State.DRAFT, Character.State.CHANGES_REQUESTED):
        raise ServiceError(
            _("{name} is {state} already.").format(name=locked.name, state=locked.state_phrase)
        )
    data = character_file(locked)
    submit_for_review(locked, actor=actor, file=data, sha256=file_sha256(data))
    return locked


def submit_for_review(locked: Character, *, actor, file: dict, sha256: str) -> None:
    """Put a locked character in the GM's queue with its build. The submitted build goes on
    the record with the event: the GM's diff of a resubmission compares it with the build
    they sent back (or approved)."""
    _move(locked, actor=actor, to=Character.State.SUBMITTED, file=file, sha256=sha256)


@transaction.atomic
def character_withdraw(*, character: Character, actor, expected_version: int | None) -> Character:
    locked = lock_character(character=character, expected_version=expected_version)
    if locked.owner_id != actor.pk:
        raise NotAllowed(_("Only the player who submitted this character can withdraw it."))
    if locked.state != Character.State.SUBMITTED:
        raise ServiceError(
            _("{name} is {state}, not waiting for review: there is nothing to withdraw.").format(
                name=locked.name, state=locked.state_phrase
            )
        )
    _move(locked, actor=actor, to=Character.State.DRAFT)
    return locked


@transaction.atomic
def character_request_changes(
    *,
    character: Character,
    actor,
    expected_version: int | None,
    comments: list[tuple[str, str]],
) -> list[ReviewComment]:
    """Back to the player with the GM's comments: (target, text) pairs, the target ""
    for the whole build or a trait's "kind:Name". At least one comment says what to change.
    An approved build may be reopened this way too (the player asked for a change): its
    approvals and ledger stay on the record, and it is approved again once resubmitted."""
    locked = _lock_for_review(
        character,
        actor,
        expected_version,
        states=(Character.State.SUBMITTED, Character.State.APPROVED),
    )
    comments = _clean_comments(locked, comments)
    if not comments:
        raise ServiceError(
            _("Say what to change: write a comment on the build or on one of its traits."),
            field="comment",
        )
    _move(locked, actor=actor, to=Character.State.CHANGES_REQUESTED)
    added = _add_comments(locked, actor, comments)
    notify(
        character=locked,
        actor=actor,
        kind=Notification.Kind.CHANGES_REQUESTED,
        message=say_plural(
            "{name} is back with you for changes: {count} comment from {gm}.",
            "{name} is back with you for changes: {count} comments from {gm}.",
            len(added),
            name=locked.name,
            count=len(added),
            gm=actor.username,
        ),
    )
    return added


@transaction.atomic
def character_approve(
    *,
    character: Character,
    actor,
    expected_version: int | None,
    override_reason: str = "",
    comments: list[tuple[str, str]] = (),
) -> Approval:
    """Approve the build as it stands, keeping it as a character file with its SHA-256.
    A build that breaks a rule is approved only with the GM's reason, which stays on the
    record; for a legal build there is nothing to override and no reason is kept.

    An approved build whose rows were changed behind the app (adapters.build_changed) is
    approved again this way, as it stands now: the GM has looked, and the record says so."""
    locked = _lock_for_review(
        character,
        actor,
        expected_version,
        states=(Character.State.SUBMITTED, Character.State.APPROVED),
    )
    if locked.state == Character.State.APPROVED and not build_changed(locked):
        raise ServiceError(_("{name} is approved already.").format(name=locked.name))
    comments = _clean_comments(locked, comments)
    value = character_to_rules(locked)
    report = build_report(value, ruleset_for(locked))
    override_reason = override_reason.strip() if not report.valid else ""
    if not report.valid and not override_reason:
        count = len(report.errors)
        raise ServiceError(
            ngettext(
                "This build breaks {count} rule ({first}). Approve it over the rules only "
                "with a reason, which stays on the record, or request changes.",
                "This build breaks {count} rules ({first}). Approve it over the rules only "
                "with a reason, which stays on the record, or request changes.",
                count,
            ).format(count=count, first=said(report.errors[0]).rstrip(".")),
            field="override_reason",
        )
    snapshot = write_character(value, character_base(locked).ladder)
    sha256 = file_sha256(snapshot)
    approval = Approval.objects.create(
        character=locked,
        version=locked.version + 1,  # as _move leaves it
        snapshot=snapshot,
        sha256=sha256,
        approved_by=actor,
        override_reason=override_reason,
        report=report.to_json(),
    )
    # The event is the record that counts (append-only): the sheet's stamp and the audit
    # page check the Approval row's snapshot against the hash kept here.
    _move(
        locked,
        actor=actor,
        to=Character.State.APPROVED,
        sha256=sha256,
        approval=approval.pk,
        reason=override_reason,
        build_sha256=build_sha256(value),
    )
    _add_comments(locked, actor, comments)
    notify(
        character=locked,
        actor=actor,
        kind=Notification.Kind.APPROVED,
        message=say(
            "{gm} approved {name} over the rules: {reason}",
            gm=actor.username,
            name=locked.name,
            reason=override_reason,
        )
        if override_reason
        else say("{gm} approved {name}.", gm=actor.username, name=locked.name),
    )
    return approval


def _lock_for_review(
    character, actor, expected_version, *, states=(Character.State.SUBMITTED,)
) -> Character:
    locked = lock_character(character=character, expected_version=expected_version)
    if not is_gm_of(locked, actor):
        raise NotAllowed(_("Only the campaign's GM reviews its characters."))
    if locked.state not in states:
        raise ServiceError(
            _("{name} is {state}, not waiting for review.").format(
                name=locked.name, state=locked.state_phrase
            )
        )
    return locked


def _move(
    locked: Character, *, actor, to: str, reason: str = "", build_sha256: str = "", **recorded
) -> None:
    before = locked.state
    locked.state = to
    commit_change(
        locked,
        fields=["state"],
        actor=actor,
        action=TRANSITION_ACTIONS[to],
        before={"state": before},
        after={"state": to, **recorded},
        reason=reason,
        build_sha256=build_sha256,
    )
    if to == Character.State.SUBMITTED:
        Submission.objects.create(character=locked, version=locked.version, submitted_by=actor)
    elif before == Character.State.SUBMITTED:
        locked.submissions.filter(outcome=Submission.Outcome.WAITING).update(
            outcome=SUBMISSION_OUTCOMES[to], decided_at=timezone.now()
        )


def _clean_comments(locked: Character, comments) -> list[tuple[str, str]]:
    targets = {trait_target(trait) for trait in locked.traits.all()}
    targets |= {equipment_target(item) for item in locked.equipment.all()}
    cleaned = []
    for target, text in comments:
        text = text.strip()
        if not text:
            continue
        if target and target not in targets:
            raise ServiceError(
                _(
                    "{name} has no trait {trait}: comment on the build as a whole, or on a "
                    "trait or piece of equipment it has."
                ).format(name=locked.name, trait=target.partition(":")[2] or target)
            )
        cleaned.append((target, text))
    return cleaned


def _add_comments(locked: Character, actor, comments) -> list[ReviewComment]:
    """The review's comments, each kept with the review and each the start of a thread the
    player can answer (services.threads)."""
    rows = {trait_target(trait): trait for trait in locked.traits.all()}
    rows |= {equipment_target(item): item for item in locked.equipment.all()}
    created = []
    for target, text in comments:
        created.append(
            ReviewComment.objects.create(
                character=locked, author=actor, target=target, body=text, version=locked.version
            )
        )
        thread = open_thread(locked, actor=actor, about=rows.get(target), body=text)
        record_event(
            character=locked,
            actor=actor,
            action="comment_added",
            target=target,
            after={"comment": text, "thread": thread.pk},
        )
    return created
