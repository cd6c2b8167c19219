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

import base64
import binascii
import dataclasses
import hashlib
import html
import math
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from html.parser import HTMLParser

from rules.character import Character
from rules.charfile import (
    MAX_NAME,
    MAX_QUANTITY,
    MAX_ROWS,
    MAX_TEXT,
    CharacterFileError,
    load_json,
    read_character,
    write_character,
)
from rules.combat import damage_factors, wound_track
from rules.house_rules import HouseRuleError, apply_house_rules
from rules.ladder import STANDARD, signed
from rules.report import POOLS, Report, amount, build_report, ruleset_attributes
from rules.rulesets import BUILTIN, FUDGE_BASICS, LEVELS, Ruleset
from rules.text import name_problem, unstorable_problem
from rules.words import ENGLISH, Level, Phrase, say, say_in, say_plural

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
# The damage links of an attribute set, with the house rule that keeps each (Mudge 4.52, 4.54).
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


# -- Character -> actor ------------------------------------------------------------------------


def write_actor(
    character: Character,
    *,
    provenance: Provenance | None = None,
    ruleset: Ruleset | None = None,
    image: str = "",
) -> dict:
    """The character as a fudge-rpg actor (a dict ready for json.dumps). Item ids derive from
    the character's site id (or, for a file, its player and name), each item's list and
    name: exporting again gives the same ids, so Foundry updates items instead of adding.
    `ruleset` is a designed ruleset the character is built with (else its built-in); a
    ladder of its own goes with it as fudge-rpg's trait ladder item. `image`: the portrait as a
    data: URL, the actor's picture and its token's (Foundry takes either a path or a URL)."""
    base = ruleset or BUILTIN[character.ruleset]
    ruleset = apply_house_rules(base, character.house_rules)
    report = build_report(character, ruleset)
    file = write_character(character, ruleset.ladder)
    ids = _Ids(
        f"site:{provenance.character_id}"
        if provenance
        else f"file:{character.player.casefold()}:{character.name.casefold()}"
    )
    attributeset, added = _attributeset(character, ruleset, ids)
    items = [attributeset]
    items += [
        _skill(trait, entry, ruleset, ids)
        for trait, entry in zip(character.skills, file["skills"], strict=True)
    ]
    # The priced cost: a gift or fault the file gives no cost takes its catalogue's.
    items += [
        _item(ids, "gifts", gift, f"Costs {amount(cost, 'gifts')}.", entry)
        for gift, cost, entry in zip(
            character.gifts, report.costs["gifts"], file["gifts"], strict=True
        )
    ]
    items += [
        _item(ids, "powers", power, _power_text(entry, ruleset), entry)
        for power, entry in zip(character.powers, file["powers"], strict=True)
    ]
    items += [
        _item(ids, "faults", fault, f"Worth {amount(value, 'faults')}.", entry)
        for fault, value, entry in zip(
            character.faults, report.costs["faults"], file["faults"], strict=True
        )
    ]
    items += [
        _equipment(item, entry, ids)
        for item, entry in zip(character.equipment, file["equipment"], strict=True)
    ]
    if ruleset.ladder != STANDARD:
        items.append(_trait_ladder(ruleset, ids))
    for position, item in enumerate(items):
        item["sort"] = position * SORT_STEP
    pictures = {"img": image, "prototypeToken": {"texture": {"src": image}}} if image else {}
    return pictures | {
        "_id": ids.make("actor", "", keep=character.foundry_ids.get("actor", "")),
        "name": character.name,
        "type": "character",
        "system": {
            "fp": character.meta_points
            if character.meta_points is not None
            else ruleset.meta_points_start,
            "ep": character.experience,
            "mana": 0,
            "wounds": _wounds(character, ruleset),
            "notes": _notes(character, ruleset, report, provenance),
            "unspent": _unspent(report, ruleset),
        },
        "items": items,
        "effects": [],
        "flags": {FLAG: _actor_flags(file, report, ruleset, added, provenance)},
    }


class _Ids:
    """Foundry ids (16 letters and digits): the one Foundry knows an item by (`keep`, read
    from the actor it was imported from), else one from a hash of the character's identity,
    the item's list and its name; the n-th item of the same name gets its own."""

    def __init__(self, identity: str):
        self.identity = identity
        self.seen = Counter()
        self.used = set()

    def make(self, kind: str, name: str, keep: str = "") -> str:
        key = (kind, name.casefold())
        occurrence = self.seen[key]
        self.seen[key] += 1
        if ID.fullmatch(keep) and keep not in self.used:
            self.used.add(keep)
            return keep
        text = "\x1f".join((self.identity, kind, key[1], str(occurrence)))
        number = int.from_bytes(hashlib.sha256(text.encode()).digest())
        digits = []
        for _ in range(ID_LENGTH):
            number, digit = divmod(number, len(ID_ALPHABET))
            digits.append(ID_ALPHABET[digit])
        self.used.add("".join(digits))
        return "".join(digits)


