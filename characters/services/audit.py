"""The audit trail: what changed, by whom, before and after. Called by the service that makes
the change, inside its transaction, so a change and its event commit or roll back together."""

from characters.models import Character, CharacterEvent, Trait
from rules.ladder import level_name


def record_event(
    *,
    character: Character,
    actor,
    action: str,
    target: str = "",
    before=None,
    after=None,
    reason: str = "",
) -> CharacterEvent:
    return CharacterEvent.objects.create(
        character=character,
        actor=actor,
        action=action,
        target=target,
        before=before,
        after=after,
        version=character.version,
        reason=reason,
    )


def trait_target(trait: Trait) -> str:
    """How an event or a review comment names a trait: "skill:Climbing"."""
    return f"{trait.kind}:{trait.name}"


def trait_state(trait: Trait) -> dict:
    """A trait as the audit trail records it (JSON, levels as ladder words)."""
    state = {"name": trait.name}
    if trait.level is not None:
        state["level"] = level_name(trait.level)
    if trait.difficulty:
        state["difficulty"] = trait.difficulty
    if trait.cost is not None:
        state["cost"] = float(trait.cost) if trait.cost % 1 else int(trait.cost)
    if trait.power_kind:
        state["kind"] = trait.power_kind
    return state
