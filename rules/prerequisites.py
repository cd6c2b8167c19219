"""Checking a character against its game's prerequisites (rules.game_parts.Prerequisite;
docs/ruleset-file.md, "prerequisites"): each guarded trait the character has that lacks what
it needs, or the traits past a group's "at most", said in the GM's own words."""

import dataclasses
from dataclasses import dataclass

from rules.character import Character, Gift, Power, Trait
from rules.derived import derived_values, values_by_key
from rules.game_parts import Prerequisite

# The lists of a character a prerequisite may guard or need, as the report's `where` names
# them ("gifts[2]").
LISTS = ("attributes", "skills", "gifts", "faults", "powers")


@dataclass(frozen=True)
class Broken:
    prerequisite: Prerequisite
    trait: str  # the guarded trait, as the character names it
    where: str  # its row: "powers[1]"


def broken_prerequisites(
    character: Character, prerequisites, derived: dict[str, int | None]
) -> list[Broken]:
    """Every prerequisite `character` breaks, one entry a guarded trait that breaks it."""
    broken = []
    for prerequisite in prerequisites:
        guarded = _guarded(character, prerequisite)
        if prerequisite.at_most is not None:
            broken.extend(
                Broken(prerequisite, name, where) for name, where in guarded[prerequisite.at_most :]
            )
            continue
        if not guarded or _met(character, prerequisite, derived):
            continue
        needed = prerequisite.needs.casefold()
        broken.extend(
            Broken(prerequisite, name, where)
            for name, where in guarded
            if name.casefold() != needed
        )
    return broken


def _rows(character: Character):
    for list_name in LISTS:
        for index, item in enumerate(getattr(character, list_name)):
            yield item, f"{list_name}[{index}]"


def _guarded(character: Character, prerequisite: Prerequisite) -> list[tuple[str, str]]:
    """The guarded traits the character has, (name, where), in the sheet's order."""
    names = {n.casefold() for n in prerequisite.guards}
    return [
        (item.name, where)
        for item, where in _rows(character)
        if item.name.casefold() in names
        or (prerequisite.guards_kind and getattr(item, "kind", None) == prerequisite.guards_kind)
    ]


def _met(character: Character, prerequisite: Prerequisite, derived: dict) -> bool:
    needed = prerequisite.needs.casefold()
    found = [item for item, _ in _rows(character) if item.name.casefold() == needed]
    if not found:
        return False
    if prerequisite.at_least_derived:
        threshold = derived.get(prerequisite.at_least_derived)
        if threshold is None:  # a value that cannot be worked out meets nothing
            return False
    else:
        threshold = prerequisite.at_least
    if threshold is None:
        return True
    levels = [getattr(item, "level", None) for item in found]
    return any(level is not None and level >= threshold for level in levels)


def check(character: Character, ruleset) -> list[Broken]:
    """Every prerequisite of `ruleset` that `character` breaks."""
    if not ruleset.prerequisites:
        return []
    derived = values_by_key(derived_values(ruleset, character))
    return broken_prerequisites(character, ruleset.prerequisites, derived)


def broken_by(before: Character, after: Character, ruleset) -> list[Broken]:
    """What a change (an experience spend) would break: the prerequisites `after` breaks
    that `before` did not. A build the GM approved broken stays as approved."""
    already = {(b.prerequisite.key, b.trait.casefold()) for b in check(before, ruleset)}
    return [
        b for b in check(after, ruleset) if (b.prerequisite.key, b.trait.casefold()) not in already
    ]


def with_spend(
    character: Character,
    *,
    list_name: str,
    name: str,
    level: int | None = None,
    power_kind: str = "",
    removed: bool = False,
) -> Character:
    """`character` after a spend: the trait `name` of `list_name` raised or learned at
    `level`, added (a gift, a power), or `removed` (a fault bought off)."""
    items = getattr(character, list_name)
    kept = tuple(i for i in items if i.name.casefold() != name.casefold())
    if removed:
        return dataclasses.replace(character, **{list_name: kept})
    if list_name == "gifts":
        item = Gift(name)
    elif list_name == "powers":
        item = Power(name, power_kind, level)
    else:
        item = Trait(name, level if level is not None else 0)
    return dataclasses.replace(character, **{list_name: (*kept, item)})
