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

import hashlib
import json
from fractions import Fraction

from django.db import transaction

from characters.adapters import character_to_rules, ruleset_for
from characters.models import Approval, Character, ReviewComment
from characters.services import ServiceError, StaleWrite
from characters.services.audit import record_event, trait_target
from rules.charfile import write_character
from rules.report import amount, build_report

# The event each transition records, by the state it moves to.
TRANSITION_ACTIONS = {
    Character.SUBMITTED: "submitted",
    Character.DRAFT: "withdrawn",
    Character.CHANGES_REQUESTED: "changes_requested",
    Character.APPROVED: "approved",
}
REPORT_POOLS = {"skill level": "skills", "token": "tokens"}  # report unit -> amount() pool


class NotAllowed(ServiceError):
    """The actor's role does not allow this (views answer 404 before it gets here)."""

    status = 403


def lock_character(*, character: Character, expected_version: int | None) -> Character:
    """The character's row, locked for this transaction and checked against the version the
    page was loaded at, whatever its state: each caller checks the state it needs."""
    locked = (
        Character.objects.select_for_update(of=("self",))
        .select_related("campaign", "owner")
        .get(pk=character.pk)
    )
    if expected_version is not None and locked.version != expected_version:
        raise StaleWrite(
            f"{locked.name} was changed in another tab or window since you loaded this page, "
            "so nothing was saved. Reload the page to see the latest version."
        )
    return locked


def is_gm_of(character: Character, user) -> bool:
    return character.campaign_id is not None and character.campaign.gm_id == user.pk


def character_file(character: Character) -> dict:
    """The character as a version-1 character file (rules.charfile), as approvals keep it."""
    return write_character(character_to_rules(character))


def file_sha256(data: dict) -> str:
    """SHA-256 over the canonical JSON of a character file: sorted keys, no spaces, UTF-8.
    The stored snapshot is a JSON column (PostgreSQL does not keep key order or spacing),
    so only a canonical form makes the digest reproducible from what was stored."""
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


@transaction.atomic
def character_submit(*, character: Character, actor, expected_version: int | None) -> Character:
    locked = lock_character(character=character, expected_version=expected_version)
    if locked.owner_id != actor.pk:
        raise NotAllowed("Only the player who made this character can submit it.")
    if locked.campaign_id is None:
        raise ServiceError(
            f"{locked.name} is not in a campaign, so there is no GM to review it: its build "
            "report is the check. Make the character in a campaign (or import its file "
            "there) to have the GM approve it."
        )
    if locked.state not in (Character.DRAFT, Character.CHANGES_REQUESTED):
        raise ServiceError(f"{locked.name} is {locked.get_state_display().lower()} already.")
    data = character_file(locked)
    # The submitted build goes on the record with the event: the GM's diff of a resubmission
    # compares it with the build they sent back.
    _move(locked, actor=actor, to=Character.SUBMITTED, file=data, sha256=file_sha256(data))
    return locked


@transaction.atomic
def character_withdraw(*, character: Character, actor, expected_version: int | None) -> Character:
    locked = lock_character(character=character, expected_version=expected_version)
    if locked.owner_id != actor.pk:
        raise NotAllowed("Only the player who submitted this character can withdraw it.")
    if locked.state != Character.SUBMITTED:
        raise ServiceError(
            f"{locked.name} is {locked.get_state_display().lower()}, not waiting for review: "
            "there is nothing to withdraw."
        )
    _move(locked, actor=actor, to=Character.DRAFT)
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
    for the whole build or a trait's "kind:Name". At least one comment says what to change."""
    locked = _lock_for_review(character, actor, expected_version)
    comments = _clean_comments(locked, comments)
    if not comments:
        raise ServiceError(
            "Say what to change: write a comment on the build or on one of its traits."
        )
    _move(locked, actor=actor, to=Character.CHANGES_REQUESTED)
    return _add_comments(locked, actor, comments)


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
    record; for a legal build there is nothing to override and no reason is kept."""
    locked = _lock_for_review(character, actor, expected_version)
    comments = _clean_comments(locked, comments)
    value = character_to_rules(locked)
    report = build_report(value, ruleset_for(locked))
    override_reason = override_reason.strip() if not report.valid else ""
    if not report.valid and not override_reason:
        count = len(report.errors)
        raise ServiceError(
            f"This build breaks {count} rule{'s' if count != 1 else ''} "
            f"({report.errors[0].message}). Approve it over the rules only with a reason, "
            "which stays on the record, or request changes."
        )
    snapshot = write_character(value)
    sha256 = file_sha256(snapshot)
    _move(locked, actor=actor, to=Character.APPROVED, sha256=sha256, reason=override_reason)
    approval = Approval.objects.create(
        character=locked,
        version=locked.version,
        snapshot=snapshot,
        sha256=sha256,
        approved_by=actor,
        override_reason=override_reason,
        report=report.to_json(),
    )
    _add_comments(locked, actor, comments)
    return approval


def approval_summary(approval: Approval) -> str:
    """One line for the sheet: "approved", or what was overridden and why, e.g.
    "approved over budget by 2 skill levels: a veteran of the siege"."""
    if not approval.override_reason:
        return "approved"
    report = approval.report
    balance = Fraction(str(report["balance"]))
    over = balance < 0
    others = [e for e in report["errors"] if not (over and e["code"] == "over_budget")]
    parts = []
    if over:
        parts.append(f"over budget by {amount(-balance, REPORT_POOLS[report['unit']])}")
    if others:
        rules = f"{len(others)} {'other ' if over else ''}rule{'s' if len(others) != 1 else ''}"
        parts.append(f"despite {rules} broken")
    return f"approved {' and '.join(parts)}: {approval.override_reason}"


def _lock_for_review(character, actor, expected_version) -> Character:
    locked = lock_character(character=character, expected_version=expected_version)
    if not is_gm_of(locked, actor):
        raise NotAllowed("Only the campaign's GM reviews its characters.")
    if locked.state != Character.SUBMITTED:
        raise ServiceError(
            f"{locked.name} is {locked.get_state_display().lower()}, not waiting for review."
        )
    return locked


def _move(locked: Character, *, actor, to: str, reason: str = "", **recorded) -> None:
    before = locked.state
    locked.state = to
    locked.version += 1
    locked.save(update_fields=["state", "version", "updated_at"])
    record_event(
        character=locked,
        actor=actor,
        action=TRANSITION_ACTIONS[to],
        before={"state": before},
        after={"state": to, **recorded},
        reason=reason,
    )


def _clean_comments(locked: Character, comments) -> list[tuple[str, str]]:
    targets = {trait_target(trait) for trait in locked.traits.all()}
    cleaned = []
    for target, text in comments:
        text = text.strip()
        if not text:
            continue
        if target and target not in targets:
            raise ServiceError(
                f"{locked.name} has no trait {target.partition(':')[2] or target}: comment on "
                "the build as a whole, or on a trait it has."
            )
        cleaned.append((target, text))
    return cleaned


def _add_comments(locked: Character, actor, comments) -> list[ReviewComment]:
    created = []
    for target, text in comments:
        created.append(
            ReviewComment.objects.create(
                character=locked, author=actor, target=target, body=text, version=locked.version
            )
        )
        record_event(
            character=locked,
            actor=actor,
            action="comment_added",
            target=target,
            after={"comment": text},
        )
    return created
