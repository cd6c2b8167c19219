"""Development costs: what raising a trait one level, adding a gift or power, buying off a
fault or buying a meta point costs in the ruleset's experience unit (Fudge 5.2, Fudge
Basics "Experience", Mudge 5.2, MicroFudged DIP II and VIII.3)."""

from dataclasses import dataclass

from rules.ladder import level_name
from rules.rulesets import Ruleset


class NotAvailable(ValueError):
    """The ruleset gives no cost for this: the GM decides, outside the engine."""


@dataclass(frozen=True)
class Cost:
    amount: int
    unit: str
    needs_gm_permission: bool
    section: str


def raise_cost(ruleset: Ruleset, kind: str, from_level: int) -> Cost:
    """The cost of raising an attribute or skill ("attribute"/"skill"/"power") one level."""
    adv = _advancement(ruleset)
    if adv.skill_steps is None:  # MicroFudged DIP: one token a rank, whatever the trait
        step = 1
    elif from_level in adv.skill_steps:
        step = adv.skill_steps[from_level]
    elif from_level < min(adv.skill_steps):
        step = adv.skill_steps[min(adv.skill_steps)]
    elif adv.beyond is not None and from_level > max(adv.skill_steps):
        step = adv.beyond
    else:
        raise NotAvailable(
            f"{ruleset.name} gives no cost for raising a trait above {level_name(from_level)} "
            f"({adv.section})"
        )
    multiplier = adv.attribute_multiplier if kind == "attribute" else 1
    permission = adv.gm_permission_from is not None and from_level >= adv.gm_permission_from
    return Cost(step * multiplier, adv.unit, permission, adv.section)


def flat_cost(ruleset: Ruleset, what: str) -> Cost:
    """'gift', 'power', 'meta_point' or 'buy_off_fault'."""
    adv = _advancement(ruleset)
    amount = getattr(adv, what)
    if amount is None:
        raise NotAvailable(f"{ruleset.name} gives no cost for {what.replace('_', ' ')}")
    return Cost(amount, adv.unit, what in adv.gm_approval, adv.section)


def _advancement(ruleset: Ruleset):
    if ruleset.advancement is None:
        raise NotAvailable(f"{ruleset.name} has no advancement rules")
    return ruleset.advancement
