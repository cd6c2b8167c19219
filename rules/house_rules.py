"""House rules: a campaign's overrides of a ruleset's numbers (spec: character-file.md).

`apply_house_rules` returns a new Ruleset or raises HouseRuleError naming the key and what
is wrong with it, so a GM's form and the check command give the same message: a
rules.words Phrase, English to the check command, the reader's language on a GM's form.
"""

import dataclasses
import math
from fractions import Fraction

from rules.ladder import STANDARD, Ladder, LevelError
from rules.rulesets import Ruleset
from rules.text import name_problem
from rules.words import Level, Name, Phrase, Term, number_text, say

# key -> what it means, for the docs, the GM's form and error messages.
HOUSE_RULE_KEYS = {
    "attribute_levels": "free attribute levels (Fudge, Mudge)",
    "skill_levels": "free skill levels (Fudge, Mudge)",
    "free_gifts": "free gifts (Fudge, Mudge)",
    "tokens": "starting tokens (MicroFudged)",
    "attribute_caps": 'how many attributes may stand at a level, e.g. {"Superb": 1}',
    "skill_caps": 'how many skills may stand at a level, e.g. {"Superb": 2, "Great": 4}',
    "legendary_at_creation": "whether a trait may start at Legendary",
    "trade_values": "what an attribute level, a gift and a fault are worth in skill levels",
    "max_lowered_skills": "how many skills may drop one level below default (Mudge 1.62)",
    "tokens_carried": "unspent tokens carried into play (Streamlined MicroFudged)",
    "extra_attributes": 'attributes the GM adds, each {"name": ..., "default": "Fair"}',
    "meta_points_start": "meta or Fudge points a new character starts with",
    "meta_points_max": "the most meta points a character may hold (Mudge 1.36: 5)",
    "superpower_cost": "what a superpower costs, in gifts (Mudge 2.8: 2)",
    "negative_scale_refund": (
        "whether Scale below 0 gives levels back: an attribute level a step of Strength, a "
        "fault (Easily Wounded) a step of Mass (Mudge 2.34: only if the GM allows)"
    ),
    "max_skills": "the most skills a new character may take (Mudge 1.5: 10, 15 or 20)",
    "min_faults": "the fewest faults a new character must take (Mudge 1.5; Fudge Basics)",
    "cap_trading": ('whether a cap slot trades "two lower for one higher" and back (Mudge 1.5)'),
    "creation_min": "the lowest level a trait may start at (Streamlined MicroFudged: Poor)",
    "creation_max": "the highest level a trait may start at, below Legendary",
    "uncommitted_traits": "traits left to define in play, at Good or lower (Mudge 1.7: 2)",
    "damage_capacity_attribute": "the attribute that soaks damage (Mudge 4.52: Constitution)",
    "muscle_attribute": "the attribute that adds to a blow's damage (Mudge 4.54: Strength)",
    "advancement_costs": (
        "experience costs: "
        '{"skill_steps": {"Fair": 2, ...}, "attribute_multiplier": 3, "beyond": 50, '
        '"gift": 4, "power": 8, "meta_point": 6, "buy_off_fault": 9, '
        '"points_per_unit": 3, "gm_permission_from": "Superb"} (Mudge 5.2; Fudge Basics)'
    ),
}
# An extra attribute in the file's JSON: an example the messages show as it is, in any language.
EXTRA_EXAMPLE = '{"name": ..., "default": "Fair"}'
# advancement_costs' keys: whole numbers, but skill_steps (level -> cost) and
# gm_permission_from (a level word).
ADVANCEMENT_NUMBERS = (
    "attribute_multiplier",
    "beyond",
    "gift",
    "power",
    "meta_point",
    "buy_off_fault",
    "points_per_unit",
)
TRADE_KEYS = ("attribute", "gift", "fault")
BOOLEAN_KEYS = ("legendary_at_creation", "negative_scale_refund", "cap_trading")
ATTRIBUTE_KEYS = ("damage_capacity_attribute", "muscle_attribute")
LEVEL_KEYS = ("creation_min", "creation_max")
# JSON allows numbers of 4,300 digits, which would overflow a float or Python's int-to-text
# limit in the report. A million of anything is far past any campaign.
MAX_NUMBER = 1_000_000