def _trait_ladder(ruleset: Ruleset, ids: _Ids) -> dict:
    """fudge-rpg's traitladder item: the ruleset's words, highest first, as its compendium's
    Extended Trait Ladder lists them."""
    ladder = ruleset.ladder
    return {
        "_id": ids.make("traitladder", ruleset.slug),
        "name": f"{ruleset.name} Trait Ladder",
        "type": "traitladder",
        "system": {
            "description": "",
            "traits": [
                {"name": word, "value": index - ladder.fair}
                for index, word in reversed(list(enumerate(ladder.words)))
            ],
        },
        "effects": [],
        "flags": {},
    }


def _item(ids: _Ids, list_name: str, row, text: str, entry: dict, **system) -> dict:
    """The item of one entry of a list; `row` is the engine's trait or equipment."""
    return {
        "_id": ids.make(list_name, row.name, keep=row.foundry_id),
        "name": row.name,
        "type": LIST_TYPES[list_name],
        "system": {"description": f"<p>{_escape(text)}</p>" if text else "", **system},
        "effects": [],
        "flags": {FLAG: {"list": list_name, "entry": entry}},
    }


def _attributeset(character: Character, ruleset: Ruleset, ids: _Ids) -> tuple[dict, list]:
    """The one attribute set: the listed attributes, then the ruleset's others at their
    default (the sheet shows only what the set holds); those are named in the flags."""
    attributes = [{"name": t.name, "level": t.level} for t in character.attributes]
    listed = {t.name.casefold() for t in character.attributes}
    added = []
    for name, default in ruleset_attributes(character, ruleset):
        if name.casefold() not in listed:
            listed.add(name.casefold())
            attributes.append({"name": name, "level": default})
            added.append({"name": name, "level": ruleset.word(default)})
    names = {a["name"].casefold(): a["name"] for a in attributes}
    system = {
        "description": f"<p>{_escape(ruleset.name)}: the attributes of "
        f"{_escape(character.name)}, exported from Fairsheet.</p>",
        "attributes": attributes,
        # What the system's damage rolls read: the attribute that adds to muscle-powered
        # weapons and the one that soaks damage (Mudge 4.54, 4.52).
        "muscleweapon": names.get((ruleset.muscle_attribute or "").casefold(), ""),
        "damagecap": names.get((ruleset.damage_capacity_attribute or "").casefold(), ""),
    }
    item = {
        "_id": ids.make("attributeset", "", keep=character.foundry_ids.get("attributeset", "")),
        "name": f"{ruleset.name} attributes",
        "type": "attributeset",
        "system": system,
        "effects": [],
    }
    if added:
        item["flags"] = {FLAG: {"added_attributes": added}}
    return item, added


def _skill(trait, entry: dict, ruleset: Ruleset, ids: _Ids) -> dict:
    if ruleset.system != LEVELS:
        text = "Field of expertise."
    elif ruleset.skill_difficulties:
        difficulty = (trait.difficulty or "average").replace("_", " ")
        text = f"{difficulty.capitalize()} skill ({ruleset.section('skills')})."
    else:
        text = ""
    return _item(ids, "skills", trait, text, entry, level=trait.level, groups=[])


def _power_text(power: dict, ruleset: Ruleset) -> str:
    parts = [POWER_KINDS[power.get("kind") or ruleset.power_kinds[-1]]]
    if "level" in power:
        parts[0] += f" at {power['level']}"
    if "difficulty" in power:
        parts.append(power["difficulty"].replace("_", " "))
    if "cost" in power:
        parts.append(f"costs {amount(power['cost'], 'gifts')}")
    return ", ".join(parts) + "."


def _equipment(row, entry: dict, ids: _Ids) -> dict:
    values = [entry["kind"].capitalize()]
    if "damage" in entry:
        values.append(f"damage {signed(entry['damage'])}")
    if "armour" in entry:
        values.append(f"armour {signed(entry['armour'])}")
    item = _item(
        ids,
        "equipment",
        row,
        ", ".join(values) + ".",
        entry,
        # The data model counts from 0: a negative value stays in the description and flags.
        odf=max(entry.get("damage", 0), 0),
        ddf=max(entry.get("armour", 0), 0),
        quantity=row.quantity,
    )
    if entry.get("notes"):
        item["system"]["description"] += _paragraphs(entry["notes"])
    return item


def _wounds(character: Character, ruleset: Ruleset) -> dict:
    """The wound boxes of Mudge 4.57 or Fudge Basics, with Toughness and Pain Threshold;
    MicroFudged has no wound track, so its actor keeps the system's own."""
    track = wound_track(character, ruleset)
    if len(track) != len(SYSTEM_WOUNDS):  # MicroFudged's setbacks are not wound boxes
        track = ()
    boxes = [level.boxes for level in track] if track else list(SYSTEM_WOUNDS.values())
    return {key: {"value": 0, "max": n} for key, n in zip(SYSTEM_WOUNDS, boxes, strict=True)}


