"""Writing a Ruleset as a ruleset file, and the files a GM designs from: a blank one, one
moved to another ladder."""

import copy
import dataclasses
import json
from fractions import Fraction

from rules.catalog import Catalog, Template
from rules.house_rules import json_number
from rules.ladder import Ladder, LevelError
from rules.ruleset_file.file_format import FORMAT_2, NUMBER_KEYS, format_for
from rules.ruleset_file.reading import Reader
from rules.ruleset_file.shapes import Refused
from rules.rulesets import DIFFICULTIES, FUDGE_BASICS, TOKENS, Advancement, Ruleset, Terms


def ruleset_to_json(r: Ruleset) -> dict:
    """The ruleset file for `r`: every field, in the order docs/ruleset-file.md gives."""
    word = r.word
    everything = {key: _number(key, r) for key in NUMBER_KEYS}
    everything.update(
        has_scale=r.has_scale,
        power_levels=list(r.power_levels),
        must_spend_and_save=r.must_spend_and_save,
        power_default=word(r.power_default),
    )
    parts = {
        "derived": [_derived_to_json(d) for d in r.derived],
        "trackers": [_tracker_to_json(t) for t in r.trackers],
        "prerequisites": [_prerequisite_to_json(p, word) for p in r.prerequisites],
    }
    data = {
        "format": format_for(parts),
        "slug": r.slug,
        "name": r.name,
        "description": r.description,
        "system": r.system,
        "ladder": {
            "words": list(r.ladder.words),
            "fair": r.ladder.words[r.ladder.fair],
            "creation_min": word(r.creation_min),
            "creation_max": word(r.creation_max),
            "legendary_at_creation": r.legendary_at_creation,
        },
        "numbers": everything,
        "attributes": {
            "names": None if r.attribute_names is None else list(r.attribute_names),
            "default": word(r.attribute_default),
            "cost": r.attribute_cost,
            "extra": [{"name": n, "default": word(d)} for n, d in r.extra_attributes],
            "opened_by_gifts": dict(r.attribute_gifts),
            "uncommitted_max": word(r.uncommitted_max),
        },
        "skills": {
            "pricing": _pricing(r),
            "default": word(r.skill_default),
            "cost": r.skill_cost,
            "named_defaults": {n: word(lv) for n, lv in r.named_skill_defaults.items()},
            "difficulties": {
                d: {
                    "default": None
                    if r.difficulty_defaults[d] is None
                    else word(r.difficulty_defaults[d]),
                    "cost_at_fair": r.difficulty_costs[d],
                }
                for d in DIFFICULTIES
            },
        },
        "powers": {"kinds": list(r.power_kinds), "need_gifts": dict(r.power_gifts)},
        "terms": {
            "lists": {k: list(v) for k, v in r.terms.lists.items()},
            **{
                f.name: getattr(r.terms, f.name)
                for f in dataclasses.fields(Terms)
                if f.name != "lists"
            },
        },
        "harm": None if r.harm is None else _harm_to_json(r),
        "advancement": None if r.advancement is None else _advancement_to_json(r),
        "catalogue": _catalogue_to_json(r.catalog),
        "templates": [_template_to_json(t) for t in r.templates],
        "sections": dict(r.sections),
    }
    if data["format"] == FORMAT_2:
        data.update(parts)
    return data


def blank_ruleset_file(
    name: str = "My game",
    attributes: tuple[str, str] = ("Body", "Mind"),
    sections: tuple[str, str] = ("{game}, character creation", "{game}, experience"),
) -> dict:
    """Where a GM designing from nothing starts: Fudge Basics' numbers (every field has a
    value to change), two attributes of the game's own, no lists, no templates. The game's
    own words (its two attributes, where its creation and experience rules are: `sections`,
    "{game}" standing for its name) are the caller's, in the GM's language."""
    body, mind = attributes
    creation, experience = (section.format(game=name) for section in sections)
    data = ruleset_to_json(FUDGE_BASICS)
    data.update(slug="my-game", name=name, description="", templates=[])
    data["attributes"]["names"] = [body, mind]
    data["harm"].update(damage_capacity_attribute=body, muscle_attribute=body)
    data["catalogue"] = {"section": "", "attributes": [body, mind], "skills": []}
    data["sections"] = {"creation": creation}
    if data["advancement"]:
        data["advancement"]["section"] = experience
    return data


