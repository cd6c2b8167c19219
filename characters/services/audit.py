"""The audit trails, a character's and a campaign's: what changed, by whom, before and after.
Called by the service that makes the change, inside its transaction, so a change and its event
commit or roll back together. A write to a character starts with lock_character and ends
with commit_change: one lock, one version step, one event at the version after. The
builder's trait edit instead claims the row in one UPDATE, when the copy it holds is still
the committed row (commit_claimed_change), and takes the lock's way when it is not.

Each trail is a hash chain (characters.audit_chain): an event is linked to the one before it
in its chain as it is written, under the lock of its character's or campaign's row, so two
writers never link to the same event."""

from django.utils import timezone
from django.utils.translation import gettext as _

from characters.adapters import build_sha256, character_to_rules, recorded_build_sha256
from characters.audit_chain import link
from characters.compiled import CompiledRead, insert_rows, update_rows
from characters.errors import ServiceError, StaleWrite
from characters.models import BuildStep, Campaign, CampaignEvent, Character, CharacterEvent
from characters.services.history import history_step_new
from rules.recorded import phrase_data
from rules.words import Phrase


def lock_character(
    *, character: Character, expected_version: int | None, in_place: bool = False
) -> Character:
    """The character's row, locked for this transaction and checked against the version the
    page was loaded at, whatever its state: each caller checks the state it needs.

    A copy read under the lock comes back. With `in_place`, the caller's own copy does
    when it was read at the version now locked: every write moves the version, so it is the
    committed row, prefetched rows and all, and the lock reads one number. A caller that
    asks for this changes the copy it holds and puts it back if the write is refused."""
    if in_place:
        found = _VERSION_LOCK(character.pk)
        if not found:  # archived or gone since the caller read it, as .get() would say
            raise Character.DoesNotExist(f"Character {character.pk} is not there to lock.")
        [(version, head)] = found
        if version == character.version:
            _check_version(character, expected_version)
            # The trail moves without the version too (a comment, a share link): its head
            # is taken from the row locked, never from the caller's earlier read.
            character.audit_head = head
            return character
    locked = (
        Character.objects.select_for_update(of=("self",))
        .select_related("campaign", "owner")
        .get(pk=character.pk)
    )
    _check_version(locked, expected_version)
    return locked


# The in-place lock's statement, a character's version and trail head read under its row
# lock, compiled once per process (characters.compiled): every edit that locks takes it, and
# compiling it cost as much as running it (0.55 ms of 1.2). Compiled on the first lock,
# inside its transaction, as a lock must be.
_VERSION_LOCK = CompiledRead(
    lambda pk: (
        Character.objects.select_for_update(of=("self",))
        .filter(pk=pk)
        .values_list("version", "audit_head")
    )
)


def _check_version(locked: Character, expected_version: int | None) -> None:
    if expected_version is not None and locked.version != expected_version:
        raise StaleWrite(
            _(
                "{name} was changed in another tab or window since you loaded this page, so "
                "nothing was saved. Reload the page to see the latest version."
            ).format(name=locked.name)
        )


def record_event(
    *,
    character: Character,
    actor,
    action: str,
    target: str = "",
    before=None,
    after=None,
    reason: str | Phrase = "",
    build_sha256: str = "",
    lines: dict | None = None,
) -> CharacterEvent:
    """One event on the character's trail, for a write that leaves the version alone (a
    comment, a share link) or a character created in this transaction; a write that moves
    the version ends with commit_change instead. The caller holds the row lock and passes
    the copy lock_character gave (or the new row): its `audit_head` is the head the event
    links after, and the new head is written back here, one UPDATE of its own.
    `build_sha256`: an approved build's digest after this change, when it
    changed the build (adapters.build_sha256). A `reason` the app words is a Phrase, kept
    in English and as a phrase (characters.recorded); `lines`: phrases of `after`'s lines
    by key ("changed": [...]), kept beside the English `after` holds."""
    event = _linked_event(
        character,
        actor=actor,
        action=action,
        target=target,
        before=before,
        after=after,
        reason=reason,
        build_sha256=build_sha256,
        lines=lines,
    )
    Character.objects.filter(pk=character.pk).update(audit_head=character.audit_head)
    return event


def _linked_event(
    character: Character, *, step: BuildStep | None = None, **recorded
) -> CharacterEvent:
    """The event saved at the head of the character's trail, linked after
    `character.audit_head` (read by lock_character under the lock), which then names it on
    the copy only: saving the row's head is the caller's (record_event alone,
    commit_change with the version). The edit's undo `step`, if any, is saved with it."""
    return _saved(character, _new_event(character, **recorded), step)


def _saved(character: Character, event: CharacterEvent, step: BuildStep | None) -> CharacterEvent:
    """`event` inserted, after the edit's undo `step` if it has one, in one round trip
    (compiled.insert_rows); the copy's head and latest event are then it."""
    insert_rows(*([step] if step is not None else []), event)
    character.audit_head = event.record_hash
    character.latest_event = event
    return event


