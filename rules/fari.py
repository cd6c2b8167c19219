"""Character -> Fari: a Character as a character of Fari (farirpgs/fari-app, the 4dF web tool),
the JSON its "Import" reads (docs/exports.md, "Fari").

Fari's character (lib/domains/character/types.tsx, ICharacter, version 6 of its format) is
pages of rows of columns of sections of blocks. The sheet goes into it as Fari's own
templates lay out a 4dF game: each attribute, skill and levelled power a Skill block whose
value is its level on the ladder as a number (Fair 0, Good 1, Terrible -3) with the 4dF
roll, the points spent at the table a point counter, experience a number, the wound track a
slot tracker per level with one box a box, gifts, faults and equipment text blocks. The
name, labels and texts are HTML to Fari (it shows them through an editor that keeps <b>, <i>
and <br>), so every word is escaped and a line break is a <br>. Like every other export, the
file is the same in every language: the rules' English, the names as written.

Block ids are UUIDs made from the character's identity, the block's place and name: exporting
the same character again gives the same ids, so Fari knows it and offers to update it.
"""

import uuid
from collections import Counter

from rules.character import PERSONALITY_QUESTIONS, Character
from rules.combat import damage_factors, wound_track
from rules.foundry.html_text import escape
from rules.house_rules import apply_house_rules, json_number
from rules.ladder import card_rating, signed
from rules.report import Report, amount, build_report, ruleset_attributes
from rules.rulesets import BUILTIN, LEVELS, TOKENS, Ruleset

# Fari's current character format (CharacterFactory.latestVersion's last migration: 6).
FARI_VERSION = 6
FARI_TYPE = "character"  # FariEntity's fariType of a character file
# The roll of a Skill block: Fari's 4dF (lib/domains/dice/Dice.ts IDiceCommandId).
FUDGE_DICE = ("4dF",)
# Every id of an export lives under this namespace (uuid5).
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_URL, "https://fairsheet.invalid/fari")
HALF, THIRD = 0.5, 0.33  # a block's width in its column (Fari's meta.width, 0 to 1)


def write_fari(
    character: Character,
    *,
    identity: str,
    ruleset: Ruleset | None = None,
    group: str = "",
    updated: int = 0,
    image: str = "",
) -> dict:
    """The character as a Fari character (a dict ready for json.dumps). `identity` names the
    character for its ids (the site's "site:12"); `ruleset` is a designed ruleset it is built
    with (else its built-in); `group` the group Fari files it under (its campaign; else the
    ruleset's name); `updated` when it last changed (Unix seconds: Fari keeps the newer copy);
    `image` the portrait, a data: URL."""
    ruleset = apply_house_rules(ruleset or BUILTIN[character.ruleset], character.house_rules)
    report = build_report(character, ruleset)
    blocks = _Blocks(identity)
    titles = ruleset.terms.title
    sheet = [
        [
            _section(blocks, "Character", _identity(character, ruleset, blocks, image)),
            _section(blocks, "Points", _points(character, ruleset, report, blocks)),
        ],
        [
            _section(blocks, titles("attributes"), _attributes(character, ruleset, blocks)),
            _section(blocks, titles("skills"), _skills(character, ruleset, blocks)),
        ],
    ]
    if ruleset.gifts_and_faults:
        sheet.append(_gifts_and_faults(character, ruleset, report, blocks))
    if character.powers:
        powers = [_power(power, ruleset, blocks) for power in character.powers]
        sheet.append([_section(blocks, titles("powers"), powers)])
    sheet.append(_harm(character, ruleset, blocks))
    if character.equipment:
        equipment = [_equipment(item, blocks) for item in character.equipment]
        sheet.append([_section(blocks, "Equipment", equipment)])
    pages = [_page(blocks, "Character", sheet)]
    story = _story(character, blocks)
    pages.append(_page(blocks, "Story", [[_section(blocks, "Personality and notes", story)]]))
    return {
        "id": blocks.make("character", ""),
        "name": _html(character.name),  # an editor's HTML in Fari, as labels are
        "group": group or ruleset.name,  # a text field's plain text
        "wide": False,
        "pages": pages,
        "version": FARI_VERSION,
        "lastUpdated": updated,
        "fariType": FARI_TYPE,
    }


