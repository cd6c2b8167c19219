"""Reading a ruleset file: every section, then the house-rule numbers on the ruleset the
sections make, then what ties sections together; every problem at once."""

import dataclasses

from rules.catalog import Catalog
from rules.house_rules import HouseRuleError, _parse
from rules.json_files import CharacterFileError, load_json
from rules.ladder import STANDARD, Ladder
from rules.ruleset_file.file_format import (
    DESIGN_NUMBERS,
    FORMAT,
    FORMAT_2,
    FORMATS,
    LADDER_RULES,
    NOT_A_LEVEL,
    PARTS_KEYS,
    SYSTEMS,
    TOP_KEYS,
    UNITS,
    RulesetFileError,
)
from rules.ruleset_file.game import GameSections
from rules.ruleset_file.game_parts import GamePartSections
from rules.ruleset_file.play import PlaySections
from rules.ruleset_file.shapes import Refused
from rules.rulesets import LEVELS, Ruleset, Terms
from rules.text import first_text_problem
from rules.words import say


def parse_ruleset_json(text: str | bytes) -> Ruleset:
    """A Ruleset from a ruleset file's text, or RulesetFileError."""
    try:
        data = load_json(text)
    except CharacterFileError as error:
        raise RulesetFileError([(error.where, error.message)]) from None
    return read_ruleset(data)


def read_ruleset(data) -> Ruleset:
    """A Ruleset from a parsed ruleset file, or RulesetFileError with every problem (the
    first MAX_PROBLEMS, then how many more)."""
    problem = first_text_problem(data)
    if problem is not None:
        raise RulesetFileError([problem])
    reader = Reader()
    ruleset = reader.ruleset(data)
    if reader.problems:
        raise RulesetFileError(reader.problems.all())
    return ruleset


def ruleset_problems(data) -> list[tuple[str, str]]:
    """Every problem of a parsed ruleset file; [] for a good one."""
    try:
        read_ruleset(data)
    except RulesetFileError as error:
        return error.problems
    return []


class Reader(GameSections, PlaySections, GamePartSections):
    def ruleset(self, data) -> Ruleset | None:
        try:
            obj = self.object(data, "", TOP_KEYS)
        except Refused:
            return None
        fmt = obj.get("format")
        if fmt not in FORMATS:
            self.problems.append(
                (
                    "format",
                    say("must be {format}, not {value}", format=repr(FORMAT_2), value=repr(fmt)),
                )
            )
        elif fmt == FORMAT and any(key in obj for key in PARTS_KEYS):
            self.problems.append(
                (
                    "format",
                    say(
                        "must be {format} for a game with derived values, trackers or "
                        "prerequisites",
                        format=repr(FORMAT_2),
                    ),
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
        derived = self.field(self.derived_list, obj.get("derived", []), fallback=())
        trackers = self.field(self.trackers, obj.get("trackers", []), fallback=())
        prerequisites = self.field(self.prerequisites, obj.get("prerequisites", []), fallback=())
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
            derived=derived,
            trackers=trackers,
            prerequisites=prerequisites,
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
        self.check_game_parts(r)


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
