"""The builder's catalogue pickers: every entry of a list with what the catalogue says of it
and what adding it does to the budget, in words, before the player adds it."""

from dataclasses import dataclass

from characters.models import Trait
from rules.ladder import FAIR, signed
from rules.numbers import number_text
from rules.rulesets import LEVELS, SKILL_DIFFICULTY, Ruleset

EQUIPMENT = "equipment"


@dataclass(frozen=True)
class Pick:
    name: str
    facts: tuple[str, ...]  # "very hard spell", "2 gifts", "weapon +3"
    effect: str  # what adding it does to the budget
    note: str = ""
    details: tuple[tuple[str, str], ...] = ()  # a power's lines from the rule text
    section: str = ""  # where the text gives it, e.g. "Mudge 2.53"


def _units(amount, words: tuple[str, str]) -> str:
    one, many = words
    return f"{number_text(amount)} {one if 0 < abs(amount) <= 1 else many}"


def _difficulty(difficulty: str) -> str:
    return (difficulty or SKILL_DIFFICULTY).replace("_", " ")


def _as_skill(ruleset: Ruleset, difficulty: str, what: str) -> str:
    """The cost of a skill priced by difficulty (or of a spell, priced as one) at Fair
    (Mudge 1.62), in the ruleset's words."""
    cost = ruleset.difficulty_costs.get(difficulty or SKILL_DIFFICULTY, 2)
    fair = ruleset.word(FAIR)
    return (
        f"at {fair} it takes {_units(cost, ruleset.terms.pool_words('skills'))} "
        f"({what}, {ruleset.section('skills')}), one more or one fewer for each level above "
        f"or below {fair}"
    )


def catalog_picks(ruleset: Ruleset, gift_names: set[str], kind: str) -> list[Pick]:
    """The picks of one list of the builder (a trait kind, or EQUIPMENT), from the
    character's catalogue (its campaign's, or its ruleset's own). `gift_names` (casefolded)
    says which gifts the character has, so a spell says when it needs Magery first."""
    entries, terms = catalog_entries(ruleset, kind), ruleset.terms
    levels = ruleset.system == LEVELS
    if kind == Trait.Kind.SKILL and levels and ruleset.skill_difficulties:
        return [
            Pick(
                s.name,
                (_difficulty(s.difficulty),),
                _as_skill(
                    ruleset, s.difficulty, f"{_difficulty(s.difficulty)} {terms.noun('skills')}"
                ),
                s.note,
            )
            for s in entries
        ]
    if kind == Trait.Kind.SKILL:
        unit = "token a rank" if not levels else f"{terms.pool_words('skills')[0]} a level"
        return [
            Pick(s.name, (), f"1 {unit} above its default ({ruleset.section('skills')})", s.note)
            for s in entries
        ]
    if kind == Trait.Kind.GIFT:
        return [
            Pick(
                g.name,
                (_units(g.cost, terms.pool_words("gifts")),),
                f"takes {_units(g.cost, terms.pool_words('gifts'))} of your budget"
                + _brings(ruleset, g.name),
                g.note,
            )
            for g in entries
        ]
    if kind == Trait.Kind.FAULT:
        return [
            Pick(
                f.name,
                (_units(f.value, terms.pool_words("faults")),),
                f"gives back {_units(f.value, terms.pool_words('gifts'))} to spend "
                f"({ruleset.section('gifts')})",
                f.note,
            )
            for f in entries
        ]
    if kind == Trait.Kind.POWER:
        return [_power_pick(ruleset, power, gift_names) for power in entries]
    return [_equipment_pick(ruleset, item) for item in entries]


def catalog_entries(ruleset: Ruleset, kind: str) -> tuple:
    """The catalogue's entries a list's picker offers: its count on the builder page, where
    the picker is closed, costs nothing more."""
    catalog = ruleset.catalog
    if kind == Trait.Kind.SKILL:
        return catalog.skills
    if kind in (Trait.Kind.GIFT, Trait.Kind.FAULT):
        if not ruleset.gifts_and_faults:
            return ()
        return catalog.gifts if kind == Trait.Kind.GIFT else catalog.faults
    if kind == Trait.Kind.POWER:
        return tuple(p for p in catalog.powers if p.kind in ruleset.power_kinds)
    if kind == EQUIPMENT:
        return catalog.equipment
    return ()  # attributes: the ruleset's own list, no picker


def _brings(ruleset: Ruleset, gift: str) -> str:
    attribute = next(
        (a for g, a in ruleset.attribute_gifts.items() if g.casefold() == gift.casefold()), None
    )
    if attribute is None:
        return ""
    noun = ruleset.terms.noun("attributes")
    return (
        f"; brings the {noun} {attribute} at {ruleset.word(ruleset.attribute_default)}, "
        f"priced as any {noun} from there"
    )


def _power_pick(ruleset: Ruleset, power, gift_names: set[str]) -> Pick:
    facts = [power.kind]
    gift = ruleset.power_gifts.get(power.kind)
    if ruleset.system != LEVELS:
        effect = f"1 token a rank from {ruleset.word(ruleset.power_default)}"
    elif gift is not None:
        difficulty = power.difficulty or "hard"
        facts.insert(0, _difficulty(difficulty))
        effect = _as_skill(ruleset, difficulty, f"a {_difficulty(difficulty)} {power.kind}")
        if gift.casefold() not in gift_names:
            noun = ruleset.terms.noun("gifts")
            effect += f"; needs the {gift} {noun} first ({ruleset.section(power.kind)})"
    else:
        cost = ruleset.superpower_cost
        gifts = ruleset.terms.pool_words("gifts")
        effect = f"takes {_units(cost, gifts)} ({ruleset.section(power.kind)})"
    if power.group:
        facts.append(power.group)
    return Pick(power.name, tuple(facts), effect, "", power.details(), power.section)


def _equipment_pick(ruleset: Ruleset, item) -> Pick:
    facts = [item.kind]
    terms = ruleset.terms
    if item.damage is not None:
        facts.append(f"{terms.weapon_value} {signed(item.damage)}")
    if item.armour is not None:
        facts.append(f"{terms.armour_value} {signed(item.armour)}")
    return Pick(
        item.name,
        tuple(facts),
        f"costs nothing from the budget; its values go into your damage factors "
        f"({ruleset.section('equipment')})",
        item.note,
    )
