"""Writes the play page queued on a phone without a connection (docs/offline.md), sent in
the order they were made once the network is back. Each is applied by the very service an
online click calls (services.play), with the revision it was made against, so the same
rules and the same optimistic lock decide: a change someone else made meanwhile (the GM's)
wins, and the write is refused with that service's own reason.

Each write has its own transaction, and its answer is kept under the key the phone gave it
(OfflineWrite): a batch sent again after its answer was lost changes nothing twice and
gets the same answers.

The revisions: the phone counts its own queued changes of the play state on top of the
revision it last synced, as if each went through. When one of them is refused, the later
ones were made against one change fewer than they count; that shift is taken off their
revision, so a refusal of one write does not refuse the unrelated ones after it. A write
made on a state someone else changed is still refused, as online."""

from dataclasses import dataclass
from uuid import UUID

from django.db import IntegrityError, transaction
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from characters.adapters import ruleset_for
from characters.errors import ServiceError, StaleWrite
from characters.models import OfflineWrite, PlayState
from characters.selectors.play import log_lines
from characters.services import play


@dataclass(frozen=True)
class QueuedWrite:
    key: UUID  # made on the phone, once per write
    kind: str  # wound, points, condition_add, condition_remove or roll
    # The play state's revision it was made against; None where the online write takes
    # none (a condition composes with any other change; a roll changes no state).
    revision: int | None
    args: dict  # the kind's fields, as the online form cleans them


@dataclass(frozen=True)
class Answer:
    key: UUID
    applied: bool
    said: str  # what happened, or why not, in the sender's language


def play_offline_sync(*, character, actor, writes: list[QueuedWrite]) -> list[Answer]:
    """Apply `writes` in order, each in its own transaction, and say what became of each."""
    answers, shift = [], 0
    for write in writes:
        revision = None if write.revision is None else write.revision - shift
        answer = _answer(character, actor, write, revision)
        if not answer.applied and write.kind != "roll":
            shift += 1
        answers.append(answer)
    return answers


def _answer(character, actor, write: QueuedWrite, revision: int | None) -> Answer:
    kept = _kept(write.key, character, actor)
    if kept is not None:
        return kept
    try:
        with transaction.atomic():
            said = _apply(character, actor, write, revision)
            return _keep(write.key, character, actor, applied=True, said=said)
    except StaleWrite:
        said = _(
            "{name} was changed meanwhile by someone else (the GM's change wins), so this "
            "change made offline was not saved."
        ).format(name=character.name)
    except ServiceError as error:
        said = str(error)
    except IntegrityError:
        return _kept_first(write.key, character, actor)
    try:
        with transaction.atomic():
            return _keep(write.key, character, actor, applied=False, said=said)
    except IntegrityError:
        return _kept_first(write.key, character, actor)


def _kept_first(key: UUID, character, actor) -> Answer:
    """The same write, sent at the same moment by another request, was kept first: its
    answer (and nothing of this one, whose transaction was rolled back)."""
    return _kept(key, character, actor) or _foreign(key)


def _apply(character, actor, write: QueuedWrite, revision: int | None) -> str:
    args = write.args
    who = {"character": character, "actor": actor}
    if write.kind == "wound":
        change = play.play_wound_box(
            **who, expected_revision=revision, level=args["level"], mark=args["mark"]
        )
    elif write.kind == "points":
        service = play.play_points_spend if args["spend"] else play.play_points_regain
        change = service(**who, expected_revision=revision)
    elif write.kind == "condition_add":
        change = play.play_condition_add(**who, expected_revision=revision, text=args["text"])
    elif write.kind == "condition_remove":
        change = play.play_condition_remove(**who, expected_revision=revision, text=args["text"])
    else:
        return _roll(character, actor, args)
    return change.said


def _roll(character, actor, args: dict) -> str:
    # The batch's earlier writes changed the play state: the roll reads it afresh (the
    # wound penalty it applies is the one standing when it is logged).
    state = PlayState.objects.filter(character=character).first()
    if state is not None:
        character.play_state = state
    offline = play.OfflineDice(dice=tuple(args["dice"]), rolled_at=args["rolled_at"])
    roll = {key: args[key] for key in ("trait", "modifier", "against", "weapon", "defence")}
    entry = play.dice_roll(character=character, actor=actor, offline=offline, **roll)
    line = log_lines([entry], ruleset_for(character))[0]
    said = _("{subject}, rolled offline: {roll}.").format(subject=entry.subject, roll=line.roll)
    return f"{said} {capfirst(line.outcome)}." if line.outcome else said


def _kept(key: UUID, character, actor) -> Answer | None:
    kept = OfflineWrite.objects.filter(key=key).first()
    if kept is None:
        return None
    if (kept.character_id, kept.actor_id) != (character.pk, actor.pk):
        return _foreign(key)
    return Answer(key, kept.applied, kept.said)


def _keep(key: UUID, character, actor, *, applied: bool, said: str) -> Answer:
    OfflineWrite.objects.create(
        key=key, character=character, actor=actor, applied=applied, said=said[:500]
    )
    return Answer(key, applied, said)


def _foreign(key: UUID) -> Answer:
    return Answer(key, False, _("This write's key was already used: nothing was saved."))