class HouseRuleError(ValueError):
    def __init__(self, key: str, message: Phrase | str):
        super().__init__(f"house_rules.{key}: {message}")
        self.key = key
        # Without the key, for CharacterFileError's `where`: as a Phrase (or a string another
        # module made), for another language (characters.wording), and in English.
        self.phrase = message
        self.message = str(message)


def _written(value):
    """A refused value as the message has always written it (str): a number where its
    English is the same, so another language writes it its own way ("-0,5")."""
    return value if number_text(value) == str(value) else str(value)


def _count(key, value, *, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise HouseRuleError(key, say("must be a whole number, not {value}", value=repr(value)))
    if value < 0:
        raise HouseRuleError(key, say("cannot be negative ({value})", value=value))
    if value > MAX_NUMBER:
        raise HouseRuleError(key, _above_max(value))
    return value


def _above_max(value) -> Phrase:
    # MAX_NUMBER written out in the template, so that each language groups its digits its
    # own way (1 000 000).
    return say("cannot be above 1,000,000 ({value})", value=_written(value))


def _amount(key, value, *, positive=False):
    """A number that may be a half (a half-value fault, half a gift). JSON's NaN and
    Infinity are floats too, and no amount."""
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (isinstance(value, float) and not math.isfinite(value))
    ):
        raise HouseRuleError(key, say("must be a number, not {value}", value=repr(value)))
    amount = Fraction(value).limit_denominator(100)
    if positive and amount <= 0:
        raise HouseRuleError(key, say("must be above zero ({value})", value=_written(value)))
    if amount < 0:
        raise HouseRuleError(key, say("must be at least zero ({value})", value=_written(value)))
    if amount > MAX_NUMBER:
        raise HouseRuleError(key, _above_max(value))
    return amount


def _caps(key, value, ladder: Ladder):
    if not isinstance(value, dict):
        raise HouseRuleError(
            key, say("must map level words to counts, e.g. {example}", example='{"Superb": 1}')
        )
    caps = {}
    for word, limit in value.items():
        try:
            level = ladder.parse(word)
        except LevelError as error:
            raise HouseRuleError(key, str(error)) from None
        caps[level] = _count(f"{key}.{word}", limit)
    return caps


def _level(key, value, ladder: Ladder = STANDARD):
    try:
        return ladder.parse(value)
    except LevelError as error:
        raise HouseRuleError(key, str(error)) from None


def _boolean(key, value):
    if not isinstance(value, bool):
        raise HouseRuleError(key, say("must be true or false, not {value}", value=repr(value)))
    return value


