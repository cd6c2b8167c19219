"""Character -> actor: a Character as a fudge-rpg actor for Foundry's "Import Data"."""

import hashlib
import math
from collections import Counter

from rules.character import Character
from rules.charfile import write_character
from rules.combat import damage_factors, wound_track
from rules.foundry.html_text import escape, paragraphs
from rules.foundry.kept import put_back
from rules.foundry.tables import (
    FLAG,
    ID,
    ID_ALPHABET,
    ID_LENGTH,
    LIST_TYPES,
    NOTES_HEADING,
    POWER_KINDS,
    SORT_STEP,
    SYSTEM_WOUNDS,
    Provenance,
)
from rules.house_rules import apply_house_rules
from rules.ladder import STANDARD, signed
from rules.report import POOLS, Report, amount, build_report, ruleset_attributes
from rules.rulesets import BUILTIN, LEVELS, Ruleset


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
    if ruleset.ladder != STANDARD or "traitladder" in character.foundry_ids:
        items.append(_trait_ladder(ruleset, ids, character.foundry_ids.get("traitladder", "")))
    for position, item in enumerate(items):
        item["sort"] = position * SORT_STEP
    actor = {
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
    # The pictures, compendium links, names and token settings the actor came with.
    return put_back(actor, character.foundry_kept, image)


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


def _trait_ladder(ruleset: Ruleset, ids: _Ids, keep: str) -> dict:
    """fudge-rpg's traitladder item: the ruleset's words, highest first, as its compendium's
    Extended Trait Ladder lists them; `keep` is the id of the one the actor came with."""
    ladder = ruleset.ladder
    return {
        "_id": ids.make("traitladder", ruleset.slug, keep=keep),
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
        "system": {"description": f"<p>{escape(text)}</p>" if text else "", **system},
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
        "description": f"<p>{escape(ruleset.name)}: the attributes of "
        f"{escape(character.name)}, exported from Fairsheet.</p>",
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
        item["system"]["description"] += paragraphs(entry["notes"])
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
    parts = [f"<p><strong>{label}:</strong> {escape(value)}</p>" for label, value in rows if value]
    if character.personality:
        parts.append("<h3>Personality</h3>")
        parts += [
            f"<p><strong>{escape(question)}</strong> {escape(answer)}</p>"
            for question, answer in character.personality.items()
        ]
    if character.notes:
        parts.append(NOTES_HEADING + paragraphs(character.notes))
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
