"""Catalogue shapes: the lists a GM picks traits from (skills, gifts, faults, equipment)
and the class and race templates of Mudge 6.4. The data itself lives in rules/catalogues/.

Plain frozen dataclasses: catalogues are read-only reference data shared by every request.
A catalogue also answers what the report and the builder ask of it: the difficulty of a skill
and the cost of a gift or fault, by name (`base_name` explains how names match).
"""

import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

# "Area Knowledge (the Shire)" and "Riding, Pony" are kinds of Mudge 1.32's "Area Knowledge
# (type)" and "Riding (type)": the catalogue lists the skill once, by its base name.
_SPECIALISATION = re.compile(r"\s*(?:\(.*\)|,.*)$")


def base_name(name: str) -> str:
    """A name without its specialisation: 'Area Knowledge (the Shire)' -> 'Area Knowledge',
    'Riding, Pony' -> 'Riding', 'Luck (1/hour)' -> 'Luck'."""
    return _SPECIALISATION.sub("", name).strip() or name


@dataclass(frozen=True)
class CatalogSkill:
    name: str
    difficulty: str = "average"  # easy | average | hard | very_hard
    note: str = ""  # e.g. "type: pistol, rifle, smg" for Gun (type)


@dataclass(frozen=True)
class CatalogGift:
    name: str
    cost: Fraction | int = 1  # in gifts: 2 for the starred ones (Mudge 1.33)
    note: str = ""


@dataclass(frozen=True)
class CatalogFault:
    name: str
    value: Fraction | int = 1  # in gifts: 2 for the starred ones (Mudge 1.34)
    note: str = ""


@dataclass(frozen=True)
class CatalogEquipment:
    name: str
    kind: str  # weapon | armour | shield | gear
    damage: int | None = None  # weapon value, Mudge 4.54 (Offensive Factors)
    armour: int | None = None  # armour value, Mudge 4.54 (Defensive Factors)
    note: str = ""


@dataclass(frozen=True)
class Catalog:
    attributes: tuple[str, ...]
    skills: tuple[CatalogSkill, ...] = ()
    gifts: tuple[CatalogGift, ...] = ()
    faults: tuple[CatalogFault, ...] = ()
    equipment: tuple[CatalogEquipment, ...] = ()
    power_kinds: tuple[str, ...] = ()
    section: str = ""  # where the lists come from, e.g. "Mudge 1.32"
    power_kind_notes: dict[str, str] = field(default_factory=dict)  # kind -> the GM's note

    def skill(self, name: str) -> CatalogSkill | None:
        return self._find("skills", name)

    def gift(self, name: str) -> CatalogGift | None:
        return self._find("gifts", name)

    def fault(self, name: str) -> CatalogFault | None:
        return self._find("faults", name)

    def _find(self, list_name: str, name: str):
        """The entry named `name`, or else the one named by its base name (case ignored).
        Answers are remembered: the same names are asked for on every report."""
        key = (list_name, name)
        if key not in self._found:
            index = self._indexes[list_name]
            found = index.get(name.casefold())
            if found is None:
                found = index.get(base_name(name).casefold())
            if len(self._found) < 10_000:  # names come from files: keep the memo bounded
                self._found[key] = found
            return found
        return self._found[key]

    # Indexes by casefolded name, built on first use (catalogues are shared and read-only).
    @cached_property
    def _indexes(self) -> dict[str, dict]:
        return {
            list_name: {entry.name.casefold(): entry for entry in getattr(self, list_name)}
            for list_name in ("skills", "gifts", "faults")
        }

    @cached_property
    def _found(self) -> dict:
        return {}


@dataclass(frozen=True)
class Template:
    """A class or race template (Mudge 6.4): minimums the builder checks, and what a race adds."""

    slug: str
    name: str
    kind: str  # "class" or "race"
    section: str  # e.g. "Mudge 6.41"
    description: str = ""
    # trait name -> minimum level word, e.g. {"Perception": "Good", "Tracking": "Great"}
    minimum_attributes: dict[str, str] = field(default_factory=dict)
    minimum_skills: dict[str, str] = field(default_factory=dict)
    recommended_gifts: tuple[str, ...] = ()
    required_gifts: tuple[str, ...] = ()
    required_faults: tuple[str, ...] = ()
    # races: what the race brings (Scale, racial bonuses as level shifts)
    scale_strength: int = 0
    scale_mass: int = 0
    racial_bonuses: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