class _Blocks:
    """Fari's ids (UUIDs): one from the character's identity, the thing's kind and name,
    and how many of the same came before it."""

    def __init__(self, identity: str):
        self.identity = identity
        self.seen = Counter()

    def make(self, kind: str, name: str) -> str:
        key = (kind, name.casefold())
        occurrence = self.seen[key]
        self.seen[key] += 1
        return str(uuid.uuid5(NAMESPACE, "\x1f".join((self.identity, *key, str(occurrence)))))

    def block(self, kind: str, label: str, value, **meta) -> dict:
        """A block of `kind` (Fari's BlockType): its label as HTML, its meta as given."""
        return {
            "id": self.make(kind, label),
            "label": _html(label),
            "type": kind,
            "value": value,
            "meta": meta,
        }

    def text(self, label: str, value: str, **meta) -> dict:
        return self.block("Text", label, _html(value), **meta)

    def skill(self, label: str, level: int, helper: str) -> dict:
        """A trait Fari rolls: its ladder level as the number 4dF is added to."""
        meta = {"commands": list(FUDGE_DICE), "hideModifier": False}
        if helper:
            meta["helperText"] = _html(helper)
        return self.block("Skill", label, str(level), **meta)


def _page(blocks: _Blocks, label: str, rows: list[list[dict]]) -> dict:
    return {
        "id": blocks.make("page", label),
        "label": label,
        "rows": [{"columns": [{"sections": [s]} for s in row if s]} for row in rows if any(row)],
    }


def _section(blocks: _Blocks, label: str, content: list[dict]) -> dict | None:
    """A section of blocks; None for an empty one, which the page leaves out."""
    if not content:
        return None
    return {"id": blocks.make("section", label), "label": _html(label), "blocks": content}


def _html(text) -> str:
    """Plain text as Fari shows a label or a text: escaped, its line breaks kept."""
    return "<br>".join(escape(line) for line in str(text).splitlines())


def _identity(character: Character, ruleset: Ruleset, blocks: _Blocks, image: str) -> list:
    found = [
        blocks.text(label, value, width=THIRD)
        for label, value in (
            ("Player", character.player),
            ("Race", character.race),
            ("Concept", character.concept),
        )
    ]
    found.append(blocks.block("InfoText", "Ruleset", _html(f"{ruleset.name}, from Fairsheet")))
    if image:
        found.insert(0, blocks.block("Image", "Portrait", image))
    return found


def _points(character: Character, ruleset: Ruleset, report: Report, blocks: _Blocks) -> list:
    """The points spent at the table (meta points, Fudge points; MicroFudged's saved
    tokens) as the main point counter, experience as a number, Scale as a text."""
    found = []
    if ruleset.system == TOKENS:
        saved = report.pools["tokens"]["saved"]
        found.append(_counter(blocks, "Saved tokens", json_number(saved), None))
    elif ruleset.terms.points:
        points = character.meta_points
        if points is None:
            points = ruleset.meta_points_start
        label = ruleset.terms.points[:1].upper() + ruleset.terms.points[1:]
        found.append(_counter(blocks, label, points, ruleset.meta_points_max))
    unit = ruleset.advancement.unit if ruleset.advancement else ""
    if unit == "token":  # EP and XP stay as they are
        unit = "token" if character.experience == 1 else "tokens"
    experience = {"helperText": _html(unit)} if unit else {}
    found.append(blocks.block("Numeric", "Experience", str(character.experience), **experience))
    if ruleset.has_scale:
        scale = f"Strength {signed(character.scale_strength)}, Mass {signed(character.scale_mass)}"
        found.append(blocks.text("Scale", scale))
    return found


def _counter(blocks: _Blocks, label: str, value, most: int | None) -> dict:
    meta = {"isMainPointCounter": True}
    if most is not None:
        meta["max"] = str(most)
    return blocks.block("PointCounter", label, str(value), **meta)


def _level_words(ruleset: Ruleset, level: int) -> str:
    """What a Skill block's helper text says of its level: the ladder word, and MicroFudged's
    cards (DIP V: drawn rather than rolled)."""
    word = ruleset.word(level)
    if ruleset.system != LEVELS:
        count = card_rating(level)
        return f"{word}, {count} card{'' if count == 1 else 's'}"
    return word


def _attributes(character: Character, ruleset: Ruleset, blocks: _Blocks) -> list:
    """The listed attributes, then the ruleset's others at their default, as the sheet."""
    traits = [(t.name, t.level) for t in character.attributes]
    listed = {t.name.casefold() for t in character.attributes}
    for name, default in ruleset_attributes(character, ruleset):
        if name.casefold() not in listed:
            listed.add(name.casefold())
            traits.append((name, default))
    return [blocks.skill(name, level, _level_words(ruleset, level)) for name, level in traits]


