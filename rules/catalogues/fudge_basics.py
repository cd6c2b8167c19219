"""Fudge Basics reference data. It has no skill, gift or fault lists of its own and borrows
Mudge's (1.31-1.34) without their section numbers, except that the attribute that soaks
damage keeps Fudge Basics' own name, "Damage Capacity" (Offensive and Defensive Damage
Factors: "For Character's Damage Capacity Comparable Attribute"). Its equipment is its own:
the weapon and armour factors of "Offensive and Defensive Damage Factors". It has no sample
powers ("Supernormal powers are treated as potent gifts"). The GM renames, drops or adds
attributes and entries for a campaign.

Standard library only: no Django here.
"""

import dataclasses

from rules.catalog import CatalogEquipment
from rules.catalogues import mudge

DAMAGE_CAPACITY = "Damage Capacity"
ATTRIBUTES = tuple(DAMAGE_CAPACITY if a == "Constitution" else a for a in mudge.ATTRIBUTES)

_SHARP = "+1 more if sharp, +1 if powered"
_ARMOUR = "+1 more if metal, +1 if rigid, +1 if powered (sci-fi)"
# Offensive and Defensive Damage Factors: "For Muscle-Powered Weapons", "For Firearms" (a
# caliber's factor plus the weapon's), "For Armor".
EQUIPMENT = (
    CatalogEquipment("No weapon", "weapon", damage=0),
    CatalogEquipment("Small weapon", "weapon", damage=1, note=_SHARP),
    CatalogEquipment("Medium-weight one-handed weapon", "weapon", damage=2, note=_SHARP),
    CatalogEquipment(
        "Large one-handed or light two-handed weapon", "weapon", damage=3, note=_SHARP
    ),
    CatalogEquipment("Two-handed weapon", "weapon", damage=4, note=_SHARP),
    CatalogEquipment(
        "Handgun", "weapon", damage=1, note="plus its caliber: small +1 … magnum +4; base range 10m"
    ),
    CatalogEquipment(
        "Submachine gun or carbine", "weapon", damage=2, note="plus its caliber; base range 20m"
    ),
    CatalogEquipment(
        "Rifle or shotgun",
        "weapon",
        damage=3,
        note="plus its caliber; base range 50m (shotgun 10m)",
    ),
    CatalogEquipment("Light, pliable armour", "armour", armour=1, note=_ARMOUR),
    CatalogEquipment("Medium, pliable armour", "armour", armour=2, note=_ARMOUR),
    CatalogEquipment("Heavy, pliable armour", "armour", armour=3, note=_ARMOUR),
)

CATALOG = dataclasses.replace(
    mudge.CATALOG,
    attributes=ATTRIBUTES,
    equipment=EQUIPMENT,
    powers=(),
    section="Fudge Basics, Character Creation (skills, gifts and faults: Fairsheet's lists)",
)