def _unspent(report: Report, ruleset: Ruleset) -> dict:
    """What is left in each pool after the report's trades, in whole levels (the system's
    counters); token rulesets have no such pools."""
    if ruleset.system != LEVELS:
        return {"attrlevels": 0, "skilllevels": 0, "gifts": 0, "faults": 0}
    left = {pool: report.pools[pool]["budget"] - report.pools[pool]["spent"] for pool in POOLS}
    left["faults"] = report.pools["faults"]["value"]
    for trade in report.trades:
        left[trade.give_pool] -= trade.give
        left[trade.get_pool] += trade.get
    whole = {pool: max(math.floor(value), 0) for pool, value in left.items()}
    return {
        "attrlevels": whole["attributes"],
        "skilllevels": whole["skills"],
        "gifts": whole["gifts"],
        "faults": whole["faults"],
    }


def _notes(
    character: Character, ruleset: Ruleset, report: Report, provenance: Provenance | None
) -> str:
    """The sheet's notes: what the system has no field for, then the player's own text.
    Every piece of user text is escaped: Foundry renders the notes as HTML."""
    rows = [("Player", character.player), ("Concept", character.concept), ("Race", character.race)]
    if character.scale_strength or character.scale_mass:
        rows.append(
            (
                "Scale",
                f"Strength {signed(character.scale_strength)}, "
                f"Mass {signed(character.scale_mass)} (Mudge 2.3)",
            )
        )
    rows.append(("Ruleset", ruleset.name + (" with house rules" if character.house_rules else "")))
    if ruleset.system == LEVELS:
        factors = damage_factors(character, ruleset)
        offensive = ", ".join(f"{f.label} {signed(f.total)}" for f in factors.offensive)
        # The first defensive factor is the body alone, armour left open (Mudge 4.54).
        body, *armours = factors.defensive
        defensive = ", ".join(
            [f"{signed(body.total)} before armour"]
            + [f"{f.label} {signed(f.total)}" for f in armours]
        )
        rows.append(("Offensive damage factors", offensive))
        rows.append(("Defensive damage factor", defensive))
    else:
        tokens = report.pools["tokens"]
        rows.append(
            (
                "Tokens",
                f"{tokens['budget']} at creation: {tokens['spent']} spent, "
                f"{tokens['saved']} saved for play",
            )
        )
    if provenance is not None:
        if provenance.approved_version is not None:
            rows.append(
                (
                    "Approved",
                    f"version {provenance.approved_version} by {provenance.approved_by} on "
                    f"{provenance.approved_on}; SHA-256 of the approved file {provenance.sha256}",
                )
            )
        rows.append(("Fairsheet", f"{provenance.state}, version {provenance.version}"))
    parts = [f"<p><strong>{label}:</strong> {_escape(value)}</p>" for label, value in rows if value]
    if character.personality:
        parts.append("<h3>Personality</h3>")
        parts += [
            f"<p><strong>{_escape(question)}</strong> {_escape(answer)}</p>"
            for question, answer in character.personality.items()
        ]
    if character.notes:
        parts.append(NOTES_HEADING + _paragraphs(character.notes))
    return "".join(parts)


def _actor_flags(
    file: dict, report: Report, ruleset: Ruleset, added: list, provenance: Provenance | None
) -> dict:
    """Everything needed to come back: the character file without the lists the items hold
    and the numbers the system holds (`fp`, `ep`), and where the character stands."""
    flags = {
        "file": {
            key: value
            for key, value in file.items()
            if key not in ("attributes", *LIST_TYPES, "experience")
        }
    }
    if provenance is not None:
        flags["character_id"] = provenance.character_id
        flags["version"] = provenance.version
        flags["state"] = provenance.state
        if provenance.approved_version is not None:
            flags["approval"] = {
                "version": provenance.approved_version,
                "sha256": provenance.sha256,
                "approved_by": provenance.approved_by,
                "approved_on": provenance.approved_on,
            }
    if ruleset.system != LEVELS:
        flags["tokens"] = {key: int(value) for key, value in report.pools["tokens"].items()}
    if added:
        flags["added_attributes"] = added
    return flags


def _escape(text) -> str:
    return html.escape(str(text), quote=True)


def _paragraphs(text: str) -> str:
    """Plain text as HTML paragraphs: blank lines part them, single line breaks stay."""
    blocks = [block.strip() for block in re.split(r"\n\s*\n", text) if block.strip()]
    return "".join("<p>" + _escape(block).replace("\n", "<br>") + "</p>" for block in blocks)


# -- actor -> Character ------------------------------------------------------------------------


def parse_any(
    text: str | bytes,
    *,
    default_ruleset: str = FUDGE_BASICS.slug,
    rulesets: Mapping[str, Ruleset] | None = None,
) -> Imported:
    """A character file or a fudge-rpg actor, told apart by their shape. `rulesets`: the
    designed rulesets either may be for, by slug."""
    return parse_data(load_json(text), default_ruleset=default_ruleset, rulesets=rulesets)


