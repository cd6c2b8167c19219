"""Reading the game's own sections of a ruleset file: its ladder, attributes, skills and
their pricing, powers, terms and design numbers."""

import dataclasses
import itertools

from rules.house_rules import MAX_NUMBER
from rules.ladder import Ladder
from rules.ruleset_file.file_format import (
    DESIGN_NUMBERS,
    DIFFICULTY_NAMES,
    LADDER_RULES,
    MAX_WORDS,
    NUMBER_KEYS,
    PRICING_NAMES,
    PRICING_WORDS,
    PRICINGS,
)
from rules.ruleset_file.shapes import Shapes
from rules.rulesets import DIFFICULTIES, LEVELS, LISTS, Terms
from rules.words import Term, say


class GameSections(Shapes):
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
        if isinstance(value, str) and value in PRICING_NAMES and value not in PRICINGS[system]:
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
        texts = [f.name for f in dataclasses.fields(Terms) if f.name != "lists"]
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
