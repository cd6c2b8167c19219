"""The ruleset file, version 1 (docs/ruleset-file.md): a Ruleset as JSON, so a GM can design
a game of their own and share it, and a built-in ruleset is the same file
(`manage.py export_ruleset mudge`).

`ruleset_to_json` writes every field of a Ruleset; `read_ruleset` is its inverse
(read(write(r)) == r for every built-in) and refuses nonsense with every problem at once, each
with the field it is in and the reason: RulesetFileError.problems. The budgets and limits sit
under the keys house rules use (rules/house_rules.py) and are read by the same code, so a GM
who knows one knows the other.
"""

import copy
import dataclasses
import itertools
import json
from fractions import Fraction

from rules.catalog import (
    POWER_DETAILS,
    Catalog,
    CatalogEquipment,
    CatalogFault,
    CatalogGift,
    CatalogPower,
    CatalogSkill,
    Template,
)
from rules.house_rules import (
    ADVANCEMENT_NUMBERS,
    HOUSE_RULE_KEYS,
    MAX_NUMBER,
    HouseRuleError,
    _parse,
    json_number,
)
from rules.json_files import CharacterFileError, load_json
from rules.ladder import STANDARD, Ladder, LevelError
from rules.rulesets import (
    DIFFICULTIES,
    FUDGE_BASICS,
    LEVELS,
    LISTS,
    TOKENS,
    Advancement,
    Harm,
    Ruleset,
    Terms,
    WoundLevel,
)
from rules.text import first_text_problem, name_problem
from rules.words import Level, Phrase, Term, say

FORMAT = "fairsheet.ruleset/1"
SYSTEMS = (LEVELS, TOKENS)
UNITS = {LEVELS: "skill level", TOKENS: "token"}
# How skills are priced: "flat" from a default (Fudge Basics), "by_difficulty" from Mudge
# 1.62's table, "per_rank" in tokens (MicroFudged).
PRICINGS = {LEVELS: ("flat", "by_difficulty"), TOKENS: ("per_rank",)}
# Each pricing and difficulty in words, for the messages a GM reads.
PRICING_NAMES = {
    "flat": "flat from a default",
    "by_difficulty": "by difficulty",
    "per_rank": "tokens a rank",
}
DIFFICULTY_NAMES = {d: d.replace("_", " ") for d in DIFFICULTIES}
# The same, for a message another language says (rules.words).
PRICING_WORDS = {
    "flat": say("flat from a default"),
    "by_difficulty": say("by difficulty"),
    "per_rank": say("tokens a rank"),
}
# Keys of the `ladder` section that are house-rule keys too.
LADDER_RULES = ("creation_min", "creation_max", "legendary_at_creation")
# House-rule keys that live in a section of their own: the ladder's bounds, the attributes'
# extras, harm's attributes, advancement's costs.
ELSEWHERE = (*LADDER_RULES, "extra_attributes", "damage_capacity_attribute", "muscle_attribute")
NUMBER_KEYS = tuple(k for k in HOUSE_RULE_KEYS if k not in ELSEWHERE and k != "advancement_costs")
# Numbers only a ruleset file sets (a campaign's house rules leave them as designed).
DESIGN_NUMBERS = ("has_scale", "power_levels", "must_spend_and_save", "power_default")
EQUIPMENT_KINDS = ("weapon", "armour", "shield", "gear")
TEMPLATE_KINDS = ("class", "race")
NOT_A_LEVEL = "is not a level"  # rules.ladder's message for a word off the ladder
MAX_NAME = 100
MAX_TEXT = 2000
MAX_WORDS = 30
MAX_ENTRIES = 1000
TOP_KEYS = (
    "format",
    "slug",
    "name",
    "description",
    "system",
    "ladder",
    "numbers",
    "attributes",
    "skills",
    "powers",
    "terms",
    "harm",
    "advancement",
    "catalogue",
    "templates",
    "sections",
)


class RulesetFileError(ValueError):
    """A ruleset file that cannot be used: every problem, each (where, what is wrong)."""

    def __init__(self, problems: list[tuple[str, Phrase | str]]):
        # Each message as a Phrase (or a string another module made), for another language
        # (characters.wording), and in English, as the file's readers have always had it.
        self.phrases = problems
        self.problems = [(w, str(m)) for w, m in problems]
        super().__init__("; ".join(f"{w}: {m}" if w else m for w, m in self.problems))


# -- writing -------------------------------------------------------------------------------


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
    return {
        "format": FORMAT,
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
            **{f.name: getattr(r.terms, f.name) for f in _fields(Terms) if f.name != "lists"},
        },
        "harm": None if r.harm is None else _harm_to_json(r),
        "advancement": None if r.advancement is None else _advancement_to_json(r),
        "catalogue": _catalogue_to_json(r.catalog),
        "templates": [_template_to_json(t) for t in r.templates],
        "sections": dict(r.sections),
    }