def parse_data(
    data,
    *,
    default_ruleset: str = FUDGE_BASICS.slug,
    rulesets: Mapping[str, Ruleset] | None = None,
) -> Imported:
    """parse_any for parsed JSON: one entry of a party file, say."""
    if is_actor(data):
        # Text is checked where it is kept (_ActorReader.text): a NUL in a description the
        # import throws away does not refuse the actor.
        return read_actor(data, default_ruleset=default_ruleset, rulesets=rulesets)
    result = read_character(data, rulesets)
    return Imported(result.character, FAIRSHEET, ignored=result.ignored)


def picture_bytes(image: str) -> bytes:
    """The bytes of a picture an actor carries (Imported.image); b"" for a broken one."""
    try:
        return base64.b64decode(image.partition(",")[2])
    except binascii.Error:
        return b""


def is_actor(data) -> bool:
    """A Foundry actor rather than a character file: a `system` object and no `ruleset`."""
    return isinstance(data, dict) and "system" in data and "ruleset" not in data


def read_actor(
    data,
    *,
    default_ruleset: str = FUDGE_BASICS.slug,
    rulesets: Mapping[str, Ruleset] | None = None,
) -> Imported:
    """A fudge-rpg actor as a Character, best effort: what fits nowhere is listed in
    `not_mapped`. Raises CharacterFileError only for what is not a fudge-rpg character at
    all. Without Fairsheet's flags the character is for `default_ruleset`."""
    return _ActorReader(default_ruleset, rulesets or {}).actor(data)


