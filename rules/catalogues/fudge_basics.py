"""Fudge Basics reference data: it has no lists of its own and borrows Mudge's (1.31-1.34,
4.54, 6.4), except that the attribute that soaks damage keeps Fudge Basics' own name,
"Damage Capacity" (Offensive and Defensive Damage Factors: "For Character's Damage Capacity
Comparable Attribute"). The GM renames, drops or adds attributes for a campaign.

Standard library only: no Django here.
"""

import dataclasses

from rules.catalogues import mudge

DAMAGE_CAPACITY = "Damage Capacity"
ATTRIBUTES = tuple(DAMAGE_CAPACITY if a == "Constitution" else a for a in mudge.ATTRIBUTES)

CATALOG = dataclasses.replace(
    mudge.CATALOG,
    attributes=ATTRIBUTES,
    section="Fudge Basics, Character Creation; lists from Mudge 1.31-1.34",
)
