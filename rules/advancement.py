"""Development costs: what raising a trait one level, adding a gift or power, buying off a
fault or buying a meta point costs in the ruleset's experience unit (Fudge 5.2, Fudge
Basics "Experience", Mudge 5.2, MicroFudged DIP II and VIII.3)."""

from dataclasses import dataclass

from rules.ladder import ABYSMAL, STANDARD
from rules.rulesets import TOKENS, Ruleset, skill_default
from rules.words import Level, Phrase, Term, say


class NotAvailable(ValueError):
    """The ruleset gives no cost for this: the GM decides, outside the engine. Its one
    argument is a Phrase (rules.words): str() of the error is the English sentence."""

    @property
    def phrase(self) -> Phrase:
        return self.args[0]


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
            say(
                "{ruleset} gives no cost for raising a trait above {level} ({section})",
                ruleset=Term(ruleset.name, "ruleset"),
                level=Level(from_level, STANDARD),
                section=adv.section,
            )
        )
    multiplier = adv.attribute_multiplier if kind == "attribute" else 1
    permission = adv.gm_permission_from is not None and from_level >= adv.gm_permission_from
    return Cost(step * multiplier, adv.unit, permission, adv.section)


def learn_start(ruleset: Ruleset, list_name: str, name: str, difficulty: str | None) -> int:
    """Where a trait learned in play is priced from: where it stood unlisted. A skill from
    its default (Mudge 1.4 by difficulty, Fudge 5.2 Poor, MicroFudged Poor); a Very Hard skill,
    which has no default, from the bottom of the creation ladder; a field of power from
    Abysmal (MicroFudged DIP VIII.1)."""
    if list_name == "powers":
        return ABYSMAL
    default = skill_default(ruleset, name, difficulty)
    return ruleset.creation_min if default is None else default


def learnable(ruleset: Ruleset, list_name: str) -> bool:
    """What is learned level by level: skills everywhere, fields of power in MicroFudged. A
    power of the levels rulesets is bought whole (flat_cost 'power': Mudge 5.2, Fudge 5.2)."""
    return list_name == "skills" or (list_name == "powers" and ruleset.system == TOKENS)


def learn_cost(
    ruleset: Ruleset, list_name: str, name: str, difficulty: str | None, to_level: int
) -> Cost:
    """The cost of a new skill (or field of power) at `to_level`: every level from where it
    stood unlisted (learn_start) up, each at the raise cost of its level."""
    kind = "power" if list_name == "powers" else "skill"
    total, permission, section = 0, False, _advancement(ruleset).section
    for level in range(learn_start(ruleset, list_name, name, difficulty), to_level):
        cost = raise_cost(ruleset, kind, level)
        total += cost.amount
        permission |= cost.needs_gm_permission
    return Cost(total, _advancement(ruleset).unit, permission, section)


def flat_cost(ruleset: Ruleset, what: str) -> Cost:
    """'gift', 'power', 'meta_point' or 'buy_off_fault'."""
    adv = _advancement(ruleset)
    amount = getattr(adv, what)
    if amount is None:
        raise NotAvailable(
            say(
                "{ruleset} gives no cost for {what}",
                ruleset=Term(ruleset.name, "ruleset"),
                what=Term(what.replace("_", " "), "advancement purchase"),
            )
        )
    return Cost(amount, adv.unit, what in adv.gm_approval, adv.section)


def _advancement(ruleset: Ruleset):
    if ruleset.advancement is None:
        raise NotAvailable(
            say("{ruleset} has no advancement rules", ruleset=Term(ruleset.name, "ruleset"))
        )
    return ruleset.advancement