def _attribute_name(key, value, ruleset: Ruleset, extras):
    """An attribute the ruleset has: any name where the GM lists them, else one of its
    fixed list, an extra attribute or one a gift opens."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > 100:
        raise HouseRuleError(key, say("must be an attribute's name, of 1 to 100 characters"))
    name = value.strip()
    if ruleset.attribute_names is None:
        return name
    known = [*ruleset.attribute_names, *(n for n, _ in extras), *ruleset.attribute_gifts.values()]
    for attribute in known:
        if attribute.casefold() == name.casefold():
            return attribute
    raise HouseRuleError(
        key,
        say(
            "{ruleset} has no attribute '{name}': use one of {names}",
            ruleset=Term(ruleset.name, "ruleset"),
            name=name,
            names=tuple(Name(attribute) for attribute in known),
        ),
    )


def _extra_attributes(key, value, ladder: Ladder):
    if not isinstance(value, list):
        raise HouseRuleError(key, say("must be a list of {example}", example=EXTRA_EXAMPLE))
    extras = []
    for index, item in enumerate(value):
        where = f"{key}[{index}]"
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise HouseRuleError(where, say("must be {example}", example=EXTRA_EXAMPLE))
        name = item["name"].strip()
        if not name or len(name) > 100:
            raise HouseRuleError(where, say("needs a name of 1 to 100 characters"))
        problem = name_problem(name)
        if problem:
            raise HouseRuleError(where, say("the name {problem}", problem=problem))
        extras.append((name, _level(where, item.get("default", ladder.words[ladder.fair]), ladder)))
    return tuple(extras)


def _trade_values(key, value, current):
    if not isinstance(value, dict):
        raise HouseRuleError(
            key,
            say("must be like {example}", example='{"attribute": 3, "gift": 6, "fault": 6}'),
        )
    unknown = set(value) - set(TRADE_KEYS)
    if unknown:
        raise HouseRuleError(key, _unknown_key(unknown, TRADE_KEYS))
    return {**current, **{k: _amount(f"{key}.{k}", v, positive=True) for k, v in value.items()}}


def _advancement_costs(key, value, ruleset: Ruleset):
    """The ruleset's development costs with the GM's numbers (Mudge 5.2: "these costs
    could be doubled" for a long campaign)."""
    if ruleset.advancement is None:
        raise HouseRuleError(
            key,
            say(
                "{ruleset} has no advancement costs to change",
                ruleset=Term(ruleset.name, "ruleset"),
            ),
        )
    if not isinstance(value, dict):
        raise HouseRuleError(
            key, say("must be an object, like {example}", example='{"gift": 4, "meta_point": 6}')
        )
    known = (*ADVANCEMENT_NUMBERS, "skill_steps", "gm_permission_from")
    unknown = set(value) - set(known)
    if unknown:
        raise HouseRuleError(key, _unknown_key(unknown, known))
    changes = {
        name: _count(f"{key}.{name}", number)
        for name, number in value.items()
        if name in ADVANCEMENT_NUMBERS
    }
    if "gm_permission_from" in value:
        changes["gm_permission_from"] = _level(
            f"{key}.gm_permission_from", value["gm_permission_from"], ruleset.ladder
        )
    if "skill_steps" in value:
        steps = value["skill_steps"]
        if not isinstance(steps, dict):
            raise HouseRuleError(
                f"{key}.skill_steps",
                say("must be like {example}", example='{"Fair": 2, "Good": 4}'),
            )
        base = dict(ruleset.advancement.skill_steps or {})
        for word, cost in steps.items():
            base[_level(f"{key}.skill_steps", word, ruleset.ladder)] = _count(
                f"{key}.skill_steps.{word}", cost
            )
        changes["skill_steps"] = base
    return dataclasses.replace(ruleset.advancement, **changes)


def _unknown_key(unknown: set, known) -> Phrase:
    return say("unknown key {key}: use {keys}", key=repr(sorted(unknown)[0]), keys=", ".join(known))


def _advancement_to_json(ruleset: Ruleset, base: Ruleset) -> dict:
    new, old = ruleset.advancement, base.advancement
    out = {
        name: getattr(new, name)
        for name in ADVANCEMENT_NUMBERS
        if getattr(new, name) != getattr(old, name)
    }
    if new.gm_permission_from != old.gm_permission_from:
        out["gm_permission_from"] = ruleset.word(new.gm_permission_from)
    steps = {
        ruleset.word(level): cost
        for level, cost in sorted((new.skill_steps or {}).items())
        if (old.skill_steps or {}).get(level) != cost
    }
    if steps:
        out["skill_steps"] = steps
    return out


def apply_house_rules(ruleset: Ruleset, house_rules: dict | None) -> Ruleset:
    """`ruleset` with `house_rules` (the character file's overrides) applied; raises the
    first HouseRuleError of house_rule_problems."""
    if not house_rules:
        return ruleset
    changes, problems = _parse(ruleset, house_rules)
    if problems:
        raise problems[0]
    return dataclasses.replace(ruleset, **changes)


def house_rule_problems(ruleset: Ruleset, house_rules: dict | None) -> list[HouseRuleError]:
    """Every key's problem, in the order apply_house_rules meets them, not only the first:
    a form marks each field at once. The rules that tie two keys together are checked once
    every key makes sense on its own."""
    return _parse(ruleset, house_rules)[1] if house_rules else []


def _parse(ruleset: Ruleset, house_rules) -> tuple[dict, list[HouseRuleError]]:
    if not isinstance(house_rules, dict):
        return {}, [
            HouseRuleError("", say("{key} must be an object of overrides", key="house_rules"))
        ]
    changes, problems = {}, []
    for key, value in house_rules.items():
        try:
            changes.update(_parse_key(ruleset, key, value))
        except HouseRuleError as error:
            problems.append(error)
    extras = changes.get("extra_attributes", ruleset.extra_attributes)
    for key in ATTRIBUTE_KEYS:
        if key in house_rules:
            try:
                changes[key] = _attribute_name(key, house_rules[key], ruleset, extras)
            except HouseRuleError as error:
                problems.append(error)
    if not problems:
        try:
            _check_together(ruleset, changes)
        except HouseRuleError as error:
            problems.append(error)
    return changes, problems


def _parse_key(ruleset: Ruleset, key, value) -> dict:
    """The Ruleset fields one house-rule key sets (none for an attribute key: _parse reads
    those once extra_attributes are known)."""
    match key:
        case (
            "attribute_levels"
            | "skill_levels"
            | "tokens"
            | "meta_points_start"
            | "min_faults"
            | "uncommitted_traits"
        ):
            return {key: _count(key, value)}
        case "max_lowered_skills" | "tokens_carried" | "meta_points_max" | "max_skills":
            return {key: _count(key, value, allow_none=True)}
        case "free_gifts" | "superpower_cost":
            return {key: _amount(key, value)}
        case "attribute_caps" | "skill_caps":
            return {key: _caps(key, value, ruleset.ladder)}
        case _ if key in BOOLEAN_KEYS:
            return {key: _boolean(key, value)}
        case _ if key in LEVEL_KEYS:
            return {key: _level(key, value, ruleset.ladder)}
        case _ if key in ATTRIBUTE_KEYS:
            return {}
        case "trade_values":
            return {key: _trade_values(key, value, ruleset.trade_values)}
        case "extra_attributes":
            return {key: _extra_attributes(key, value, ruleset.ladder)}
        case "advancement_costs":
            return {"advancement": _advancement_costs(key, value, ruleset)}
        case _:
            raise HouseRuleError(
                str(key),
                say("unknown house rule; known keys: {keys}", keys=", ".join(HOUSE_RULE_KEYS)),
            )


def _check_together(ruleset: Ruleset, changes: dict) -> None:
    """The rules that tie two keys together."""

    def value(key):
        return changes.get(key, getattr(ruleset, key))

    if value("meta_points_max") is not None and value("meta_points_start") > value(
        "meta_points_max"
    ):
        raise HouseRuleError(
            "meta_points_start", say("cannot be above {key}", key="meta_points_max")
        )
    # The other keys are values, not words of the template: a form names them by its labels.
    ladder = ruleset.ladder
    if value("creation_max") >= ladder.top_word_level:
        top = Level(ladder.top_word_level, ladder)
        raise HouseRuleError(
            "creation_max",
            say(
                "must be below {top}, not {level}: {key} allows {top}",
                top=top,
                level=Level(value("creation_max"), ladder),
                key="legendary_at_creation",
            ),
        )
    if value("creation_min") > value("creation_max"):
        raise HouseRuleError(
            "creation_min",
            say(
                "{level} is above {key} ({limit})",
                level=Level(value("creation_min"), ladder),
                key="creation_max",
                limit=Level(value("creation_max"), ladder),
            ),
        )


def house_rules_to_json(ruleset: Ruleset, base: Ruleset) -> dict:
    """The overrides that turn `base` into `ruleset`, in the file's JSON form."""
    out = {}
    for key in HOUSE_RULE_KEYS:
        if key == "advancement_costs":
            if ruleset.advancement != base.advancement:
                out[key] = _advancement_to_json(ruleset, base)
            continue
        value, original = getattr(ruleset, key), getattr(base, key)
        if value == original:
            continue
        if key in ("attribute_caps", "skill_caps"):
            value = {ruleset.word(level): n for level, n in sorted(value.items(), reverse=True)}
        elif key in LEVEL_KEYS:
            value = ruleset.word(value)
        elif key == "extra_attributes":
            value = [{"name": name, "default": ruleset.word(d)} for name, d in value]
        elif key == "trade_values":
            value = {k: json_number(v) for k, v in value.items()}
        elif isinstance(value, Fraction):
            value = json_number(value)
        out[key] = value
    return out


def json_number(value):
    """A Fraction as JSON: an int when whole, else a float (0.5)."""
    value = Fraction(value)
    return int(value) if value.denominator == 1 else float(value)