def move_to_ladder(data: dict, words: list[str], fair: int) -> dict:
    """A copy of `data`, a ruleset file that holds, on another ladder: `words` from lowest to
    highest, the one at index `fair` being Fair. Every level elsewhere in the file keeps its
    place relative to Fair and takes the new ladder's word for it, so renaming a word, or
    adding one at the top or the bottom, changes no default, bound, cap, cost or minimum. A
    level the new ladder has no word for (below its bottom) keeps its old word, which the
    reader then refuses where it stands; a ladder that does not hold is put in as it is, for
    the reader to refuse."""
    out = copy.deepcopy(data)
    ladder = out["ladder"] = dict(out.get("ladder") or {})
    ladder["words"] = list(words)
    ladder["fair"] = words[fair] if 0 <= fair < len(words) else ""
    try:
        old = Reader().read_ladder(data.get("ladder"))
        new = Reader().read_ladder(ladder)
    except Refused:
        return out
    _move_levels(out, _LevelMover(old, new))
    return out


class _LevelMover:
    """Puts a ruleset file's level words, in place, on the new ladder: each keeps its place
    relative to Fair; a word the old ladder does not hold, or the new one has no word for,
    stays as it is."""

    def __init__(self, old: Ladder, new: Ladder):
        self.old = old
        self.new = new

    def word(self, word):
        try:
            return self.new.name(self.old.parse(word))
        except LevelError:
            return word

    def move(self, obj, key):
        if isinstance(obj, dict) and isinstance(obj.get(key), str):
            obj[key] = self.word(obj[key])

    def move_keys(self, obj, key):
        if isinstance(obj, dict) and isinstance(obj.get(key), dict):
            obj[key] = {self.word(word): value for word, value in obj[key].items()}

    def move_values(self, obj, key):
        if isinstance(obj, dict) and isinstance(obj.get(key), dict):
            obj[key] = {name: self.word(word) for name, word in obj[key].items()}


def _move_levels(out: dict, mover: _LevelMover) -> None:
    """Every level word of `out` outside the ladder's own words, moved by `mover`."""

    def sections(*keys):
        return [out[k] for k in keys if isinstance(out.get(k), dict)]

    for key in ("creation_min", "creation_max"):
        mover.move(out["ladder"], key)
    for numbers in sections("numbers"):
        mover.move_keys(numbers, "attribute_caps")
        mover.move_keys(numbers, "skill_caps")
        mover.move(numbers, "power_default")
    for attributes in sections("attributes"):
        mover.move(attributes, "default")
        mover.move(attributes, "uncommitted_max")
        for extra in attributes.get("extra") or ():
            mover.move(extra, "default")
    for skills in sections("skills"):
        mover.move(skills, "default")
        mover.move_values(skills, "named_defaults")
        for row in (skills.get("difficulties") or {}).values():
            mover.move(row, "default")
    for advancement in sections("advancement"):
        mover.move_keys(advancement, "skill_steps")
        mover.move(advancement, "gm_permission_from")
    for template in out.get("templates") or ():
        mover.move_values(template, "minimum_attributes")
        mover.move_values(template, "minimum_skills")
    for prerequisite in out.get("prerequisites") or ():
        mover.move(prerequisite, "at_least")


def dumps_ruleset(r: Ruleset) -> str:
    return json.dumps(ruleset_to_json(r), indent=2, ensure_ascii=False) + "\n"


def _pricing(r: Ruleset) -> str:
    if r.system == TOKENS:
        return "per_rank"
    return "by_difficulty" if r.skill_difficulties else "flat"


def _number(key: str, r: Ruleset):
    """A house-rule number in its JSON form, as house_rules_to_json writes it."""
    value = getattr(r, key)
    if key in ("attribute_caps", "skill_caps"):
        return {r.word(lv): n for lv, n in sorted(value.items(), reverse=True)}
    if key == "trade_values":
        return {k: json_number(v) for k, v in value.items()}
    if isinstance(value, Fraction):
        return json_number(value)
    return value


