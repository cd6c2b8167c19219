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


# A designed game's own words for an entry in other languages, as (language code, name, note)
# rows: the engine never reads them; the app shows them to a player of that language.
Translations = tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class CatalogSkill:
    name: str
    difficulty: str = "average"  # easy | average | hard | very_hard
    note: str = ""  # e.g. "type: pistol, rifle, smg" for Gun (type)
    translations: Translations = ()


@dataclass(frozen=True)
class CatalogGift:
    name: str
    cost: Fraction | int = 1  # in gifts: 2 for the starred ones (Mudge 1.33)
    note: str = ""
    translations: Translations = ()


@dataclass(frozen=True)
class CatalogFault:
    name: str
    value: Fraction | int = 1  # in gifts: 2 for the starred ones (Mudge 1.34)
    note: str = ""
    translations: Translations = ()


@dataclass(frozen=True)
class CatalogEquipment:
    name: str
    kind: str  # weapon | armour | shield | gear
    damage: int | None = None  # weapon value, Mudge 4.54 (Offensive Factors)
    armour: int | None = None  # armour value, Mudge 4.54 (Defensive Factors)
    note: str = ""
    translations: Translations = ()


# What a power's `cost` line means, by kind (Mudge 2.51, 2.71, 2.81; DIP VIII.1).
USE_COST_LABELS = {
    "spell": "Mana a casting lowers",
    "psi": "Psyche a use lowers",
    "superpower": "Cost of a use",
    "field": "Cost of a use",
}

# The text lines of a sample power that a campaign's catalogue keeps as they are.
POWER_DETAILS = (
    "section",
    "cost",
    "target",
    "damage_factor",
    "range",
    "duration",
    "effect",
    "group",
)


@dataclass(frozen=True)
class CatalogPower:
    """A sample power as its rule text gives it (Mudge 2.52's spell form: name and difficulty,
    cost, target, damage factor, range, duration, effect; DIP VIII.1's fields of power).

    `cost` is not a price: it is what one use lowers, in levels of the attribute that powers
    it (Mudge 2.51: "how many levels the mage's Mana attribute is temporarily lowered when
    that spell is cast"), kept as the text words it ("0 (can be used at will)")."""

    name: str
    kind: str  # spell | psi | superpower | field
    section: str = ""  # e.g. "Mudge 2.53"
    difficulty: str = ""  # spells and psi abilities: hard | very_hard
    cost: str = ""
    target: str = ""
    damage_factor: str = ""
    range: str = ""
    duration: str = ""
    effect: str = ""
    group: str = ""  # e.g. "cybernetics" (Mudge 2.9): priced as the superpowers they are

    def details(self) -> tuple[tuple[str, str], ...]:
        """The text's lines, labelled, the empty ones left out. The cost says what it is:
        not a price but what a use lowers (Mudge 2.51, 2.71)."""
        lines = (
            (USE_COST_LABELS.get(self.kind, "Cost of a use"), self.cost),
            ("Target", self.target),
            ("Damage factor", self.damage_factor),
            ("Range", self.range),
            ("Duration", self.duration),
            ("Effect", self.effect),
        )
        return tuple((label, value) for label, value in lines if value)

    def as_details(self) -> dict[str, str]:
        """The text lines as a campaign's catalogue stores them (POWER_DETAILS)."""
        return {key: getattr(self, key) for key in POWER_DETAILS if getattr(self, key)}


@dataclass(frozen=True)
class Catalog:
    attributes: tuple[str, ...]
    skills: tuple[CatalogSkill, ...] = ()
    gifts: tuple[CatalogGift, ...] = ()
    faults: tuple[CatalogFault, ...] = ()
    equipment: tuple[CatalogEquipment, ...] = ()
    power_kinds: tuple[str, ...] = ()
    powers: tuple[CatalogPower, ...] = ()  # sample powers (Mudge 2.53-2.91, DIP VIII.1)
    section: str = ""  # where the lists come from, e.g. "Mudge 1.32"
    power_kind_notes: dict[str, str] = field(default_factory=dict)  # kind -> the GM's note

    def skill(self, name: str) -> CatalogSkill | None:
        return self._find("skills", name)

    def gift(self, name: str) -> CatalogGift | None:
        return self._find("gifts", name)

    def fault(self, name: str) -> CatalogFault | None:
        return self._find("faults", name)

    def power(self, name: str) -> CatalogPower | None:
        return self._find("powers", name)

    def equipment_item(self, name: str) -> CatalogEquipment | None:
        return self._find("equipment", name)

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
            for list_name in ("skills", "gifts", "faults", "powers", "equipment")
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
    # Mudge 6.42: the keys are broad groups ("Combat skills"), for "a loose and easy game"
    broad: bool = False