class _ActorReader:
    def __init__(self, default_ruleset: str, rulesets: Mapping[str, Ruleset]):
        self.default_ruleset = default_ruleset
        self.rulesets = rulesets
        self.known = {**BUILTIN, **rulesets}
        self.ladder = self.known[default_ruleset].ladder
        self.not_mapped: list[str] = []
        self.from_flags: set = set()  # top-level keys, and (list, index, key) of entries
        self.rows = 0  # traits and equipment taken, at most the character file's MAX_ROWS
        self.full = False
        self.ids = {name: [] for name in ("attributes", *LIST_TYPES)}  # items' Foundry ids
        self.foundry_ids: dict[str, str] = {}  # the actor's and its attribute set's
        self.links: dict[str, str] = {}  # the attribute set's damage links
        self.grouped: list[str] = []  # skills whose groups are not imported
        self.character_id: int | None = None
        self.image = ""

    def note(self, level: str, message: Phrase) -> None:
        self.not_mapped.append((REPORT_LEVELS.index(level), level, message))

    def actor(self, data) -> Imported:
        if not isinstance(data, dict):
            raise CharacterFileError("", say("a Foundry actor must be a JSON object"))
        stats = data.get("_stats")
        system_id = stats.get("systemId") if isinstance(stats, dict) else None
        if system_id not in (None, SYSTEM_ID):
            raise CharacterFileError(
                "_stats.systemId",
                say(
                    "this actor belongs to the {system} game system; Fairsheet reads actors "
                    "of {fudge} (Fudge RPG)",
                    system=repr(system_id),
                    fudge=repr(SYSTEM_ID),
                ),
            )
        if data.get("type") not in ACTOR_TYPES:
            raise CharacterFileError(
                "type",
                say(
                    "must be 'character', not {type}: only characters import",
                    type=repr(data.get("type")),
                ),
            )
        system, items = data.get("system"), data.get("items", [])
        if not isinstance(system, dict):
            raise CharacterFileError("system", say("must be an object"))
        if not isinstance(items, list):
            raise CharacterFileError("items", say("must be a list"))
        flags = _dict(_dict(data.get("flags")).get(FLAG))
        file = _dict(flags.get("file"))
        site_id = flags.get("character_id")
        if isinstance(site_id, int) and not isinstance(site_id, bool) and site_id > 0:
            self.character_id = site_id
        out = {
            key: value
            for key, value in file.items()
            if key not in ("name", "attributes", *LIST_TYPES, "experience", "meta_points")
        }
        self.from_flags.update(out)
        if out.get("ruleset") not in self.known:
            out["ruleset"] = self.default_ruleset
            self.note(
                CHANGED,
                say(
                    "The actor names no Fairsheet ruleset: imported for {ruleset}.",
                    ruleset=self.default_ruleset,
                ),
            )
        self.ladder = self.known[out["ruleset"]].ladder
        out["name"] = self.text(data.get("name"), "name", MAX_NAME)
        if not out["name"]:
            out["name"] = "Imported character"
            self.note(
                CHANGED, say("name: the actor has no name; imported as 'Imported character'.")
            )
        if isinstance(data.get("_id"), str) and ID.fullmatch(data["_id"]):
            self.foundry_ids["actor"] = data["_id"]
        out.update(self.items(items, flags))
        self.damage_links(out)
        out["experience"] = self.count(system.get("ep"), "system.ep", 100_000) or 0
        fp = self.count(system.get("fp"), "system.fp", 100)
        if fp is not None and ("meta_points" in file or fp != _meta_start(out, self.known)):
            out["meta_points"] = fp
        self.notes(out, system.get("notes"), file)
        self.play_state(system, data.get("effects"))
        self.picture(data)
        return self.finish(out)

    def picture(self, data: dict) -> None:
        """The actor's picture when it carries one (a data: URL, as Fairsheet exports it); a
        picture that is a file in the Foundry world cannot come along, and the report says so
        (Foundry's own placeholder icons go unmentioned)."""
        token = _dict(_dict(data.get("prototypeToken")).get("texture")).get("src")
        for where, value in (("img", data.get("img")), ("prototypeToken.texture.src", token)):
            if not isinstance(value, str) or not value or value.startswith(PLACEHOLDER_ICONS):
                continue
            if PICTURE.fullmatch(value):
                self.image = value
                return
            self.note(
                LOST,
                say(
                    "{where}: the picture is a file of the Foundry world ({file}); upload it as "
                    "the portrait on the builder.",
                    where=where,
                    file=value[:80],
                ),
            )
            return

    def notes(self, out: dict, markup, file: dict) -> None:
        """The notes as Foundry has them now: the player's part of `system.notes` (after the
        rows the export wrote before it). Where that still reads as the exported notes, the
        flags' copy is kept, exactly as it was typed."""
        if not isinstance(markup, str):
            return
        if not isinstance(file.get("notes"), str):
            out["notes"] = self.free_text(html_to_text(markup), "system.notes", MAX_TEXT)
            return
        _, heading, tail = markup.rpartition(NOTES_HEADING)
        text = html_to_text(tail) if heading else _without_note_rows(markup, file)
        if text != html_to_text(_paragraphs(file["notes"])):
            out["notes"] = self.free_text(text, "system.notes", MAX_TEXT)
            self.from_flags.discard("notes")
            self.note(
                CHANGED,
                say("system.notes: edited in Foundry; Foundry's notes are kept, as plain text."),
            )

    def damage_links(self, out: dict) -> None:
        """The attribute set's muscleweapon and damagecap, where they differ from the
        ruleset's, as the character's house rules: its damage factors use them."""
        ruleset = self.known[out["ruleset"]]
        house_rules = _dict(out.get("house_rules"))
        for link, key in DAMAGE_LINKS.items():
            name = self.links.get(link, "")
            try:
                now = apply_house_rules(ruleset, house_rules)
            except HouseRuleError:
                return  # the flags' house rules are bad: finish() drops and reports them
            if not name or name.casefold() == (getattr(now, key) or "").casefold():
                continue
            try:
                apply_house_rules(ruleset, {**house_rules, key: name})
            except HouseRuleError as error:
                self.note(
                    LOST,
                    say(
                        "attribute set {link} {name}: {problem}; not imported.",
                        link=link,
                        name=repr(name),
                        problem=error.message,
                    ),
                )
                continue
            house_rules = {**house_rules, key: name}
            out["house_rules"] = house_rules
            if link == "muscleweapon":
                kept = say(
                    "attribute set {link}: {name} is the character's muscle attribute (house "
                    "rule {key}), for its damage factors.",
                    link=link,
                    name=name,
                    key=key,
                )
            else:
                kept = say(
                    "attribute set {link}: {name} is the character's damage capacity attribute "
                    "(house rule {key}), for its damage factors.",
                    link=link,
                    name=name,
                    key=key,
                )
            self.note(CHANGED, kept)

    def items(self, items: list, flags: dict) -> dict:
        lists = {"attributes": [], **{name: [] for name in LIST_TYPES}}
        sets, described = [], 0
        # The attributes are read last but come first: room is kept for the first set's.
        first_set = next((i for i in items if _dict(i).get("type") == "attributeset"), {})
        self.rows = min(len(_attribute_list(first_set)), MAX_ROWS)
        for index, item in enumerate(items):
            where = f"items[{index}]"
            if not isinstance(item, dict):
                self.note(LOST, say("{where}: not an object; skipped.", where=where))
                continue
            kind = item.get("type")
            if kind == "attributeset":
                sets.append((where, item))
                continue
            if kind not in ITEM_TYPES or kind == "traitladder":
                reason = (
                    self.ladder_note()
                    if kind == "traitladder"
                    else say("not an item type of fudge-rpg")
                )
                self.note(
                    BY_DESIGN if kind == "traitladder" else LOST,
                    say(
                        "{where} ({kind} {name}): not imported; {reason}.",
                        where=where,
                        kind=str(kind),
                        name=repr(item.get("name")),
                        reason=reason,
                    ),
                )
                continue
            name = self.text(item.get("name"), f"{where}.name", MAX_ITEM_NAME)
            if not name:
                self.note(
                    LOST, say("{where}: a {kind} with no name; skipped.", where=where, kind=kind)
                )
                continue
            system = _dict(item.get("system"))
            own = _dict(_dict(item.get("flags")).get(FLAG))
            list_name = own.get("list") if LIST_TYPES.get(own.get("list")) == kind else None
            list_name = list_name or {"skill": "skills", "gift": "gifts", "fault": "faults"}.get(
                kind, "equipment"
            )
            name = self.repeat_name(list_name, name, lists[list_name], system, where)
            if not self.room_for(list_name, name, lists[list_name]):
                continue
            entry = _dict(own.get("entry")) if own.get("list") == list_name else {}
            if not entry and system.get("description"):
                described += kind != "equipment"
            if item.get("effects"):
                self.note(
                    LOST,
                    say(
                        "{where} ({name}): its active effects are not imported.",
                        where=where,
                        name=name,
                    ),
                )
            flagged = set(entry) - {"name", "level"}  # Foundry's own name and level win
            entry = {**entry, "name": name}
            if kind == "skill":
                entry["level"] = self.ladder.name(
                    self.level(system.get("level"), f"{where}.system.level")
                )
                # groups (2.4 on); group and group2 (fudge-rpg 2.3)
                if system.get("groups") or system.get("group") or system.get("group2"):
                    self.grouped.append(name)
            elif kind == "equipment":
                entry = self.equipment(entry, system, where, exported=bool(flagged))
            lists[list_name].append(entry)
            self.ids[list_name].append(item.get("_id"))
            self.from_flags.update((list_name, len(lists[list_name]) - 1, k) for k in flagged)
        if self.grouped:
            self.note(
                BY_DESIGN,
                say_plural(
                    "Skill groups are not imported ({count} skill): {skills}.",
                    "Skill groups are not imported ({count} skills): {skills}.",
                    len(self.grouped),
                    count=len(self.grouped),
                    skills=", ".join(self.grouped),
                ),
            )
        if described:
            self.note(
                BY_DESIGN,
                say_plural(
                    "The descriptions of {count} gifts, faults or skills are not kept: "
                    "Fairsheet keeps their names.",
                    "The descriptions of {count} gifts, faults or skills are not kept: "
                    "Fairsheet keeps their names.",
                    described,
                    count=described,
                ),
            )
        lists["attributes"] = self.attributes(sets, flags)
        return lists

    def attributes(self, sets: list, flags: dict) -> list:
        if not sets:
            self.note(LOST, say("The actor has no attribute set: no attributes imported."))
            return []
        for where, extra in sets[1:]:
            self.note(
                LOST,
                say(
                    "{where} (attribute set {name}): only the first is read.",
                    where=where,
                    name=repr(extra.get("name")),
                ),
            )
        where, item = sets[0]
        if isinstance(item.get("_id"), str) and ID.fullmatch(item["_id"]):
            self.foundry_ids["attributeset"] = item["_id"]
        system = _dict(item.get("system"))
        for link in DAMAGE_LINKS:
            if isinstance(system.get(link), str) and system[link].strip():
                self.links[link] = system[link].strip()
        raw = _attribute_list(item)
        if len(raw) > MAX_ROWS:
            self.note(
                LOST,
                say(
                    "{where}: more than {most} attributes; the rest skipped.",
                    where=where,
                    most=MAX_ROWS,
                ),
            )
            raw = raw[:MAX_ROWS]
        # The attributes the export added at their default: still there, they stay unlisted.
        own = _dict(_dict(item.get("flags")).get(FLAG))
        added = own.get("added_attributes", flags.get("added_attributes"))
        added = {
            (str(a.get("name")).casefold(), a.get("level"))
            for a in (added if isinstance(added, list) else [])
            if isinstance(a, dict)
        }
        attributes = []
        for index, attribute in enumerate(raw):
            at = f"{where}.system.attributes[{index}]"
            attribute = _dict(attribute)
            name = self.text(attribute.get("name"), f"{at}.name", MAX_ITEM_NAME)
            if not name:
                self.note(LOST, say("{where}: an attribute with no name; skipped.", where=at))
                continue
            level = self.ladder.name(self.level(attribute.get("level"), f"{at}.level"))
            if (name.casefold(), level) not in added and self.room_for(
                "attributes", name, attributes
            ):
                attributes.append({"name": name, "level": level})
                self.ids["attributes"].append(None)
        return attributes

    def equipment(self, entry: dict, system: dict, where: str, *, exported: bool) -> dict:
        """Offence and defence as Foundry has them now; Fairsheet's own values where Foundry
        still shows what the export wrote (a negative value is written as 0). The notes of
        an item Fairsheet did not write are its description."""
        odf = self.count(system.get("odf"), f"{where}.system.odf", 50) or 0
        ddf = self.count(system.get("ddf"), f"{where}.system.ddf", 50) or 0
        if odf != max(entry.get("damage", 0), 0):
            entry["damage"] = odf
        if ddf != max(entry.get("armour", 0), 0):
            entry["armour"] = ddf
        entry.setdefault("kind", "weapon" if odf else "armour" if ddf else "gear")
        if not exported and isinstance(system.get("description"), str):
            notes = self.free_text(
                html_to_text(system["description"]),
                f"{where}.system.description",
                MAX_EQUIPMENT_NOTES,
            )
            if notes:
                entry["notes"] = notes
        quantity = self.count(system.get("quantity"), f"{where}.system.quantity", MAX_QUANTITY)
        if quantity is not None:  # Foundry's count wins; 1 is the file's default
            entry.pop("quantity", None)
            if quantity != 1:
                entry["quantity"] = quantity
        return entry

    def repeat_name(self, list_name: str, name: str, entries: list, system: dict, where) -> str:
        """A second gift or skill of a name its own text allows more than once (Magical
        Talent, Language) is kept, numbered: "Language (2)". Any other is left to room_for."""
        taken = {e["name"].casefold() for e in entries}
        description = system.get("description")
        if (
            name.casefold() not in taken
            or list_name not in ("gifts", "skills")
            or not isinstance(description, str)
            or not REPEATABLE.search(description)
        ):
            return name
        number = 2
        while f"{name} ({number})".casefold() in taken:
            number += 1
        renamed = f"{name} ({number})"[:MAX_ITEM_NAME]
        self.note(
            CHANGED,
            say(
                "{where} ({name}): a second {quoted}, which its text allows; kept as {renamed} "
                "(rename it for what it is).",
                where=where,
                name=name,
                quoted=repr(name),
                renamed=repr(renamed),
            ),
        )
        return renamed

    def room_for(self, list_name: str, name: str, entries: list) -> bool:
        """Whether the list takes one more entry of this name: names are unique but for
        equipment (case ignored), and a character holds at most MAX_ROWS traits and pieces
        of equipment together. Counts the entry taken: the caller adds it."""
        if list_name != "equipment" and any(
            e["name"].casefold() == name.casefold() for e in entries
        ):
            self.note(
                LOST,
                say(
                    "{list}: {name} appears twice; the second is skipped.",
                    list=list_name,
                    name=repr(name),
                ),
            )
            return False
        if list_name == "attributes":  # counted before the items (see `items`)
            return True
        if self.rows == MAX_ROWS:
            if not self.full:
                self.full = True
                self.note(
                    LOST,
                    say(
                        "{list}: more than {most} traits and pieces of equipment; {name} and "
                        "every one after it skipped.",
                        list=list_name,
                        most=MAX_ROWS,
                        name=repr(name),
                    ),
                )
            return False
        self.rows += 1
        return True

    def play_state(self, system: dict, effects) -> None:
        wounds = _dict(system.get("wounds"))
        marked = []
        for key in SYSTEM_WOUNDS:
            # {"value": n, "max": m} since fudge-rpg 2.4; a plain number in 2.3
            value = wounds.get(key)
            value = value.get("value") if isinstance(value, dict) else value
            if isinstance(value, int | float) and not isinstance(value, bool) and value > 0:
                marked.append(f"{key} {value}")
        if marked:
            self.note(
                LOST,
                say(
                    "system.wounds: current wounds ({wounds}) are not imported: mark them on "
                    "the play page.",
                    wounds=", ".join(marked),
                ),
            )
        if isinstance(system.get("mana"), int | float) and system["mana"] > 0:
            self.note(
                LOST,
                say(
                    "system.mana ({mana}): Fairsheet keeps no mana pool.",
                    mana=str(system["mana"]),
                ),
            )
        # fivepoint since fudge-rpg 2.4, fivePoint (with generalGroups) in 2.3
        for key in ("fivepoint", "fivePoint"):
            if _dict(system.get(key)).get("groups"):
                self.note(
                    BY_DESIGN,
                    say(
                        "{where}: the five-point skill groups (Fudge's five-point character "
                        "creation) are not imported; the skills they bought are.",
                        where=f"system.{key}",
                    ),
                )
        for key in system:
            if key not in ("fp", "ep", "mana", "wounds", "notes", "unspent", *FIVE_POINT):
                self.note(
                    LOST,
                    say(
                        "{where}: not a field of a fudge-rpg character; not imported.",
                        where=f"system.{key}",
                    ),
                )
        if effects:
            self.note(LOST, say("effects: active effects are not imported."))

    def finish(self, out: dict) -> Imported:
        """Read the gathered file; a value from the flags that the reader refuses is dropped
        and noted (the flags are the actor's to lose), anything else is the actor's error."""
        while True:
            try:
                result = read_character(out, self.rulesets)
            except CharacterFileError as error:
                self.drop(out, error)
                continue
            notes = sorted(self.not_mapped, key=lambda note: note[0])  # stable: in file order
            return Imported(
                self.with_ids(result.character),
                FOUNDRY,
                not_mapped=tuple(str(message) for _, _, message in notes),
                levels=tuple(level for _, level, _ in notes),
                phrases=tuple(message for _, _, message in notes),
                ignored=result.ignored,
                character_id=self.character_id,
                image=self.image,
            )

    def with_ids(self, character: Character) -> Character:
        """The character with the Foundry ids of its items, so exporting it again gives
        Foundry the ids it knows (macros and links keep working)."""

        def keep(rows, ids):
            return tuple(
                dataclasses.replace(row, foundry_id=i)
                if isinstance(i, str) and ID.fullmatch(i)
                else row
                for row, i in zip(rows, ids, strict=True)
            )

        return dataclasses.replace(
            character,
            **{name: keep(getattr(character, name), self.ids[name]) for name in self.ids},
            foundry_ids=dict(self.foundry_ids),
        )

    def drop(self, out: dict, error: CharacterFileError) -> None:
        match = re.match(r"(\w+)\[(\d+)\]\.(\w+)", error.where)
        top = error.where.split(".")[0]
        if match and (match[1], int(match[2]), match[3]) in self.from_flags:
            self.from_flags.discard((match[1], int(match[2]), match[3]))
            del out[match[1]][int(match[2])][match[3]]
        elif top in self.from_flags and top in out:
            self.from_flags.discard(top)
            if top == "ruleset":
                out[top] = self.default_ruleset
            else:
                del out[top]
        else:
            raise error
        self.note(
            LOST,
            say("{where}: {problem}; not imported.", where=f"flags.{FLAG}", problem=error.phrase),
        )

    def ladder_note(self) -> Phrase:
        if self.ladder == STANDARD:
            return say("Fairsheet uses its own trait ladder")
        return say(
            "Fairsheet uses the ruleset's ladder ({words})", words=", ".join(self.ladder.words)
        )

    def text(self, value, where: str, limit: int) -> str:
        """A name the character keeps: one that cannot be stored refuses the actor."""
        if not isinstance(value, str):
            if value is not None:
                self.note(
                    LOST,
                    say("{where}: not text ({kind}); left empty.", where=where, kind=_kind(value)),
                )
            return ""
        problem = name_problem(value)
        if problem is not None:
            raise CharacterFileError(where, problem)
        value = value.strip()
        if len(value) > limit:
            self.note(CHANGED, _cut(where, limit))
        return value[:limit].strip()

    def free_text(self, value: str, where: str, limit: int) -> str:
        """Notes the character keeps: text that cannot be stored is left out and listed, as
        is what is over the limit."""
        problem = unstorable_problem(value)
        if problem is not None:
            self.note(LOST, say("{where}: {problem}; not imported.", where=where, problem=problem))
            return ""
        value = value.strip()
        if len(value) > limit:
            self.note(CHANGED, _cut(where, limit))
        return value[:limit].strip()

    def level(self, value, where: str) -> int:
        if value is None:
            return 0
        if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
            self.note(
                CHANGED,
                say(
                    "{where}: {value} is not a whole level; read as {fair}.",
                    where=where,
                    value=repr(value),
                    fair=Level(0, self.ladder),
                ),
            )
            return 0
        level = min(max(int(value), self.ladder.bottom), self.ladder.top)
        if level != value:
            self.note(
                CHANGED,
                say(
                    "{where}: {value} is off Fairsheet's ladder; read as {level}.",
                    where=where,
                    value=f"{int(value):+d}",
                    level=Level(level, self.ladder),
                ),
            )
        return level

    def count(self, value, where: str, top: int) -> int | None:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
            self.note(
                LOST,
                say(
                    "{where}: {value} is not a whole number; not imported.",
                    where=where,
                    value=repr(value),
                ),
            )
            return None
        if not 0 <= value <= top:
            self.note(
                LOST,
                say(
                    "{where}: {value} is outside 0 to {top}; not imported.",
                    where=where,
                    value=str(int(value)),
                    top=top,
                ),
            )
            return None
        return int(value)