def _skills(character: Character, ruleset: Ruleset, blocks: _Blocks) -> list:
    found = []
    for trait in character.skills:
        helper = _level_words(ruleset, trait.level)
        if ruleset.skill_difficulties:
            helper += f", {(trait.difficulty or 'average').replace('_', ' ')}"
        found.append(blocks.skill(trait.name, trait.level, helper))
    return found


def _gifts_and_faults(character: Character, ruleset: Ruleset, report: Report, blocks) -> list:
    """Gifts beside faults; a cost or worth other than 1 (Mudge 1.33, 1.34) as the text, as
    the report priced it (a gift the file gives no cost takes its catalogue's)."""
    gifts = [
        blocks.text(gift.name, "" if cost in (0, 1) else f"Costs {amount(cost, 'gifts')}.")
        for gift, cost in zip(character.gifts, report.costs["gifts"], strict=True)
    ]
    faults = [
        blocks.text(fault.name, "" if value == 1 else f"Worth {amount(value, 'faults')}.")
        for fault, value in zip(character.faults, report.costs["faults"], strict=True)
    ]
    return [
        _section(blocks, ruleset.terms.title("gifts"), gifts),
        _section(blocks, ruleset.terms.title("faults"), faults),
    ]


def _power(power, ruleset: Ruleset, blocks: _Blocks) -> dict:
    """A spell, psi power or field of power is rolled at its level; a superpower with no
    level is a text."""
    level = power.level
    if level is None and ruleset.system == TOKENS:
        level = ruleset.power_default
    if level is None:
        return blocks.text(power.name, power.kind)
    return blocks.skill(power.name, level, f"{_level_words(ruleset, level)}, {power.kind}")


def _harm(character: Character, ruleset: Ruleset, blocks: _Blocks) -> list:
    """The wound (or setback) track, one slot tracker a level and one box a box, with the
    damage that inflicts it and its penalty; beside it the damage factors."""
    harm = ruleset.harm
    if harm is None:
        return []
    track = []
    for level in wound_track(character, ruleset):
        # "Damage 3,4"; MicroFudged's "2 successes" says what it counts itself.
        says_unit = any(c.isalpha() for c in level.damage)
        helper = level.damage if says_unit else f"{harm.caused_by} {level.damage}"
        if level.penalty:
            unit = f" {harm.penalty_unit}{'' if abs(level.penalty) == 1 else 's'}"
            helper += f"; {signed(level.penalty)}{unit if harm.penalty_unit else ''}"
        boxes = [{"label": str(n), "checked": False} for n in range(1, level.boxes + 1)]
        track.append(blocks.block("SlotTracker", level.name, boxes, helperText=_html(helper)))
    factors = damage_factors(character, ruleset)
    lines = [
        blocks.text(f"{factor.label} (offensive)", _factor_total(factor), width=HALF)
        for factor in factors.offensive
    ]
    # "Defensive", "In Chain mail": their own labels say which side they are.
    lines += [
        blocks.text(factor.label, _factor_total(factor), width=HALF) for factor in factors.defensive
    ]
    return [_section(blocks, harm.title, track), _section(blocks, "Damage factors", lines)]


def _factor_total(factor) -> str:
    """ "+3 (Strength +1, Weapon +2)", "-1 + Armour (Constitution -1)"."""
    total = signed(factor.total) + (f" + {factor.open_term}" if factor.open_term else "")
    terms = ", ".join(f"{name} {signed(value)}" for name, value in factor.terms)
    return f"{total} ({terms})"


def _equipment(item, blocks: _Blocks) -> dict:
    details = [f"x{item.quantity}"] if item.quantity != 1 else []
    if item.kind != "gear":
        details.append(item.kind)
    if item.damage is not None:
        details.append(f"damage {signed(item.damage)}")
    if item.armour is not None:
        details.append(f"armour {signed(item.armour)}")
    if item.notes:
        details.append(item.notes)
    return blocks.text(item.name, ", ".join(details))


def _story(character: Character, blocks: _Blocks) -> list:
    """The personality answers under their questions (Mudge 1.35), then the notes."""
    answers = character.personality
    asked = [(question, answers.get(key, "")) for key, question in PERSONALITY_QUESTIONS]
    known = dict(PERSONALITY_QUESTIONS)
    own = [(key, answer) for key, answer in answers.items() if key not in known]
    found = [blocks.text(question, answer) for question, answer in (*asked, *own) if answer]
    found.append(blocks.text("Notes", character.notes))
    return found
