"""Actor -> Character: a fudge-rpg actor, or a character file, as a Character, with what
could not be mapped."""

import base64
import binascii
import dataclasses
import re
from collections.abc import Mapping

from rules.character import Character
from rules.charfile import MAX_NAME, MAX_TEXT, CharacterFileError, load_json, read_character
from rules.foundry.fields import as_dict
from rules.foundry.html_text import escape, html_to_text, paragraphs
from rules.foundry.items import ItemReading
from rules.foundry.tables import (
    ACTOR_TYPES,
    BY_DESIGN,
    CHANGED,
    DAMAGE_LINKS,
    FAIRSHEET,
    FIVE_POINT,
    FLAG,
    FOUNDRY,
    ID,
    LIST_TYPES,
    LOST,
    NOTE_ROWS,
    NOTES_HEADING,
    PICTURE,
    PLACEHOLDER_ICONS,
    SYSTEM_ID,
    SYSTEM_WOUNDS,
    Imported,
)
from rules.house_rules import HouseRuleError, apply_house_rules
from rules.rulesets import FUDGE_BASICS, Ruleset
from rules.words import say


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
        # Text is checked where it is kept (ActorFields.text): a NUL in a description the
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
    return ActorReader(default_ruleset, rulesets or {}).actor(data)


class ActorReader(ItemReading):
    def actor(self, data) -> Imported:
        system, items = _actor_parts(data)
        flags = as_dict(as_dict(data.get("flags")).get(FLAG))
        file = as_dict(flags.get("file"))
        out = self.fields_from_flags(flags, file)
        self.ladder = self.known[out["ruleset"]].ladder
        out["name"] = self.actor_name(data)
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
        self.keep_actor(data)
        self.note_bookkeeping()
        return self.finish(out)

    def fields_from_flags(self, flags: dict, file: dict) -> dict:
        """The character file's fields Fairsheet's flags carry and Foundry does not show
        (the name, the lists, experience and meta-points are read from Foundry's own), and
        the site's character id. Without a ruleset Fairsheet knows, the default one."""
        site_id = flags.get("character_id")
        if isinstance(site_id, int) and not isinstance(site_id, bool) and site_id > 0:
            self.character_id = site_id
        out = {
            key: value
            for key, value in file.items()
            if key not in ("name", "attributes", *LIST_TYPES, "experience", "meta_points")
        }
        self.from_flags.update(out)
        if not isinstance(out.get("ruleset"), str) or out["ruleset"] not in self.known:
            out["ruleset"] = self.default_ruleset
            self.note(
                CHANGED,
                say(
                    "The actor names no Fairsheet ruleset: imported for {ruleset}.",
                    ruleset=self.default_ruleset,
                ),
            )
        return out

    def actor_name(self, data: dict) -> str:
        name = self.text(data.get("name"), "name", MAX_NAME)
        if name:
            return name
        self.note(CHANGED, say("name: the actor has no name; imported as 'Imported character'."))
        return "Imported character"

    def picture(self, data: dict) -> None:
        """The actor's picture when it carries one (a data: URL, as Fairsheet exports it); a
        picture that is a file in the Foundry world cannot be the portrait, and the report says
        so (Foundry's own placeholder icons go unmentioned): it is given back to Foundry as it
        came (rules.foundry.kept)."""
        token = as_dict(as_dict(data.get("prototypeToken")).get("texture")).get("src")
        for where, value in (("img", data.get("img")), ("prototypeToken.texture.src", token)):
            if not isinstance(value, str) or not value or value.startswith(PLACEHOLDER_ICONS):
                continue
            if PICTURE.fullmatch(value):
                self.image = value
                return
            self.note(
                LOST,
                say(
                    "{where}: the picture is a file of the Foundry world ({file}): given back "
                    "to Foundry, but not the portrait here; upload it as the portrait on the "
                    "builder.",
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
        if text != html_to_text(paragraphs(file["notes"])):
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
        house_rules = as_dict(out.get("house_rules"))
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

    def play_state(self, system: dict, effects) -> None:
        wounds = as_dict(system.get("wounds"))
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
            if as_dict(system.get(key)).get("groups"):
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
            foundry_kept=({"items": dict(self.kept_items)} if self.kept_items else {}) | self.kept,
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


def _without_note_rows(markup: str, file: dict) -> str:
    """`system.notes` as text without the rows the export wrote before the player's notes
    (for notes that lost their heading in Foundry, or an export with no notes). The export
    escapes what it writes, so a row ends at its first </p>."""
    heads = [f"{label}:" for label in NOTE_ROWS]
    heads += [escape(question) for question in as_dict(file.get("personality"))]
    for head in heads:
        markup = re.sub(f"<p><strong>{re.escape(head)}</strong>.*?</p>", "", markup, flags=re.S)
    return html_to_text(markup.replace("<h3>Personality</h3>", ""))


def _actor_parts(data) -> tuple[dict, list]:
    """The actor's system and items; raises CharacterFileError for what is not a fudge-rpg
    character at all."""
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
    return system, items


def _meta_start(out: dict, known: Mapping[str, Ruleset]) -> int:
    """The meta points a new character of the gathered file starts with."""
    ruleset = known[out["ruleset"]]
    try:
        return apply_house_rules(ruleset, as_dict(out.get("house_rules"))).meta_points_start
    except HouseRuleError:
        return ruleset.meta_points_start  # the reader names the bad house rule