def blank_ruleset_file() -> dict:
    """Where a GM designing from nothing starts: Fudge Basics' numbers (every field has a
    value to change), two attributes of their own, no lists, no templates."""
    data = ruleset_to_json(FUDGE_BASICS)
    data.update(slug="my-game", name="My game", description="", templates=[])
    data["attributes"]["names"] = ["Body", "Mind"]
    data["harm"].update(damage_capacity_attribute="Body", muscle_attribute="Body")
    data["catalogue"] = {"section": "", "attributes": ["Body", "Mind"], "skills": []}
    data["sections"] = {"creation": "My game, character creation"}
    if data["advancement"]:
        data["advancement"]["section"] = "My game, experience"
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
        old = _Reader().read_ladder(data.get("ladder"))
        new = _Reader().read_ladder(ladder)
    except _Refused:
        return out

    def moved(word):
        try:
            return new.name(old.parse(word))
        except LevelError:
            return word

    def move(obj, key):
        if isinstance(obj, dict) and isinstance(obj.get(key), str):
            obj[key] = moved(obj[key])

    def move_keys(obj, key):
        if isinstance(obj, dict) and isinstance(obj.get(key), dict):
            obj[key] = {moved(word): value for word, value in obj[key].items()}

    def move_values(obj, key):
        if isinstance(obj, dict) and isinstance(obj.get(key), dict):
            obj[key] = {name: moved(word) for name, word in obj[key].items()}

    def sections(*keys):
        return [out[k] for k in keys if isinstance(out.get(k), dict)]

    for key in ("creation_min", "creation_max"):
        move(ladder, key)
    for numbers in sections("numbers"):
        move_keys(numbers, "attribute_caps")
        move_keys(numbers, "skill_caps")
        move(numbers, "power_default")
    for attributes in sections("attributes"):
        move(attributes, "default")
        move(attributes, "uncommitted_max")
        for extra in attributes.get("extra") or ():
            move(extra, "default")
    for skills in sections("skills"):
        move(skills, "default")
        move_values(skills, "named_defaults")
        for row in (skills.get("difficulties") or {}).values():
            move(row, "default")
    for advancement in sections("advancement"):
        move_keys(advancement, "skill_steps")
        move(advancement, "gm_permission_from")
    for template in out.get("templates") or ():
        move_values(template, "minimum_attributes")
        move_values(template, "minimum_skills")
    return out


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
    out = {f.name: getattr(a, f.name) for f in _fields(Advancement)}
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
            row = {k: v for k, v in dataclasses.asdict(entry).items() if v not in ("", None)}
            if amount_key:
                row[amount_key] = json_number(getattr(entry, amount_key))
            out.append(row)
        return out

    return {
        "section": c.section,
        "attributes": list(c.attributes),
        "skills": [
            {"name": s.name, "difficulty": s.difficulty, **({"note": s.note} if s.note else {})}
            for s in c.skills
        ],
        "gifts": rows(c.gifts, "cost"),
        "faults": rows(c.faults, "value"),
        "equipment": rows(c.equipment),
        "powers": rows(c.powers),
        "power_kinds": list(c.power_kinds),
        "power_kind_notes": dict(c.power_kind_notes),
    }


def _template_to_json(t: Template) -> dict:
    out = dataclasses.asdict(t)
    for key in ("recommended_gifts", "required_gifts", "required_faults", "notes"):
        out[key] = list(out[key])
    return out


def _fields(cls):
    return dataclasses.fields(cls)


# -- reading -------------------------------------------------------------------------------


def parse_ruleset_json(text: str | bytes) -> Ruleset:
    """A Ruleset from a ruleset file's text, or RulesetFileError."""
    try:
        data = load_json(text)
    except CharacterFileError as error:
        raise RulesetFileError([(error.where, error.message)]) from None
    return read_ruleset(data)


def read_ruleset(data) -> Ruleset:
    """A Ruleset from a parsed ruleset file, or RulesetFileError with every problem."""
    problem = first_text_problem(data)
    if problem is not None:
        raise RulesetFileError([problem])
    reader = _Reader()
    ruleset = reader.ruleset(data)
    if reader.problems:
        raise RulesetFileError(reader.problems)
    return ruleset


def ruleset_problems(data) -> list[tuple[str, str]]:
    """Every problem of a parsed ruleset file; [] for a good one."""
    try:
        read_ruleset(data)
    except RulesetFileError as error:
        return error.problems
    return []


class _Refused(Exception):
    """One field's problem, already recorded: the reader goes on with the next field."""


