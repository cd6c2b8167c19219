"""Foundry VTT actors for the `fudge-rpg` game system (lupestro/fvtt-fudge 2.7, Foundry 12-14).

`write_actor` turns a Character into an actor for Foundry's "Import Data"; `read_actor` turns
such an actor, or one made in Foundry, back into a Character with a list of what could not be
mapped. docs/foundry.md describes the mapping field by field.

The actor holds only what the system's data models define (module/data-models/actor.mjs and
item.mjs of release-2.7.0): Foundry's import refuses unknown keys, nulls and fractions there.
What the system has no field for (Scale, powers, tokens, the approval) goes into the notes for
the table and into `flags.fairsheet` for the way back; each item's flags keep its entry of the
character file, so a round trip loses nothing that was not changed in Foundry.
"""

from rules.foundry.reading import is_actor, parse_any, parse_data, picture_bytes, read_actor
from rules.foundry.tables import (
    BY_DESIGN,
    CHANGED,
    FAIRSHEET,
    FLAG,
    FOUNDRY,
    LOST,
    Imported,
    Provenance,
)
from rules.foundry.writing import write_actor

__all__ = [
    "BY_DESIGN",
    "CHANGED",
    "FAIRSHEET",
    "FLAG",
    "FOUNDRY",
    "LOST",
    "Imported",
    "Provenance",
    "is_actor",
    "parse_any",
    "parse_data",
    "picture_bytes",
    "read_actor",
    "write_actor",
]
