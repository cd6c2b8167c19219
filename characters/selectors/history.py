"""The builder's undo history as its buttons read it (services.history writes it)."""

from characters.models import BuildStep, Character


def history_steps(character: Character) -> tuple[BuildStep | None, BuildStep | None]:
    """What Undo and Redo would take back and put back now, each None when there is none:
    the history holds only while nothing else changed the character since its last step."""
    known = getattr(character, "history_now", None)  # services.history.history_record
    if known is not None and known[0].version == character.version:
        return known
    steps = list(
        BuildStep.objects.filter(character=character)
        .order_by("id")
        .only("id", "label", "edit", "undone", "version")
    )
    if not steps or max(step.version for step in steps) != character.version:
        return None, None
    done = [step for step in steps if not step.undone]
    undone = [step for step in steps if step.undone]
    return (done[-1] if done else None), (undone[0] if undone else None)
