"""The builder's undo history as its buttons read it (services.history writes it)."""

from django.db.models import Exists, OuterRef

from characters.compiled import CompiledRead
from characters.models import BuildStep, Character

HISTORY_STEPS = 30  # what a character's history keeps when trimmed (the issue asks for 20)
# How far past that it grows before the next trim: a delete every tenth edit, not every one.
HISTORY_SLACK = 10


def history_to_prune() -> Exists:
    """Whether a character's next edit trims its history (services.history.history_step_new):
    it holds a step undone (no redo after a new edit), or one step short of HISTORY_STEPS +
    HISTORY_SLACK. An annotation of the character's own query, for the edit that locks the
    copy it read (selectors.access.character_for_owner): no statement of its own."""
    steps = BuildStep.objects.filter(character=OuterRef("pk"))
    full = HISTORY_STEPS + HISTORY_SLACK - 1  # steps before the edit's own makes the most
    return Exists(steps.filter(undone=True)) | Exists(steps.order_by("id")[full - 1 : full])


# Every builder page reads it (characters.compiled).
_STEPS_OF = CompiledRead(
    lambda character: (
        BuildStep.objects.filter(character=character)
        .order_by("id")
        .only("id", "label", "edit", "undone", "version")
    )
)


def history_steps(character: Character) -> tuple[BuildStep | None, BuildStep | None]:
    """What Undo and Redo would take back and put back now, each None when there is none:
    the history holds only while nothing else changed the character since its last step."""
    known = getattr(character, "history_now", None)  # services.history.history_step_new
    if known is not None and known[0].version == character.version:
        return known
    steps = _STEPS_OF(character)
    if not steps or max(step.version for step in steps) != character.version:
        return None, None
    done = [step for step in steps if not step.undone]
    undone = [step for step in steps if step.undone]
    return (done[-1] if done else None), (undone[0] if undone else None)
