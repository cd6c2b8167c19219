"""The player's experience plan (rules.plan): steps added, removed and moved. A plan is the
player's own and never changes the character by itself: its steps are bought one spend at a
time through the advancement page's spend flow (services.advancement.experience_spend).

Each change locks the character, checks the version the page was loaded at, moves the
version and is recorded in the audit trail, as every write to a character is."""

from django.db import transaction
from django.utils.translation import gettext as _

from characters.adapters import character_base, plan_steps
from characters.errors import NotAllowed, ServiceError
from characters.models import Character
from characters.services.audit import commit_change, lock_character
from rules.plan import MAX_STEPS, Step, step_phrase, write_step, write_steps


@transaction.atomic
def plan_step_add(
    *, character: Character, actor, expected_version: int | None, step: Step
) -> Character:
    """`step` at the end of the plan."""
    locked, steps = _lock_plan(character, actor, expected_version)
    if len(steps) >= MAX_STEPS:
        raise ServiceError(
            _("A plan holds at most {most} steps: remove one first.").format(most=MAX_STEPS)
        )
    if step in steps:
        raise ServiceError(_("That step is in the plan already."))
    return _save(locked, actor, [*steps, step], "plan_step_added", step)


@transaction.atomic
def plan_step_remove(
    *, character: Character, actor, expected_version: int | None, index: int
) -> Character:
    locked, steps = _lock_plan(character, actor, expected_version)
    step = _step_at(steps, index)
    return _save(locked, actor, steps[:index] + steps[index + 1 :], "plan_step_removed", step)


@transaction.atomic
def plan_step_move(
    *, character: Character, actor, expected_version: int | None, index: int, offset: int
) -> Character:
    """The step at `index` moved `offset` places (-1: up, 1: down), within the plan."""
    locked, steps = _lock_plan(character, actor, expected_version)
    step = _step_at(steps, index)
    to = min(max(index + offset, 0), len(steps) - 1)
    moved = steps[:index] + steps[index + 1 :]
    moved.insert(to, step)
    return _save(locked, actor, moved, "plan_step_moved", step)


def _lock_plan(character, actor, expected_version) -> tuple[Character, list[Step]]:
    locked = lock_character(character=character, expected_version=expected_version)
    if locked.owner_id != actor.pk:
        raise NotAllowed(_("Only the character's player plans its experience."))
    return locked, list(plan_steps(locked))


def _step_at(steps: list[Step], index: int) -> Step:
    if not 0 <= index < len(steps):
        raise ServiceError(_("That step is no longer in the plan: reload the page."))
    return steps[index]


def _save(locked: Character, actor, steps: list[Step], action: str, step: Step) -> Character:
    before = locked.experience_plan
    locked.experience_plan = write_steps(steps)
    commit_change(
        locked,
        fields=["experience_plan"],
        actor=actor,
        action=action,
        before={"plan": before},
        after={"plan": locked.experience_plan, "step": write_step(step)},
        reason=step_phrase(step, character_base(locked).ladder),
    )
    return locked