def _new_event(
    character: Character, *, reason: str | Phrase = "", lines: dict | None = None, **recorded
) -> CharacterEvent:
    """The event at the character's version, linked after `character.audit_head`, unsaved."""
    reason, phrases = _recorded(reason, lines)
    event = CharacterEvent(
        character=character, version=character.version, reason=reason, phrases=phrases, **recorded
    )
    link(event, character.audit_head)
    return event


def _recorded(reason: str | Phrase, lines: dict | None) -> tuple[str, dict | None]:
    """An event's reason in English, and the phrases it keeps (None: none to keep)."""
    phrases = {
        key: [phrase_data(line) if isinstance(line, Phrase) else str(line) for line in said]
        for key, said in (lines or {}).items()
    }
    if isinstance(reason, Phrase):
        phrases["reason"] = phrase_data(reason)
        reason = str(reason)
    return reason, phrases or None


def record_campaign_event(
    *,
    campaign: Campaign,
    actor,
    action: str,
    target: str = "",
    before=None,
    after=None,
    reason: str | Phrase = "",
) -> CampaignEvent:
    """One line of the campaign's history (house rules, settings, catalogue, members, invite).
    `before` and `after` are JSON: never a secret such as the invite code. The campaign's
    row is locked here (not every campaign write locks it first): its chain gets one link
    at a time."""
    Campaign.objects.select_for_update().filter(pk=campaign.pk).values_list("pk").first()
    reason, phrases = _recorded(reason, None)
    event = CampaignEvent(
        campaign=campaign,
        actor=actor,
        action=action,
        target=target,
        before=before,
        after=after,
        reason=reason,
        phrases=phrases,
    )
    previous = (
        CampaignEvent.objects.filter(campaign_id=campaign.pk)
        .order_by("-id")
        .values_list("record_hash", flat=True)
        .first()
    )
    link(event, previous or "")
    event.save(force_insert=True)
    return event


def commit_change(
    character: Character, *, actor, action: str, fields=(), **event
) -> CharacterEvent:
    """How every write to a locked character ends: its version goes up once, saved with the
    fields the write changed, and the event records the version after the change (the one
    a page loaded now would carry). The row is saved last, with the trail's new head: one
    statement for the version, the fields and the head."""
    character.version += 1
    step = _history_step(character, action, event)
    recorded = _linked_event(character, actor=actor, action=action, step=step, **event)
    character.save(update_fields=[*fields, "version", "updated_at", "audit_head"])
    return recorded


def commit_claimed_change(
    character: Character, *, actor, action: str, write, **event
) -> CharacterEvent | None:
    """commit_change for the caller's copy of a character it read before this transaction,
    whose row is claimed instead of locked first: one UPDATE moves the version and the
    trail's head only if neither moved since the read, and takes the row's lock as it
    does, where the lock and the final save were two statements. Then `write()` makes the
    change, and its undo step and event are saved as commit_change saves them.

    None, with nothing written, when the row moved since the read (another write, or a
    comment that moved the trail's head): the caller then locks it as any write does.
    The event is linked before the claim, after the head the copy was read with: a claim
    that finds that head still there may write it."""
    read_version, read_head = character.version, character.audit_head
    character.version += 1
    recorded = _new_event(character, actor=actor, action=action, **event)
    now = timezone.now()
    claimed = update_rows(
        Character,
        # Only a current character, as Character.objects finds it: never an archived one.
        where={
            "id": character.pk,
            "version": read_version,
            "audit_head": read_head,
            "archived_at": None,
        },
        values={
            "version": character.version,
            "audit_head": recorded.record_hash,
            "updated_at": now,
        },
    )
    if not claimed:
        character.version = read_version
        return None
    try:
        write()
    except ServiceError:  # the transaction rolls back: the copy as committed
        character.version = read_version
        raise
    _saved(character, recorded, _history_step(character, action, event))
    character.updated_at = now
    return recorded


def _history_step(character: Character, action: str, event: dict) -> BuildStep | None:
    """The write's step on the undo history, for the builder's edits (services.history),
    unsaved: saved with the write's event (_saved)."""
    return history_step_new(
        character,
        action=action,
        target=event.get("target", ""),
        before=event.get("before"),
        after=event.get("after"),
    )


# -- an approved build changes only through Fairsheet --------------------------------------------


def stored_build_sha256(character: Character) -> str:
    """The build digest of the character's rows as stored now, read afresh (a caller's copy
    may hold rows prefetched before its own change)."""
    fresh = (
        Character.all_objects.select_related("campaign")
        .prefetch_related("traits", "equipment", "ledger")
        .get(pk=character.pk)
    )
    return build_sha256(character_to_rules(fresh))


def ensure_build_as_recorded(locked: Character) -> None:
    """Before a change to an approved build (a spend, an uncommitted trait): its rows must
    still be the build on record. Otherwise the change would record a build changed behind
    the app as if it were approved; the GM looks at it first (adapters.build_changed)."""
    recorded = recorded_build_sha256(locked)
    if recorded and stored_build_sha256(locked) != recorded:
        raise ServiceError(
            _(
                "{name}'s build was changed outside Fairsheet since the GM approved it, so "
                "nothing was saved. The GM looks at the change on the review page first: "
                "approving the build as it is now, or sending it back to the player."
            ).format(name=locked.name)
        )