class _Reader:
    def __init__(self):
        self.problems: list[tuple[str, str]] = []
        self.ladder = STANDARD
        # A refused ladder refuses no level word elsewhere: which words it meant is unclear.
        self.ladder_refused = False

    def refuse(self, where: str, message: Phrase | str):
        self.problems.append((where, message))
        raise _Refused

    def field(self, read, *args, fallback=None):
        """read(*args), or `fallback` when it refused (its problem is recorded)."""
        try:
            return read(*args)
        except _Refused:
            return fallback

    # -- shapes --

    def object(self, value, where, known=None, *, required=True):
        if value is None and not required:
            return {}
        if value is None:
            self.refuse(where, say("is required: an object"))
        if not isinstance(value, dict):
            self.refuse(where, say("must be an object, not {kind}", kind=_kind(value)))
        if known is not None:
            unknown = [k for k in value if k not in known]
            if unknown:
                self.refuse(
                    f"{where}.{unknown[0]}" if where else unknown[0],
                    say(
                        "is not a field of the ruleset file here: use {fields}",
                        fields=", ".join(known),
                    ),
                )
        return value

    def list(self, value, where, *, limit=MAX_ENTRIES):
        if not isinstance(value, list):
            self.refuse(where, say("must be a list, not {kind}", kind=_kind(value)))
        if len(value) > limit:
            self.refuse(
                where,
                say("has {count} entries; the most is {limit}", count=len(value), limit=limit),
            )
        return value

    def text(self, value, where, *, limit=MAX_TEXT, required=False):
        if not isinstance(value, str):
            self.refuse(where, say("must be text, not {kind}", kind=_kind(value)))
        value = value.strip()
        if required and not value:
            self.refuse(where, say("must not be empty"))
        if len(value) > limit:
            self.refuse(
                where,
                say(
                    "is {count} characters long; the most is {limit}",
                    count=len(value),
                    limit=limit,
                ),
            )
        return value

    def name(self, value, where):
        name = self.text(value, where, limit=MAX_NAME, required=True)
        problem = name_problem(name)
        if problem:
            self.refuse(where, say("the name {problem}", problem=problem))
        return name

    def names(self, value, where, *, limit=MAX_ENTRIES) -> tuple[str, ...]:
        names = tuple(
            self.field(self.name, n, f"{where}[{i}]", fallback="")
            for i, n in enumerate(self.list(value, where, limit=limit))
        )
        self.unique(names, where)
        return names

    def unique(self, names, where, field=""):
        """Each name once; a second is refused at its entry (`field`: the entry's key that
        holds the name, ".name")."""
        seen = set()
        for index, name in enumerate(names):
            if name and name.casefold() in seen:
                self.problems.append(
                    (f"{where}[{index}]{field}", say("'{name}' appears twice", name=name))
                )
            seen.add(name.casefold())

    def boolean(self, value, where):
        if not isinstance(value, bool):
            self.refuse(where, say("must be true or false, not {kind}", kind=_kind(value)))
        return value

    def integer(self, value, where, low=-MAX_NUMBER, high=MAX_NUMBER):
        if isinstance(value, bool) or not isinstance(value, int):
            self.refuse(where, say("must be a whole number, not {kind}", kind=_kind(value)))
        if not low <= value <= high:
            self.refuse(
                where,
                say("must be from {low} to {high}, not {value}", low=low, high=high, value=value),
            )
        return value

    def amount(self, value, where):
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
            self.refuse(where, say("must be a number, not {kind}", kind=_kind(value)))
        if not 0 <= value <= MAX_NUMBER:
            self.refuse(
                where,
                say("must be from 0 to {high}, not {value}", high=MAX_NUMBER, value=str(value)),
            )
        amount = Fraction(value).limit_denominator(100)
        return amount.numerator if amount.denominator == 1 else amount

    def level(self, value, where):
        try:
            return self.ladder.parse(value)
        except LevelError as error:
            if self.ladder_refused and isinstance(value, str):
                return 0
            self.refuse(where, str(error))

    def choice(self, value, where, choices):
        if value not in choices:
            self.refuse(
                where,
                say(
                    "must be one of {choices}, not {value}",
                    choices=", ".join(choices),
                    value=repr(value),
                ),
            )
        return value

    # -- the file --

    def ruleset(self, data) -> Ruleset | None:
        try:
            obj = self.object(data, "", TOP_KEYS)
        except _Refused:
            return None
        fmt = obj.get("format")
        if fmt != FORMAT:
            self.problems.append(
                (
                    "format",
                    say("must be {format}, not {value}", format=repr(FORMAT), value=repr(fmt)),
                )
            )
        slug = self.field(self.slug, obj.get("slug"), "slug", fallback="ruleset")
        name = self.field(self.name, obj.get("name"), "name", fallback=slug)
        description = self.field(self.text, obj.get("description", ""), "description", fallback="")
        system = self.field(self.choice, obj.get("system"), "system", SYSTEMS, fallback=LEVELS)
        self.ladder = self.field(self.read_ladder, obj.get("ladder"))
        if self.ladder is None:  # refused: its words still read, and no word is refused twice
            self.ladder_refused = True
            self.ladder = _lenient_ladder(obj.get("ladder"))
        ladder_obj = obj.get("ladder") if isinstance(obj.get("ladder"), dict) else {}
        attributes = self.field(self.attributes, obj.get("attributes"), fallback={})
        skills = self.field(self.skills, obj.get("skills"), system, fallback={})
        powers = self.field(self.powers, obj.get("powers"), fallback={})
        terms = self.field(self.terms, obj.get("terms"), fallback=None)
        harm_fields = self.field(self.harm, obj.get("harm"), fallback={})
        advancement = self.field(self.advancement, obj.get("advancement"), fallback=None)
        catalog = self.field(self.catalogue, obj.get("catalogue"), fallback=Catalog(()))
        templates = self.field(self.templates, obj.get("templates", []), fallback=())
        sections = self.field(self.sections, obj.get("sections"), fallback={"creation": ""})
        design = self.field(self.design_numbers, obj.get("numbers"), fallback={})
        skeleton = dataclasses.replace(
            _NOTHING_SET,
            slug=slug,
            name=name,
            description=description,
            system=system,
            unit=UNITS[system],
            ladder=self.ladder,
            terms=terms or _NOTHING_SET.terms,
            catalog=catalog,
            templates=templates,
            sections=sections,
            advancement=advancement,
            **attributes,
            **skills,
            **powers,
            **harm_fields,
            **design,
        )
        # The budgets and limits, the ladder's bounds and the extra attributes: read as
        # house rules are, on the ruleset the other sections make.
        numbers = obj.get("numbers") if isinstance(obj.get("numbers"), dict) else {}
        rules = {k: v for k, v in numbers.items() if k not in DESIGN_NUMBERS}
        rules.update({k: ladder_obj[k] for k in LADDER_RULES if k in ladder_obj})
        attributes_obj = obj.get("attributes") if isinstance(obj.get("attributes"), dict) else {}
        if attributes_obj.get("extra"):
            rules["extra_attributes"] = attributes_obj["extra"]
        changes, problems = _parse(skeleton, rules)
        for problem in problems:
            if not (self.ladder_refused and NOT_A_LEVEL in problem.message):
                self.problems.append((self.where_of(problem), problem.phrase))
        # What ties sections together is checked beside every other problem (all at once),
        # on what the sections say so far.
        ruleset = dataclasses.replace(skeleton, **changes)
        self.check_together(ruleset)
        return None if self.problems else ruleset

    def where_of(self, problem: HouseRuleError) -> str:
        key = problem.key.split(".")[0].split("[")[0]
        if key in LADDER_RULES:
            return f"ladder.{problem.key}"
        if key == "extra_attributes":
            return "attributes.extra" + problem.key[len(key) :]
        return f"numbers.{problem.key}" if problem.key else "numbers"

    def slug(self, value, where):
        slug = self.text(value, where, limit=40, required=True)
        if not all(c.isascii() and (c.isalnum() or c == "-") for c in slug) or slug != slug.lower():
            self.refuse(
                where, say("'{slug}' must be lowercase letters, digits and hyphens", slug=slug)
            )
        return slug

    def read_ladder(self, value) -> Ladder:
        obj = self.object(value, "ladder", ("words", "fair", *LADDER_RULES))
        words = self.names(obj.get("words"), "ladder.words", limit=MAX_WORDS)
        if len(words) < 3:
            self.refuse(
                "ladder.words", say("needs at least 3 words: one below Fair, Fair, one above")
            )
        fair = self.name(obj.get("fair"), "ladder.fair")
        folded = [w.casefold() for w in words]
        if folded.count(fair.casefold()) != 1:
            self.refuse(
                "ladder.fair",
                say("'{fair}' must be one of the ladder's words, exactly once", fair=fair),
            )
        index = folded.index(fair.casefold())
        if index == 0 or index == len(words) - 1:
            self.refuse(
                "ladder.fair", say("'{fair}' needs a word below it and one above it", fair=fair)
            )
        if any(not w[-1:].isalpha() for w in words):
            self.refuse(
                "ladder.words",
                say("each word must end in a letter (a '+2' is added past the top)"),
            )
        return Ladder(words, index)

    def attributes(self, value) -> dict:
        where = "attributes"
        obj = self.object(
            value,
            where,
            ("names", "default", "cost", "extra", "opened_by_gifts", "uncommitted_max"),
        )
        names = obj.get("names")
        out = {
            "attribute_names": None
            if names is None
            else self.field(self.names, names, f"{where}.names", fallback=()),
            "attribute_default": self.field(
                self.level, obj.get("default"), f"{where}.default", fallback=0
            ),
            "attribute_cost": self.field(
                self.integer, obj.get("cost"), f"{where}.cost", 1, 100, fallback=1
            ),
            "attribute_gifts": self.field(
                self.name_map,
                obj.get("opened_by_gifts", {}),
                f"{where}.opened_by_gifts",
                fallback={},
            ),
            "uncommitted_max": self.field(
                self.level,
                obj.get("uncommitted_max", "Good"),
                f"{where}.uncommitted_max",
                fallback=0,
            ),
        }
        return out

    def name_map(self, value, where) -> dict[str, str]:
        obj = self.object(value, where)
        return {self.name(k, f"{where}.{k}"): self.name(v, f"{where}.{k}") for k, v in obj.items()}

    def skills(self, value, system) -> dict:
        where = "skills"
        obj = self.object(
            value, where, ("pricing", "default", "cost", "named_defaults", "difficulties")
        )
        pricing = self.field(self.pricing, obj.get("pricing"), system, fallback="")
        named = self.object(obj.get("named_defaults", {}), f"{where}.named_defaults")
        costs, defaults = self.field(self.difficulties, obj.get("difficulties"), fallback=({}, {}))
        return {
            "skill_difficulties": pricing == "by_difficulty",
            "skill_default": self.field(
                self.level, obj.get("default"), f"{where}.default", fallback=0
            ),
            "skill_cost": self.field(
                self.integer, obj.get("cost", 1), f"{where}.cost", 1, 100, fallback=1
            ),
            "named_skill_defaults": {
                self.field(self.name, n, f"{where}.named_defaults", fallback=n): self.field(
                    self.level, lv, f"{where}.named_defaults.{n}", fallback=0
                )
                for n, lv in named.items()
            },
            "difficulty_costs": costs,
            "difficulty_defaults": defaults,
        }

    def pricing(self, value, system) -> str:
        where = "skills.pricing"
        if value in PRICING_NAMES and value not in PRICINGS[system]:
            fits = [PRICING_WORDS[p] for p in PRICINGS[system]]
            fits = (
                fits[0] if len(fits) == 1 else say("{one} or {other}", one=fits[0], other=fits[1])
            )
            pricing = PRICING_WORDS[value]
            if system == LEVELS:
                why = say(
                    "{pricing} is not for the levels system: use {fits}", pricing=pricing, fits=fits
                )
            else:
                why = say(
                    "{pricing} is not for the tokens system: use {fits}", pricing=pricing, fits=fits
                )
            self.refuse(where, why)
        return self.choice(value, where, PRICINGS[system])

    def difficulties(self, value) -> tuple[dict, dict]:
        """Mudge 1.62's table: each difficulty's cost at Fair, rising with the difficulty
        (a harder skill never costs less), and its default (Mudge 1.4), or none."""
        where = "skills.difficulties"
        obj = self.object(value, where, DIFFICULTIES)
        missing = [d for d in DIFFICULTIES if d not in obj]
        if missing:
            self.refuse(
                where, say("needs every difficulty: {missing} missing", missing=", ".join(missing))
            )
        costs, defaults = {}, {}
        for d in DIFFICULTIES:
            row = self.object(obj[d], f"{where}.{d}", ("default", "cost_at_fair"))
            costs[d] = self.field(
                self.integer,
                row.get("cost_at_fair"),
                f"{where}.{d}.cost_at_fair",
                0,
                100,
                fallback=0,
            )
            default = row.get("default")
            defaults[d] = (
                None
                if default is None
                else self.field(self.level, default, f"{where}.{d}.default", fallback=0)
            )
        for easier, harder in itertools.pairwise(DIFFICULTIES):
            if costs[harder] <= costs[easier]:
                self.problems.append(
                    (
                        f"{where}.{harder}.cost_at_fair",
                        say(
                            "the cost table must increase with difficulty: {harder} costs "
                            "{cost}, no more than {easier} ({easier_cost})",
                            harder=Term(DIFFICULTY_NAMES[harder], "difficulty"),
                            cost=costs[harder],
                            easier=Term(DIFFICULTY_NAMES[easier], "difficulty"),
                            easier_cost=costs[easier],
                        ),
                    )
                )
        return costs, defaults

    def powers(self, value) -> dict:
        obj = self.object(value, "powers", ("kinds", "need_gifts"), required=False)
        return {
            "power_kinds": self.field(
                self.names, obj.get("kinds", []), "powers.kinds", fallback=()
            ),
            "power_gifts": self.field(
                self.name_map, obj.get("need_gifts", {}), "powers.need_gifts", fallback={}
            ),
        }

    def terms(self, value) -> Terms:
        texts = [f.name for f in _fields(Terms) if f.name != "lists"]
        obj = self.object(value, "terms", ("lists", *texts))
        lists = self.object(obj.get("lists"), "terms.lists", LISTS)
        for needed in ("attributes", "skills"):
            if needed not in lists:
                self.problems.append(
                    ("terms.lists", say("needs '{list}': every ruleset has them", list=needed))
                )
        read = {}
        for key, pair in lists.items():
            at = f"terms.lists.{key}"
            pair = self.field(self.list, pair, at, fallback=[])
            if len(pair) != 2:
                self.problems.append(
                    (
                        at,
                        say(
                            "must be two names: the list's title and one of them, e.g. Gifts, gift"
                        ),
                    )
                )
                continue
            read[key] = (self.name(pair[0], f"{at}[0]"), self.name(pair[1], f"{at}[1]"))
        values = {
            key: self.field(self.text, obj.get(key, ""), f"terms.{key}", fallback="")
            for key in texts
            if key in obj
        }
        return Terms(lists=read, **values)

    def harm(self, value) -> dict:
        if value is None:
            return {"harm": None, "damage_capacity_attribute": None, "muscle_attribute": None}
        where = "harm"
        obj = self.object(value, where)
        track_rows = self.list(obj.get("track"), f"{where}.track", limit=20)
        if not track_rows:
            self.refuse(f"{where}.track", say("needs at least one row: a wound or setback level"))
        track = tuple(
            self.field(self.wound, row, f"{where}.track[{i}]") for i, row in enumerate(track_rows)
        )
        self.unique([w.name if w else "" for w in track], f"{where}.track", ".name")
        # A row refused for its boxes is still a row: a graze limit may name it.
        wounds = {
            row["name"].strip()
            for row in track_rows
            if isinstance(row, dict) and isinstance(row.get("name"), str)
        }
        grazes = []
        for i, row in enumerate(self.list(obj.get("graze_limits", []), f"{where}.graze_limits")):
            at = f"{where}.graze_limits[{i}]"
            row = self.object(row, at, ("from", "wound"))
            wound = self.name(row.get("wound"), f"{at}.wound")
            if wound not in wounds:
                self.problems.append(
                    (f"{at}.wound", say("'{wound}' is not a row of the track", wound=wound))
                )
            grazes.append((self.integer(row.get("from"), f"{at}.from", 0, 100), wound))
        harm = Harm(
            title=self.name(obj.get("title"), f"{where}.title"),
            caused_by=self.name(obj.get("caused_by", "Damage"), f"{where}.caused_by"),
            track=track,
            penalty_unit=self.choice(
                obj.get("penalty_unit", ""), f"{where}.penalty_unit", ("", "card")
            ),
            damage_factors=self.boolean(obj.get("damage_factors", True), f"{where}.damage_factors"),
            unarmed=self.integer(obj.get("unarmed", 0), f"{where}.unarmed", -10, 10),
            unarmed_trained=self.integer(
                obj.get("unarmed_trained", 0), f"{where}.unarmed_trained", -10, 10
            ),
            martial_arts=self.names(obj.get("martial_arts", []), f"{where}.martial_arts"),
            more_scratch=self.names(obj.get("more_scratch", []), f"{where}.more_scratch"),
            fewer_scratch=self.names(obj.get("fewer_scratch", []), f"{where}.fewer_scratch"),
            note=self.text(obj.get("note", ""), f"{where}.note"),
            damage_die=self.boolean(obj.get("damage_die", False), f"{where}.damage_die"),
            graze_limits=tuple(grazes),
        )
        return {
            "harm": harm,
            "damage_capacity_attribute": self.optional_name(
                obj.get("damage_capacity_attribute"), f"{where}.damage_capacity_attribute"
            ),
            "muscle_attribute": self.optional_name(
                obj.get("muscle_attribute"), f"{where}.muscle_attribute"
            ),
        }

    def optional_name(self, value, where):
        return None if value is None else self.field(self.name, value, where)

    def wound(self, value, where) -> WoundLevel:
        obj = self.object(value, where, ("name", "damage", "penalty", "boxes"))
        return WoundLevel(
            name=self.name(obj.get("name"), f"{where}.name"),
            damage=self.text(obj.get("damage", ""), f"{where}.damage", limit=MAX_NAME),
            penalty=self.integer(obj.get("penalty", 0), f"{where}.penalty", -10, 0),
            boxes=self.integer(obj.get("boxes"), f"{where}.boxes", 1, 20),
        )

    def advancement(self, value) -> Advancement | None:
        if value is None:
            return None
        where = "advancement"
        known = [f.name for f in _fields(Advancement)]
        obj = self.object(value, where, known)
        numbers = {}
        for key in ADVANCEMENT_NUMBERS:
            if obj.get(key) is not None:
                numbers[key] = self.field(
                    self.integer, obj[key], f"{where}.{key}", 0, MAX_NUMBER, fallback=0
                )
        steps = obj.get("skill_steps")
        if steps is not None:
            steps_obj = self.object(steps, f"{where}.skill_steps")
            read = {}
            for word, cost in steps_obj.items():
                at = f"{where}.skill_steps.{word}"
                level = self.field(self.level, word, at)
                cost = self.field(self.integer, cost, at, 0, MAX_NUMBER)
                if level is not None and cost is not None:
                    read[level] = cost
            # Ordered by the ladder: a refused ladder gives no order to check.
            ordered = [] if self.ladder_refused else sorted(read.items())
            for (low, low_cost), (high, high_cost) in itertools.pairwise(ordered):
                if high_cost < low_cost:
                    self.problems.append(
                        (
                            f"{where}.skill_steps.{self.ladder.name(high)}",
                            say(
                                "the cost table must not fall as the level rises: {cost} is "
                                "less than {lower} at {level}",
                                cost=high_cost,
                                lower=low_cost,
                                level=Level(low, self.ladder),
                            ),
                        )
                    )
            steps = read
        permission = obj.get("gm_permission_from")
        return Advancement(
            unit=self.name(obj.get("unit"), f"{where}.unit"),
            section=self.text(obj.get("section", ""), f"{where}.section"),
            skill_steps=steps,
            gm_permission_from=None
            if permission is None
            else self.field(self.level, permission, f"{where}.gm_permission_from"),
            gm_approval=tuple(
                self.choice(k, f"{where}.gm_approval", ("gift", "power"))
                for k in self.list(obj.get("gm_approval", []), f"{where}.gm_approval")
            ),
            **numbers,
        )

    def catalogue(self, value) -> Catalog:
        where = "catalogue"
        obj = self.object(
            value,
            where,
            required=False,
            known=(
                "section",
                "attributes",
                "skills",
                "gifts",
                "faults",
                "equipment",
                "powers",
                "power_kinds",
                "power_kind_notes",
            ),
        )

        def rows(key, read):
            at = f"{where}.{key}"
            entries = self.field(self.list, obj.get(key, []), at, fallback=[])
            out = [self.field(read, e, f"{at}[{i}]") for i, e in enumerate(entries)]
            self.unique([e.name if e else "" for e in out], at, ".name")
            return tuple(e for e in out if e)

        notes = self.object(obj.get("power_kind_notes", {}), f"{where}.power_kind_notes")
        return Catalog(
            attributes=self.field(
                self.names, obj.get("attributes", []), f"{where}.attributes", fallback=()
            ),
            skills=rows("skills", self.catalog_skill),
            gifts=rows("gifts", self.catalog_gift),
            faults=rows("faults", self.catalog_fault),
            equipment=rows("equipment", self.catalog_equipment),
            powers=rows("powers", self.catalog_power),
            power_kinds=self.field(
                self.names, obj.get("power_kinds", []), f"{where}.power_kinds", fallback=()
            ),
            section=self.field(self.text, obj.get("section", ""), f"{where}.section", fallback=""),
            power_kind_notes={
                k: self.field(self.text, v, f"{where}.power_kind_notes.{k}", fallback="")
                for k, v in notes.items()
            },
        )

    def catalog_skill(self, value, where):
        obj = self.object(value, where, ("name", "difficulty", "note"))
        return CatalogSkill(
            self.name(obj.get("name"), f"{where}.name"),
            self.choice(obj.get("difficulty", "average"), f"{where}.difficulty", DIFFICULTIES),
            self.text(obj.get("note", ""), f"{where}.note"),
        )

    def catalog_gift(self, value, where):
        obj = self.object(value, where, ("name", "cost", "note"))
        return CatalogGift(
            self.name(obj.get("name"), f"{where}.name"),
            self.amount(obj.get("cost", 1), f"{where}.cost"),
            self.text(obj.get("note", ""), f"{where}.note"),
        )

    def catalog_fault(self, value, where):
        obj = self.object(value, where, ("name", "value", "note"))
        return CatalogFault(
            self.name(obj.get("name"), f"{where}.name"),
            self.amount(obj.get("value", 1), f"{where}.value"),
            self.text(obj.get("note", ""), f"{where}.note"),
        )

    def catalog_equipment(self, value, where):
        obj = self.object(value, where, ("name", "kind", "damage", "armour", "note"))

        def factor(key):
            v = obj.get(key)
            return None if v is None else self.integer(v, f"{where}.{key}", -20, 20)

        return CatalogEquipment(
            self.name(obj.get("name"), f"{where}.name"),
            self.choice(obj.get("kind", "gear"), f"{where}.kind", EQUIPMENT_KINDS),
            factor("damage"),
            factor("armour"),
            self.text(obj.get("note", ""), f"{where}.note"),
        )

    def catalog_power(self, value, where):
        """A sample power (Mudge 2.52's spell form): its lines are text, kept as written."""
        obj = self.object(value, where, ("name", "kind", "difficulty", *POWER_DETAILS))
        lines = {k: self.text(obj.get(k, ""), f"{where}.{k}") for k in POWER_DETAILS}
        difficulty = obj.get("difficulty", "")
        if difficulty:
            self.choice(difficulty, f"{where}.difficulty", DIFFICULTIES)
        return CatalogPower(
            self.name(obj.get("name"), f"{where}.name"),
            self.name(obj.get("kind"), f"{where}.kind"),
            difficulty=difficulty,
            **lines,
        )

    def templates(self, value) -> tuple[Template, ...]:
        entries = self.list(value, "templates", limit=200)
        out = tuple(self.field(self.template, t, f"templates[{i}]") for i, t in enumerate(entries))
        self.unique([t.slug if t else "" for t in out], "templates", ".slug")
        self.unique([t.name if t else "" for t in out], "templates", ".name")
        return tuple(t for t in out if t)

    def template(self, value, where) -> Template:
        known = [f.name for f in _fields(Template)]
        obj = self.object(value, where, known)

        def words(key):
            levels = self.object(obj.get(key, {}), f"{where}.{key}")
            for name, word in levels.items():
                self.field(self.level, word, f"{where}.{key}.{name}")
            return {str(k): v for k, v in levels.items()}

        def shifts():
            bonuses = self.object(obj.get("racial_bonuses", {}), f"{where}.racial_bonuses")
            return {
                k: self.integer(v, f"{where}.racial_bonuses.{k}", -10, 10)
                for k, v in bonuses.items()
            }

        return Template(
            slug=self.slug(obj.get("slug"), f"{where}.slug"),
            name=self.name(obj.get("name"), f"{where}.name"),
            kind=self.choice(obj.get("kind"), f"{where}.kind", TEMPLATE_KINDS),
            section=self.text(obj.get("section", ""), f"{where}.section"),
            description=self.text(obj.get("description", ""), f"{where}.description"),
            minimum_attributes=words("minimum_attributes"),
            minimum_skills=words("minimum_skills"),
            recommended_gifts=self.names(
                obj.get("recommended_gifts", []), f"{where}.recommended_gifts"
            ),
            required_gifts=self.names(obj.get("required_gifts", []), f"{where}.required_gifts"),
            required_faults=self.names(obj.get("required_faults", []), f"{where}.required_faults"),
            scale_strength=self.integer(
                obj.get("scale_strength", 0), f"{where}.scale_strength", -50, 50
            ),
            scale_mass=self.integer(obj.get("scale_mass", 0), f"{where}.scale_mass", -50, 50),
            racial_bonuses=shifts(),
            notes=tuple(
                self.text(n, f"{where}.notes[{i}]")
                for i, n in enumerate(self.list(obj.get("notes", []), f"{where}.notes"))
            ),
            broad=self.boolean(obj.get("broad", False), f"{where}.broad"),
        )

    def sections(self, value) -> dict[str, str]:
        obj = self.object(value, "sections")
        out = {k: self.field(self.text, v, f"sections.{k}", fallback="") for k, v in obj.items()}
        if not out.get("creation"):
            self.refuse(
                "sections.creation",
                say("is required: the rule section every check falls back to cite"),
            )
        return out

    def design_numbers(self, value) -> dict:
        obj = self.object(value, "numbers", (*NUMBER_KEYS, *DESIGN_NUMBERS))
        out = {}
        if "has_scale" in obj:
            out["has_scale"] = self.field(self.boolean, obj["has_scale"], "numbers.has_scale")
        if "must_spend_and_save" in obj:
            out["must_spend_and_save"] = self.field(
                self.boolean, obj["must_spend_and_save"], "numbers.must_spend_and_save"
            )
        if "power_default" in obj:
            out["power_default"] = self.field(
                self.level, obj["power_default"], "numbers.power_default"
            )
        if "power_levels" in obj:
            levels = self.field(self.list, obj["power_levels"], "numbers.power_levels", fallback=[])
            read = tuple(
                self.field(self.integer, n, f"numbers.power_levels[{i}]", 0, MAX_NUMBER, fallback=0)
                for i, n in enumerate(levels)
            )
            if any(b <= a for a, b in itertools.pairwise(read)):
                self.problems.append(("numbers.power_levels", say("must increase, e.g. 6, 11, 16")))
            out["power_levels"] = read
        return {k: v for k, v in out.items() if v is not None}

    def check_together(self, r: Ruleset) -> None:
        """What ties sections together: the attributes harm names, the gifts that open
        attributes or powers."""
        if r.attribute_names:  # none (each character's own), or a list that was refused
            known = {
                n.casefold()
                for n in (
                    *r.attribute_names,
                    *(n for n, _ in r.extra_attributes),
                    *r.attribute_gifts.values(),
                )
            }
            for key in ("damage_capacity_attribute", "muscle_attribute"):
                name = getattr(r, key)
                if name is not None and name.casefold() not in known:
                    self.problems.append(
                        (
                            f"harm.{key}",
                            say("'{name}' is not one of the ruleset's attributes", name=name),
                        )
                    )
        for kind in r.power_gifts:
            if kind not in r.power_kinds:
                self.problems.append(
                    (
                        f"powers.need_gifts.{kind}",
                        say("'{kind}' is not one of the game's kinds of power", kind=kind),
                    )
                )
        if r.system == LEVELS and r.skill_cost != 1:
            self.problems.append(
                ("skills.cost", say("must be 1 in the levels system: a skill level is the unit"))
            )


