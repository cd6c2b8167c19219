"""The fudge-rpg system's ids, types and tables that reading and writing an actor share, and
what an import gives back (Imported) and an export records (Provenance)."""

import dataclasses
import re
from dataclasses import dataclass

from rules.character import Character
from rules.words import ENGLISH, Phrase, say, say_in

SYSTEM_ID = "fudge-rpg"
FLAG = "fairsheet"
FAIRSHEET, FOUNDRY = "fairsheet", "foundry"
# "major" is what the system called a character before its data models (actor.mjs migrates it).
ACTOR_TYPES = ("character", "major")
ITEM_TYPES = ("attributeset", "traitladder", "skill", "gift", "fault", "equipment")
# The character file's lists, each with the item type that carries its entries.
LIST_TYPES = {
    "skills": "skill",
    "gifts": "gift",
    "faults": "fault",
    "powers": "gift",  # the sheet's "Gifts & Powers" section
    "equipment": "equipment",
}
ID_ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
ID_LENGTH = 16
ID = re.compile(r"[0-9A-Za-z]{16}")
SORT_STEP = 100_000  # Foundry's spacing of sibling documents' `sort`
# actor.mjs: the wound levels in order, with the boxes a new character has.
SYSTEM_WOUNDS = {"scratch": 3, "hurt": 2, "veryhurt": 1, "incapacitated": 1, "neardeath": 1}
MAX_ITEM_NAME = 100
MAX_EQUIPMENT_NOTES = 1000
# The heading the export puts before the player's notes in `system.notes`, and the labels of
# the rows before it (what the system has no field for): the way back finds the notes by them.
NOTES_HEADING = "<h3>Notes</h3>"
NOTE_ROWS = (
    "Player",
    "Concept",
    "Race",
    "Scale",
    "Ruleset",
    "Offensive damage factors",
    "Defensive damage factor",
    "Tokens",
    "Approved",
    "Fairsheet",
)
# What an import report line is, most important first: the page and the API list them so.
CHANGED, LOST, BY_DESIGN = "changed", "lost", "by design"
REPORT_LEVELS = (CHANGED, LOST, BY_DESIGN)
REPORT_HEADINGS = {
    CHANGED: say("Changed on the way in: check these"),
    LOST: say("Not imported"),
    BY_DESIGN: say("Left out: Fairsheet has no place for these"),
}
# An actor's picture Fairsheet can keep: one it carries, not a path into a Foundry world.
PICTURE = re.compile(r"data:image/(png|jpeg|webp);base64,[A-Za-z0-9+/=\s]+")
PLACEHOLDER_ICONS = ("icons/svg/", "systems/fudge-rpg/")
FIVE_POINT = ("fivepoint", "fivePoint")  # the five-point groups: 2.4 on, and 2.3
# The damage links of an attribute set, with the house rule that keeps each (Mudge 4.52, 4.54).
DAMAGE_LINKS = {"muscleweapon": "muscle_attribute", "damagecap": "damage_capacity_attribute"}
# A gift's or skill's text that allows it more than once ("You may take this gift multiple
# times"; Language: "Each language learned is a separate skill"): a second one is kept.
REPEATABLE = re.compile(r"multiple times|more than once|is a separate skill", re.IGNORECASE)
POWER_KINDS = {
    "spell": "Spell",
    "psi": "Psi power",
    "superpower": "Superpower",
    "field": "Field of power",
}


@dataclass(frozen=True)
class Provenance:
    """Where an exported character stands on the site: its id, version and state, and the
    GM's approval stamp when it has one."""

    character_id: int
    version: int
    state: str  # as the site shows it: "Draft", "Approved"...
    approved_version: int | None = None
    sha256: str = ""
    approved_by: str = ""
    approved_on: str = ""  # ISO date


@dataclass(frozen=True)
class Imported:
    """A character read from a character file or a Foundry actor."""

    character: Character
    source: str  # FAIRSHEET or FOUNDRY
    # What an actor held that the character could not take as it was, most important first,
    # in English (the API's and the audit trail's words) and as the Phrases a page says
    not_mapped: tuple[str, ...] = ()
    levels: tuple[str, ...] = ()  # each not_mapped line's REPORT_LEVELS word
    phrases: tuple[Phrase, ...] = ()
    ignored: tuple[str, ...] = ()  # character-file fields this version does not know
    # The character on the site an actor was exported from (flags.fairsheet.character_id)
    character_id: int | None = None
    # The picture the actor carries (`img` or its token's) as a data: URL, else ""
    image: str = ""

    def report(self, speaker=ENGLISH) -> list[tuple[str, list[str]]]:
        """The not_mapped lines under their headings, most important first, said by
        `speaker` (English by default; characters.wording's SPEAKER for a page)."""
        groups = {level: [] for level in REPORT_LEVELS}
        lines = self.phrases or self.not_mapped
        for level, line in zip(self.levels, lines, strict=True):
            groups[level].append(say_in(line, speaker))
        return [
            (say_in(REPORT_HEADINGS[level], speaker), lines)
            for level, lines in groups.items()
            if lines
        ]

    def with_note(self, level: str, phrase: Phrase, *, first: bool = False) -> "Imported":
        """The import with one more line of its report, first or last."""
        if first:
            return dataclasses.replace(
                self,
                not_mapped=(str(phrase), *self.not_mapped),
                levels=(level, *self.levels),
                phrases=(phrase, *self.phrases),
            )
        return dataclasses.replace(
            self,
            not_mapped=(*self.not_mapped, str(phrase)),
            levels=(*self.levels, level),
            phrases=(*self.phrases, phrase),
        )
