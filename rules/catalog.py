"""Catalogue shapes: the lists a GM picks traits from (skills, gifts, faults, equipment)
and the class and race templates of Mudge 6.4. The data itself lives in rules/catalogues/.

Plain frozen dataclasses: catalogues are read-only reference data shared by every request.
"""

from dataclasses import dataclass, field
from fractions import Fraction


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