def _lenient_ladder(value) -> Ladder:
    """A refused ladder's words, each once, around its Fair (or its middle word): the other
    sections' levels are read in them, and only the ladder is reported."""
    value = value if isinstance(value, dict) else {}
    words = value.get("words") if isinstance(value.get("words"), list) else []
    unique = {w.strip().casefold(): w.strip() for w in words if isinstance(w, str) and w.strip()}
    if len(unique) < 3:
        return STANDARD
    fair = value.get("fair")
    folded = list(unique)
    index = folded.index(fair.casefold()) if fair in unique.values() else len(folded) // 2
    return Ladder(tuple(unique.values()), index)


def _kind(value) -> Phrase:
    if value is None:  # null in the file, a field left empty in the designer
        return say("empty")
    if isinstance(value, bool):
        return say("true or false")
    if isinstance(value, int | float):
        return say("a number")
    if isinstance(value, str):
        return say("text")
    return say("a list") if isinstance(value, list) else say("an object")


# The ruleset every number of house_rules_to_json is compared with: nothing set.
_NOTHING_SET = Ruleset(
    slug="",
    name="",
    system=LEVELS,
    unit="",
    attribute_names=None,
    attribute_default=0,
    attribute_cost=1,
    skill_difficulties=False,
    skill_default=0,
    skill_cost=1,
    terms=Terms(lists={}),
    catalog=Catalog(()),
)