def _harm_to_json(r: Ruleset) -> dict:
    h = r.harm
    return {
        "title": h.title,
        "caused_by": h.caused_by,
        "track": [dataclasses.asdict(level) for level in h.track],
        "penalty_unit": h.penalty_unit,
        "damage_factors": h.damage_factors,
        "damage_capacity_attribute": r.damage_capacity_attribute,
        "muscle_attribute": r.muscle_attribute,
        "unarmed": h.unarmed,
        "unarmed_trained": h.unarmed_trained,
        "martial_arts": list(h.martial_arts),
        "more_scratch": list(h.more_scratch),
        "fewer_scratch": list(h.fewer_scratch),
        "note": h.note,
        "damage_die": h.damage_die,
        "graze_limits": [{"from": tdf, "wound": wound} for tdf, wound in h.graze_limits],
    }


def _advancement_to_json(r: Ruleset) -> dict:
    a = r.advancement
    out = {f.name: getattr(a, f.name) for f in dataclasses.fields(Advancement)}
    out["skill_steps"] = (
        None
        if a.skill_steps is None
        else {r.word(lv): c for lv, c in sorted(a.skill_steps.items())}
    )
    if a.gm_permission_from is not None:
        out["gm_permission_from"] = r.word(a.gm_permission_from)
    out["gm_approval"] = list(a.gm_approval)
    return out


def _catalogue_to_json(c: Catalog) -> dict:
    def rows(entries, amount_key=None):
        out = []
        for entry in entries:
            row = {
                k: v
                for k, v in dataclasses.asdict(entry).items()
                if v not in ("", None, ()) and k != "translations"
            }
            if getattr(entry, "translations", ()):
                row["translations"] = _translations_to_json(entry.translations)
            if amount_key:
                row[amount_key] = json_number(getattr(entry, amount_key))
            out.append(row)
        return out

    return {
        "section": c.section,
        "attributes": list(c.attributes),
        "skills": [
            {
                "name": s.name,
                "difficulty": s.difficulty,
                **({"note": s.note} if s.note else {}),
                **(
                    {"translations": _translations_to_json(s.translations)}
                    if s.translations
                    else {}
                ),
            }
            for s in c.skills
        ],
        "gifts": rows(c.gifts, "cost"),
        "faults": rows(c.faults, "value"),
        "equipment": rows(c.equipment),
        "powers": rows(c.powers),
        "power_kinds": list(c.power_kinds),
        "power_kind_notes": dict(c.power_kind_notes),
    }


def _translations_to_json(translations) -> dict:
    out = {}
    for language, name, note in translations:
        words = {"name": name} if name else {}
        if note:
            words["note"] = note
        out[language] = words
    return out


def _template_to_json(t: Template) -> dict:
    out = dataclasses.asdict(t)
    for key in ("recommended_gifts", "required_gifts", "required_faults", "notes"):
        out[key] = list(out[key])
    return out


def _derived_to_json(d) -> dict:
    row = {"key": d.key, "name": d.name, "formula": d.formula}
    if d.note:
        row["note"] = d.note
    if d.translations:
        row["translations"] = _translations_to_json(d.translations)
    return row


def _tracker_to_json(t) -> dict:
    row = {
        "key": t.key,
        "name": t.name,
        "kind": t.kind,
        "size": t.size,
        "start": t.start,
        "changed_by": t.changed_by,
        "resets_on_rest": t.resets_on_rest,
    }
    if t.note:
        row["note"] = t.note
    if t.translations:
        row["translations"] = _translations_to_json(t.translations)
    return row


def _prerequisite_to_json(p, word) -> dict:
    row = {"key": p.key, "message": p.message}
    if p.guards:
        row["guards"] = list(p.guards)
    if p.guards_kind:
        row["guards_kind"] = p.guards_kind
    if p.needs:
        row["needs"] = p.needs
    if p.at_least is not None:
        row["at_least"] = word(p.at_least)
    if p.at_least_derived:
        row["at_least_derived"] = p.at_least_derived
    if p.at_most is not None:
        row["at_most"] = p.at_most
    if p.section:
        row["section"] = p.section
    if p.translations:
        row["translations"] = {language: {"message": m} for language, m in p.translations}
    return row