def _without_note_rows(markup: str, file: dict) -> str:
    """`system.notes` as text without the rows the export wrote before the player's notes
    (for notes that lost their heading in Foundry, or an export with no notes). The export
    escapes what it writes, so a row ends at its first </p>."""
    heads = [f"{label}:" for label in NOTE_ROWS]
    heads += [_escape(question) for question in _dict(file.get("personality"))]
    for head in heads:
        markup = re.sub(f"<p><strong>{re.escape(head)}</strong>.*?</p>", "", markup, flags=re.S)
    return html_to_text(markup.replace("<h3>Personality</h3>", ""))


def _meta_start(out: dict, known: Mapping[str, Ruleset]) -> int:
    """The meta points a new character of the gathered file starts with."""
    ruleset = known[out["ruleset"]]
    try:
        return apply_house_rules(ruleset, _dict(out.get("house_rules"))).meta_points_start
    except HouseRuleError:
        return ruleset.meta_points_start  # the reader names the bad house rule


def _attribute_list(attribute_set: dict) -> list:
    attributes = _dict(attribute_set.get("system")).get("attributes")
    return attributes if isinstance(attributes, list) else []


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _kind(value) -> Phrase:
    return {dict: say("an object"), list: say("a list"), bool: say("true/false")}.get(
        type(value), say("a number")
    )


def _cut(where: str, limit: int) -> Phrase:
    return say("{where}: cut to {limit} characters.", where=where, limit=limit)


class _TextParser(HTMLParser):
    BLOCKS = frozenset(("p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6"))

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in self.BLOCKS:
            self.parts.append("\n")

    def handle_data(self, data):
        self.parts.append(data)


def html_to_text(markup: str) -> str:
    """Foundry's HTML notes as plain text: tags dropped, blocks on lines of their own."""
    parser = _TextParser()
    parser.feed(markup)
    parser.close()
    text = re.sub(r"[ \t]+\n", "\n", "".join(parser.parts))
    return re.sub(r"\n{3,}", "\n\n", text).strip()
