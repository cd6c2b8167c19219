"""Derived values (docs/ruleset-file.md, "derived"): numbers a GM's game works out from a
character's traits, such as a damage capacity from Constitution and Strength Scale, shown on
the sheet and usable as a tracker's start or a prerequisite's level.

A value is its formula (rules.formula) worked out exactly, then rounded down to a whole
number, as the sheet prints it. A formula may read other derived values; the ruleset file's
reader refuses a loop, so they are worked out in an order where each comes after those it
reads."""

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from rules.formula import FormulaError, evaluate, parse_formula
from rules.game_parts import Derived
from rules.rulesets import skill_default
from rules.words import Phrase, say


@dataclass(frozen=True)
class DerivedValue:
    derived: Derived
    value: int | None  # None: the formula cannot be worked out for this character
    problem: Phrase | None = None


def reading_order(derived: tuple[Derived, ...]) -> list[Derived] | tuple[str, list[str]]:
    """`derived` in an order where each value comes after the values its formula reads, or
    (the key where a loop was found, the keys around it) when there is none. Formulas that
    do not parse are left out (their problem is said where they stand)."""
    by_key = {d.key: d for d in derived}
    reads = {}
    for d in derived:
        try:
            reads[d.key] = sorted(k for k in parse_formula(d.formula).keys if k in by_key)
        except FormulaError:
            reads[d.key] = []
    order: list[Derived] = []
    state: dict[str, str] = {}  # key -> "open" while its reads are followed, then "done"

    def visit(key: str, path: list[str]):
        if state.get(key) == "done":
            return None
        if state.get(key) == "open":
            return key, [*path[path.index(key) :], key]
        state[key] = "open"
        for read in reads[key]:
            loop = visit(read, [*path, key])
            if loop:
                return loop
        state[key] = "done"
        order.append(by_key[key])
        return None

    for d in derived:
        loop = visit(d.key, [])
        if loop:
            return loop
    return order


def derived_values(ruleset, character) -> list[DerivedValue]:
    """Each of the ruleset's derived values for `character`, in the ruleset's order."""
    if not ruleset.derived:
        return []
    order = reading_order(ruleset.derived)
    scope = CharacterScope(ruleset, character)
    if isinstance(order, tuple):  # a loop: only a file the reader refused has one
        return [
            DerivedValue(d, None, say("reads itself through other values")) for d in ruleset.derived
        ]
    found: dict[str, DerivedValue] = {}
    for d in order:
        try:
            value = evaluate(parse_formula(d.formula), scope)
        except FormulaError as error:
            found[d.key] = DerivedValue(d, None, error.phrase)
            scope.values[d.key] = None
            continue
        found[d.key] = DerivedValue(d, math.floor(value))
        scope.values[d.key] = Fraction(math.floor(value))
    return [found[d.key] for d in ruleset.derived]


def values_by_key(values: Iterable[DerivedValue]) -> dict[str, int | None]:
    return {v.derived.key: v.value for v in values}


class CharacterScope:
    """What a formula's names mean for one character: a trait it lacks is at its default
    (an attribute at the ruleset's, a skill at its difficulty's or the ruleset's)."""

    def __init__(self, ruleset, character):
        self.ruleset = ruleset
        self.character = character
        self.values: dict[str, Fraction | None] = {}
        self.levels = {}
        for trait in (*character.attributes, *character.skills):
            self.levels.setdefault(trait.name.casefold(), trait.level)
        for power in character.powers:
            if power.level is not None:
                self.levels.setdefault(power.name.casefold(), power.level)
        self.names = {
            item.name.casefold()
            for item in (
                *character.skills,
                *character.gifts,
                *character.faults,
                *character.powers,
                *character.attributes,
            )
        }

    def level(self, name: str) -> int:
        folded = name.casefold()
        if folded in self.levels:
            return self.levels[folded]
        return _default_level(self.ruleset, name)

    def has(self, name: str) -> bool:
        return name.casefold() in self.names

    def scale(self, kind: str) -> int:
        return getattr(self.character, f"scale_{kind}")

    def value(self, name: str) -> Fraction:
        value = self.values.get(name)
        if value is None:
            raise FormulaError(say("reads {key}, which cannot be worked out", key=name))
        return value


def _default_level(ruleset, name: str) -> int:
    folded = name.casefold()
    for attribute in ruleset.attribute_names or ():
        if attribute.casefold() == folded:
            return ruleset.attribute_default
    for attribute, default in ruleset.extra_attributes:
        if attribute.casefold() == folded:
            return default
    skill = ruleset.catalog.skill(name)
    default = skill_default(ruleset, name, skill.difficulty if skill else None)
    # A skill with no default (Mudge's Very Hard) is at the ladder's bottom.
    return ruleset.ladder.bottom if default is None else default
