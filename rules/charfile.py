"""The character file, version 1 (../shared/spec/character-file.md, docs/character-file.md).

`read_character` turns parsed JSON into a Character or raises CharacterFileError saying what
is wrong and where (a path such as `skills[2].level`); `write_character` is its inverse, so
write(read(x)) is a fixed point. Fields this version does not know are skipped and listed
in `ignored` so the report can warn about a likely typo.
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from rules import ledger
from rules.character import (
    EQUIPMENT_KINDS,
    POWER_KINDS,
    Character,
    Equipment,
    Fault,
    Gift,
    Npc,
    Power,
    Trait,
)
from rules.house_rules import HouseRuleError, apply_house_rules, json_number
from rules.json_files import CharacterFileError, load_json
from rules.ladder import STANDARD, Ladder, LevelError
from rules.plan import read_steps, write_steps
from rules.ruleset_file import RulesetFileError, read_ruleset, ruleset_to_json
from rules.rulesets import BUILTIN, DIFFICULTIES, Ruleset
from rules.text import first_text_problem
from rules.words import Phrase, Thousands, say, say_plural

FORMAT = "fairsheet.character/1"
MAX_NAME = 200
MAX_TEXT = 20_000
MAX_ITEMS = 500
MAX_NOTE = 500  # a ledger line's note (the database keeps as much)
MAX_QUANTITY = 1_000_000  # how many of a piece of equipment (arrows, coins)
# Traits and equipment together: a generous character has 60; 300 keep every page and the
# printed sheet quick (bench/pdf.py renders a character at this limit).
MAX_ROWS = 300
ROW_LISTS = ("attributes", "skills", "gifts", "faults", "powers", "equipment")
TRAIT_KEYS = frozenset(("name", "level", "difficulty"))
# Optional trait keys, read on the slow path: Mudge 1.7's uncommitted traits defined in play.
TRAIT_EXTRA_KEYS = ("defined_in_play",)
BOUGHT_KEYS = {ledger.Raise: "raise", ledger.Add: "add", ledger.Remove: "remove"}
# A ledger entry: what it is (one of these, with its amount), what a spend bought (one of
# these), and a note (spec, "Advancement").
LEDGER_KINDS = ("award", "carried", "spend")
SPEND_KEYS = ("raise", "add", "remove", "meta_points")
LEDGER_KEYS = (*LEDGER_KINDS, *SPEND_KEYS, "note")
TOP_LEVEL_KEYS = (
    "format",
    "ruleset",
    "ruleset_file",
    "house_rules",
    "name",
    "player",
    "concept",
    "race",
    "scale",
    "attributes",
    "skills",
    "gifts",
    "faults",
    "powers",
    "equipment",
    "meta_points",
    "experience",
    "advancement",
    "notes",
    "personality",
    "npc",
    "plan",
)
NPC_KEYS = ("group_size", "budget")
MAX_GROUP = 50  # members of a group made as one NPC


@dataclass(frozen=True)
class ReadResult:
    character: Character
    ignored: tuple[str, ...]  # paths of fields this version does not know
    # The ruleset `character.ruleset` names, before house rules: a built-in, one given to the
    # reader, or the file's own `ruleset_file`.
    ruleset: Ruleset | None = None


def parse_character_json(
    text: str | bytes, rulesets: Mapping[str, Ruleset] | None = None
) -> ReadResult:
    return read_character(load_json(text), rulesets)


def read_character(data, rulesets: Mapping[str, Ruleset] | None = None) -> ReadResult:
    """`rulesets`: the rulesets a file may name besides the built-ins (designed ones, by
    slug); a file may also carry its own as `ruleset_file`."""
    problem = first_text_problem(data)
    if problem is not None:
        raise CharacterFileError(*problem)
    reader = _Reader({**BUILTIN, **(rulesets or {})})
    character = reader.character(data)
    return ReadResult(character, tuple(reader.ignored), reader.ruleset)


def read_ledger_entry(data: dict, ladder: Ladder = STANDARD) -> "ledger.Entry":
    """One ledger line in its file form (what the database keeps a spend's purchase as),
    or CharacterFileError."""
    reader = _Reader(BUILTIN)
    reader.ladder = ladder
    return reader.ledger_entry(data, "advancement", 0)


def read_ruleset_file(value) -> Ruleset:
    """A character file's `ruleset_file`, or CharacterFileError naming its first problem
    (and how many more there are)."""
    try:
        return read_ruleset(value)
    except RulesetFileError as error:
        where, message = error.problems[0]
        more = len(error.problems) - 1
        if more:
            message = say_plural(
                "{problem} (and {count} more problem)",
                "{problem} (and {count} more problems)",
                more,
                problem=message,
                count=more,
            )
        at = f"ruleset_file.{where}" if where else "ruleset_file"
        raise CharacterFileError(at, message) from None


class _Reader:
    def __init__(self, rulesets: Mapping[str, Ruleset]):
        self.ignored: list[str] = []
        self.rulesets = rulesets
        self.ruleset: Ruleset | None = None
        self.ladder: Ladder = STANDARD

    def character(self, data) -> Character:
        obj = self.object(data, "", TOP_LEVEL_KEYS)
        fmt = obj.get("format", FORMAT)
        if fmt != FORMAT:
            raise CharacterFileError(
                "format", say("must be {format}, not {value}", format=repr(FORMAT), value=repr(fmt))
            )
        ruleset = obj.get("ruleset")
        known = self.rulesets
        if obj.get("ruleset_file") is not None:
            designed = read_ruleset_file(obj["ruleset_file"])
            if designed.slug != ruleset:
                raise CharacterFileError(
                    "ruleset_file.slug",
                    say(
                        "is {slug}, but the character's ruleset is {ruleset}: they must name "
                        "the same ruleset",
                        slug=repr(designed.slug),
                        ruleset=repr(ruleset),
                    ),
                )
            known = {**known, designed.slug: designed}
        if ruleset is None:  # never "unknown ruleset None"
            raise CharacterFileError(
                "ruleset",
                say(
                    "missing: a character file names its ruleset, one of {rulesets} (a Foundry "
                    "actor has a `system` object instead)",
                    rulesets=", ".join(known),
                ),
            )
        # A string first: a list or object is unhashable, and `in known` would raise.
        if not isinstance(ruleset, str) or ruleset not in known:
            raise CharacterFileError(
                "ruleset",
                say(
                    "unknown ruleset {ruleset}: use one of {rulesets}, or carry its ruleset "
                    "file as ruleset_file",
                    ruleset=repr(ruleset),
                    rulesets=", ".join(known),
                ),
            )
        self.ruleset = known[ruleset]
        self.ladder = self.ruleset.ladder
        # Only a missing value means "no house rules": [], 0, "" or false are wrong types.
        house_rules = obj.get("house_rules")
        if house_rules is None:
            house_rules = {}
        if not isinstance(house_rules, dict):
            raise CharacterFileError("house_rules", say("must be an object of overrides"))
        try:
            apply_house_rules(self.ruleset, house_rules)
        except HouseRuleError as error:
            # Where (house_rules.<key>), as every other unreadable field says.
            raise CharacterFileError(f"house_rules.{error.key}", error.message) from None
        self.rows(obj)
        scale = self.object(obj.get("scale", {}), "scale", ("strength", "mass"))
        name = self.text(obj.get("name"), "name", MAX_NAME, required=True)
        return Character(
            ruleset=ruleset,
            house_rules=house_rules,
            name=name,
            player=self.text(obj.get("player", ""), "player", MAX_NAME),
            concept=self.text(obj.get("concept", ""), "concept", MAX_NAME * 5),
            race=self.text(obj.get("race", ""), "race", MAX_NAME),
            scale_strength=self.integer(scale.get("strength", 0), "scale.strength", -50, 50),
            scale_mass=self.integer(scale.get("mass", 0), "scale.mass", -50, 50),
            attributes=self.items(obj, "attributes", self.trait),
            skills=self.items(obj, "skills", self.trait),
            gifts=self.items(obj, "gifts", self.gift),
            faults=self.items(obj, "faults", self.fault),
            powers=self.items(obj, "powers", self.power),
            equipment=self.items(obj, "equipment", self.equipment),
            meta_points=(
                None
                if obj.get("meta_points") is None
                else self.integer(obj["meta_points"], "meta_points", 0, 100)
            ),
            experience=self.integer(obj.get("experience", 0), "experience", 0, 100_000),
            advancement=self.advancement(obj),
            notes=self.text(obj.get("notes", ""), "notes", MAX_TEXT),
            personality=self.personality(obj.get("personality", {})),
            npc=self.npc(obj.get("npc")),
            # None when the file has none, so a file without one is written back without one.
            plan=None if obj.get("plan") is None else read_steps(obj["plan"], self.ladder),
        )

    def object(self, value, where, known):
        if not isinstance(value, dict):
            raise CharacterFileError(where, say("must be an object, not {kind}", kind=_kind(value)))
        for key in value:
            if key not in known:
                self.ignored.append(f"{where}.{key}" if where else str(key))
        return value

    def items(self, obj, key, read_one):
        value = obj.get(key, [])
        if not isinstance(value, list):
            raise CharacterFileError(key, say("must be a list, not {kind}", kind=_kind(value)))
        if len(value) > MAX_ITEMS:
            raise CharacterFileError(
                key,
                say("has {count} entries; the most is {most}", count=len(value), most=MAX_ITEMS),
            )
        return tuple([read_one(item, key, i) for i, item in enumerate(value)])

    def rows(self, obj):
        counts = {key: len(obj[key]) for key in ROW_LISTS if isinstance(obj.get(key), list)}
        if sum(counts.values()) > MAX_ROWS:
            listed = ", ".join(f"{n} {key}" for key, n in counts.items() if n)
            raise CharacterFileError(
                "",
                say(
                    "the character has {count} traits and pieces of equipment ({listed}); the "
                    "most is {most} together",
                    count=sum(counts.values()),
                    listed=listed,
                    most=MAX_ROWS,
                ),
            )

    def text(self, value, where, limit, *, required=False):
        if value is None and not required:
            return ""
        if not isinstance(value, str):
            raise CharacterFileError(where, say("must be text, not {kind}", kind=_kind(value)))
        value = value.strip()
        if required and not value:
            raise CharacterFileError(where, say("is required and cannot be empty"))
        if len(value) > limit:
            raise CharacterFileError(
                where,
                say(
                    "is {length} characters long; the most is {most}",
                    length=Thousands(len(value)),
                    most=Thousands(limit),
                ),
            )
        return value

    def integer(self, value, where, low, high):
        if isinstance(value, bool) or not isinstance(value, int):
            raise CharacterFileError(
                where, say("must be a whole number, not {kind}", kind=_kind(value))
            )
        if not low <= value <= high:
            raise CharacterFileError(where, _between(low, high, value))
        return value

    def amount(self, value, where):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise CharacterFileError(where, say("must be a number, not {kind}", kind=_kind(value)))
        if not 0 <= value <= 20:
            raise CharacterFileError(where, _between(0, 20, value))
        if isinstance(value, int):
            return value  # whole amounts stay ints: cheaper to price than Fractions
        amount = Fraction(repr(value))  # the decimal the file wrote: 0.1 is 1/10
        if (amount * 100).denominator != 1:
            raise CharacterFileError(
                where,
                say(
                    "{value} has more than two decimals: use hundredths at most, e.g. {example}",
                    value=repr(value),
                    example=Fraction(1, 2),
                ),
            )
        return amount.numerator if amount.denominator == 1 else amount

    def optional_amount(self, value, where):
        """A cost or value, or None when not given: the catalogue's value is priced then."""
        return None if value is None else self.amount(value, where)

    def level(self, value, where):
        try:
            return self.ladder.parse(value)
        except LevelError as error:
            raise CharacterFileError(where, error.phrase) from None

    def difficulty(self, value, where):
        if value is None:
            return None
        if value not in DIFFICULTIES:
            raise CharacterFileError(
                where,
                say(
                    "unknown difficulty {value}: use one of {difficulties}",
                    value=repr(value),
                    difficulties=", ".join(DIFFICULTIES),
                ),
            )
        return value

    def trait(self, value, key, index):
        # The common case first, with no message formatting: a plain, well-formed trait.
        if type(value) is dict and value.keys() <= TRAIT_KEYS:
            name, level, difficulty = value.get("name"), value.get("level"), value.get("difficulty")
            if (
                type(name) is str
                and type(level) is str
                and (difficulty is None or difficulty in DIFFICULTIES)
            ):
                name, offset = name.strip(), self.ladder.levels.get(level.casefold())
                if offset is not None and 0 < len(name) <= 100:
                    return Trait(name, offset, difficulty)
        where = _at(key, index)
        obj = self.object(value, where, (*TRAIT_KEYS, *TRAIT_EXTRA_KEYS))
        if "level" not in obj:
            raise CharacterFileError(f"{where}.level", say("is required"))
        defined_in_play = obj.get("defined_in_play", False)
        if not isinstance(defined_in_play, bool):
            raise CharacterFileError(
                f"{where}.defined_in_play",
                say("must be true or false, not {kind}", kind=_kind(defined_in_play)),
            )
        return Trait(
            name=self.text(obj.get("name"), f"{where}.name", 100, required=True),
            level=self.level(obj["level"], f"{where}.level"),
            difficulty=self.difficulty(obj.get("difficulty"), f"{where}.difficulty"),
            defined_in_play=defined_in_play,
        )

    def gift(self, value, key, index):
        where = _at(key, index)
        obj = self.object(value, where, ("name", "cost"))
        return Gift(
            name=self.text(obj.get("name"), f"{where}.name", 100, required=True),
            cost=self.optional_amount(obj.get("cost"), f"{where}.cost"),
        )

    def fault(self, value, key, index):
        where = _at(key, index)
        obj = self.object(value, where, ("name", "value"))
        return Fault(
            name=self.text(obj.get("name"), f"{where}.name", 100, required=True),
            value=self.optional_amount(obj.get("value"), f"{where}.value"),
        )

    def power(self, value, key, index):
        where = _at(key, index)
        obj = self.object(value, where, ("name", "kind", "level", "difficulty", "cost"))
        kind = obj.get("kind")
        if kind is not None and kind not in POWER_KINDS:
            raise CharacterFileError(f"{where}.kind", _unknown_kind(kind, POWER_KINDS))
        return Power(
            name=self.text(obj.get("name"), f"{where}.name", 100, required=True),
            kind=kind,
            level=None if obj.get("level") is None else self.level(obj["level"], f"{where}.level"),
            difficulty=self.difficulty(obj.get("difficulty"), f"{where}.difficulty"),
            cost=self.optional_amount(obj.get("cost"), f"{where}.cost"),
        )

    def equipment(self, value, key, index):
        where = _at(key, index)
        obj = self.object(
            value, where, ("name", "kind", "damage", "armour", "armor", "notes", "quantity")
        )
        kind = obj.get("kind", "gear")
        if kind == "armor":  # the spec takes both spellings and writes `armour`
            kind = "armour"
        if kind not in EQUIPMENT_KINDS:
            raise CharacterFileError(f"{where}.kind", _unknown_kind(kind, EQUIPMENT_KINDS))
        armour = obj.get("armour", obj.get("armor"))
        return Equipment(
            name=self.text(obj.get("name"), f"{where}.name", 100, required=True),
            kind=kind,
            damage=None
            if obj.get("damage") is None
            else self.integer(obj["damage"], f"{where}.damage", -10, 50),
            armour=None if armour is None else self.integer(armour, f"{where}.armour", -10, 50),
            notes=self.text(obj.get("notes", ""), f"{where}.notes", 1000),
            quantity=1
            if obj.get("quantity") is None
            else self.integer(obj["quantity"], f"{where}.quantity", 0, MAX_QUANTITY),
        )

    def advancement(self, obj):
        """The ledger (spec, "Advancement"): None when the file has none, so a file
        without one is written back without one."""
        if "advancement" not in obj:
            return None
        entries = self.items(obj, "advancement", self.ledger_entry)
        return entries

    def ledger_entry(self, value, key, index):
        where = _at(key, index)
        obj = self.object(value, where, LEDGER_KEYS)
        kinds = [kind for kind in LEDGER_KINDS if kind in obj]
        if len(kinds) != 1:
            raise CharacterFileError(
                where,
                say(
                    "must be one of an award, tokens carried or a spend: give exactly one of "
                    "{keys}",
                    keys=", ".join(LEDGER_KINDS),
                ),
            )
        kind = kinds[0]
        amount = self.integer(obj[kind], f"{where}.{kind}", 0, 100_000)
        note = None
        if "note" in obj:
            note = self.text(obj["note"], f"{where}.note", MAX_NOTE)
        bought_keys = [k for k in SPEND_KEYS if k in obj]
        if kind != "spend":
            if bought_keys:
                raise CharacterFileError(f"{where}.{bought_keys[0]}", _not_a_spend(kind))
            return ledger.Entry(kind, amount, note)
        if len(bought_keys) != 1:
            raise CharacterFileError(
                where,
                say(
                    "a spend says what it bought: give exactly one of {keys}",
                    keys=", ".join(SPEND_KEYS),
                ),
            )
        what = bought_keys[0]
        at = f"{where}.{what}"
        if what == "meta_points":
            return ledger.Entry(kind, amount, note, meta_points=self.integer(obj[what], at, 1, 100))
        return ledger.Entry(kind, amount, note, bought=self.bought(what, obj[what], at))

    def bought(self, what, value, where):
        lists = {"raise": ledger.RAISE_KINDS, "add": ledger.ADD_LISTS}.get(
            what, ledger.REMOVE_LISTS
        )
        if not isinstance(value, dict):
            raise CharacterFileError(where, say("must be an object, not {kind}", kind=_kind(value)))
        listed = value.get("list")
        if listed not in lists:
            raise CharacterFileError(
                f"{where}.list",
                say(
                    "must name one of {lists}, not {value}",
                    lists=", ".join(lists),
                    value=repr(listed),
                ),
            )
        if what == "raise":
            obj = self.object(value, where, ("list", "name", "from", "to"))
            for key in ("from", "to"):
                if key not in obj:
                    raise CharacterFileError(f"{where}.{key}", say("is required"))
            return ledger.Raise(
                listed,
                self.text(obj.get("name"), f"{where}.name", 100, required=True),
                self.level(obj["from"], f"{where}.from"),
                self.level(obj["to"], f"{where}.to"),
            )
        item = {k: v for k, v in value.items() if k != "list"}
        read_one = {"skills": self.trait, "gifts": self.gift, "powers": self.power}.get(
            listed, self.fault
        )
        # The item is read as its list reads one, so its path names the entry.
        trait = read_one(item, where, None)
        return (ledger.Add if what == "add" else ledger.Remove)(listed, trait)

    def npc(self, value):
        """The optional `npc` section: a GM's non-player character (docs/character-file.md)."""
        if value is None:
            return None
        obj = self.object(value, "npc", NPC_KEYS)
        budget = obj.get("budget", False)
        if not isinstance(budget, bool):
            raise CharacterFileError(
                "npc.budget", say("must be true or false, not {kind}", kind=_kind(budget))
            )
        group_size = self.integer(obj.get("group_size", 1), "npc.group_size", 1, MAX_GROUP)
        return Npc(group_size=group_size, budget=budget)

    def personality(self, value):
        if not isinstance(value, dict):
            raise CharacterFileError(
                "personality", say("must be an object, not {kind}", kind=_kind(value))
            )
        if len(value) > 100:
            raise CharacterFileError("personality", say("has more than {most} answers", most=100))
        return {
            self.text(k, "personality", 200, required=True): self.text(
                v, f"personality.{k}", MAX_TEXT
            )
            for k, v in value.items()
        }


def _at(key: str, index: int | None) -> str:
    """Where a list item is: `skills[2]`; a ledger entry's item is the entry's key itself."""
    return key if index is None else f"{key}[{index}]"


def _between(low, high, value) -> Phrase:
    return say(
        "must be between {low} and {high}, not {value}", low=low, high=high, value=repr(value)
    )


def _unknown_kind(kind, kinds) -> Phrase:
    return say("unknown kind {kind}: use one of {kinds}", kind=repr(kind), kinds=", ".join(kinds))


def _not_a_spend(kind: str) -> Phrase:
    if kind == "award":
        return say("belongs to a spend, not to an award")
    return say("belongs to a spend, not to tokens carried")


# What a value of the wrong type is, as a message names it.
KINDS = {
    dict: say("an object"),
    list: say("a list"),
    str: say("text"),
    bool: say("true/false"),
    type(None): say("null"),
    int: say("a number"),
    float: say("a number"),
}


def _kind(value) -> Phrase | str:
    return KINDS.get(type(value), type(value).__name__)


def write_character(character: Character, ladder: Ladder = STANDARD) -> dict:
    """The file for `character`; its levels in the words of its ruleset's `ladder`."""
    """The character as a version-1 file (a dict ready for json.dumps)."""
    data = {
        "format": FORMAT,
        "ruleset": character.ruleset,
        "house_rules": character.house_rules,
        "name": character.name,
        "player": character.player,
        "concept": character.concept,
        "race": character.race,
        "scale": {"strength": character.scale_strength, "mass": character.scale_mass},
        "attributes": [_trait(t, ladder) for t in character.attributes],
        "skills": [_trait(t, ladder) for t in character.skills],
        "gifts": [_priced(g.name, "cost", g.cost) for g in character.gifts],
        "faults": [_priced(f.name, "value", f.value) for f in character.faults],
        "powers": [_power(p, ladder) for p in character.powers],
        "equipment": [_equipment(e) for e in character.equipment],
        "meta_points": character.meta_points,
        "experience": character.experience,
        "notes": character.notes,
        "personality": character.personality,
    }
    if character.npc is not None:
        data["npc"] = {"group_size": character.npc.group_size, "budget": character.npc.budget}
    if character.meta_points is None:
        del data["meta_points"]
    if character.advancement is not None:
        # After experience, which it must agree with (spec, "Advancement").
        ordered = list(data.items())
        at = [key for key, _ in ordered].index("experience") + 1
        ordered.insert(at, ("advancement", [write_entry(e, ladder) for e in character.advancement]))
        data = dict(ordered)
    if character.plan is not None:
        data["plan"] = write_steps(character.plan, ladder)
    return data


def character_file_with_ruleset(character: Character, ruleset: Ruleset) -> dict:
    """A character file that carries its designed ruleset (`ruleset_file`, after
    `ruleset`): any Fairsheet reads and checks it with nothing else."""
    data = write_character(character, ruleset.ladder)
    ordered = list(data.items())
    ordered.insert(2, ("ruleset_file", ruleset_to_json(ruleset)))
    return dict(ordered)


def write_entry(entry: ledger.Entry, ladder: Ladder = STANDARD) -> dict:
    """One ledger line as the file writes it: the kind and amount, what a spend bought,
    then the note."""
    out = {entry.kind: entry.amount}
    if entry.meta_points is not None:
        out["meta_points"] = entry.meta_points
    elif entry.bought is not None:
        out[BOUGHT_KEYS[type(entry.bought)]] = write_bought(entry.bought, ladder)
    if entry.note is not None:
        out["note"] = entry.note
    return out


def write_bought(bought, ladder: Ladder = STANDARD) -> dict:
    if isinstance(bought, ledger.Raise):
        return {
            "list": bought.list,
            "name": bought.name,
            "from": ladder.name(bought.from_level),
            "to": ladder.name(bought.to_level),
        }
    item = bought.item
    if isinstance(item, Trait):
        listed = _trait(item, ladder)
    elif isinstance(item, Gift):
        listed = _priced(item.name, "cost", item.cost)
    elif isinstance(item, Fault):
        listed = _priced(item.name, "value", item.value)
    else:
        listed = _power(item, ladder)
    return {"list": bought.list, **listed}


def dumps_character(character: Character) -> str:
    return json.dumps(write_character(character), indent=2, ensure_ascii=False) + "\n"


def _trait(trait: Trait, ladder: Ladder) -> dict:
    out = {"name": trait.name, "level": ladder.name(trait.level)}
    if trait.difficulty is not None:
        out["difficulty"] = trait.difficulty
    if trait.defined_in_play:
        out["defined_in_play"] = True
    return out


def _priced(name: str, key: str, amount) -> dict:
    """A gift or fault; a cost or value left out stays out (the catalogue prices it)."""
    return {"name": name} if amount is None else {"name": name, key: json_number(amount)}


def _power(power: Power, ladder: Ladder) -> dict:
    out = {"name": power.name}
    if power.kind is not None:
        out["kind"] = power.kind
    if power.level is not None:
        out["level"] = ladder.name(power.level)
    if power.difficulty is not None:
        out["difficulty"] = power.difficulty
    if power.cost is not None:
        out["cost"] = json_number(power.cost)
    return out


def _equipment(item: Equipment) -> dict:
    out = {"name": item.name, "kind": item.kind}
    if item.damage is not None:
        out["damage"] = item.damage
    if item.armour is not None:
        out["armour"] = item.armour
    if item.notes:
        out["notes"] = item.notes
    if item.quantity != 1:
        out["quantity"] = item.quantity
    return out
