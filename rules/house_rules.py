"""House rules: a campaign's overrides of a ruleset's numbers (spec: character-file.md).

`apply_house_rules` returns a new Ruleset or raises HouseRuleError naming the key and what
is wrong with it, so a GM's form and the check command give the same message.
"""

import dataclasses
import math
from fractions import Fraction

from rules.ladder import LevelError, level_name, parse_level
from rules.rulesets import Ruleset

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
}
TRADE_KEYS = ("attribute", "gift", "fault")
# Fix: an unbounded number (JSON allows 4,300 digits) made the report overflow a float or
# Python's int-to-text limit. A million of anything is far past any campaign.
MAX_NUMBER = 1_000_000


class HouseRuleError(ValueError):
    def __init__(self, key: str, message: str):
        super().__init__(f"house_rules.{key}: {message}")
        self.key = key
        self.message = message  # Fix: without the key, for CharacterFileError's `where`


def _count(key, value, *, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise HouseRuleError(key, f"must be a whole number, not {value!r}")
    if value < 0:
        raise HouseRuleError(key, f"cannot be negative ({value})")
    if value > MAX_NUMBER:  # Fix: see MAX_NUMBER
        raise HouseRuleError(key, f"cannot be above {MAX_NUMBER:,} ({value})")
    return value


def _amount(key, value, *, positive=False):
    """A number that may be a half (a half-value fault, half a gift)."""
    # Fix: JSON's NaN and Infinity are floats too; Fraction() raised ValueError/OverflowError.
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or (isinstance(value, float) and not math.isfinite(value))
    ):
        raise HouseRuleError(key, f"must be a number, not {value!r}")
    amount = Fraction(value).limit_denominator(100)
    if amount < 0 or (positive and amount == 0):
        raise HouseRuleError(key, f"must be {'above' if positive else 'at least'} zero ({value})")
    if amount > MAX_NUMBER:  # Fix: see MAX_NUMBER
        raise HouseRuleError(key, f"cannot be above {MAX_NUMBER:,} ({value})")
    return amount


def _caps(key, value):
    if not isinstance(value, dict):
        raise HouseRuleError(key, 'must map level words to counts, e.g. {"Superb": 1}')
    caps = {}
    for word, limit in value.items():
        try:
            level = parse_level(word)
        except LevelError as error:
            raise HouseRuleError(key, str(error)) from None
        caps[level] = _count(f"{key}.{word}", limit)
    return caps


def _extra_attributes(key, value):
    if not isinstance(value, list):
        raise HouseRuleError(key, 'must be a list of {"name": ..., "default": "Fair"}')
    extras = []
    for index, item in enumerate(value):
        where = f"{key}[{index}]"
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            raise HouseRuleError(where, 'must be {"name": ..., "default": "Fair"}')
        name = item["name"].strip()
        if not name or len(name) > 100:
            raise HouseRuleError(where, "needs a name of 1 to 100 characters")
        try:
            default = parse_level(item.get("default", "Fair"))
        except LevelError as error:
            raise HouseRuleError(where, str(error)) from None
        extras.append((name, default))
    return tuple(extras)


def _trade_values(key, value, current):
    if not isinstance(value, dict):
        raise HouseRuleError(key, 'must be like {"attribute": 3, "gift": 6, "fault": 6}')
    unknown = set(value) - set(TRADE_KEYS)
    if unknown:
        raise HouseRuleError(
            key, f"unknown key {sorted(unknown)[0]!r}: use {', '.join(TRADE_KEYS)}"
        )
    return {**current, **{k: _amount(f"{key}.{k}", v, positive=True) for k, v in value.items()}}


def apply_house_rules(ruleset: Ruleset, house_rules: dict | None) -> Ruleset:
    if not house_rules:
        return ruleset
    if not isinstance(house_rules, dict):
        raise HouseRuleError("", "house_rules must be an object of overrides")
    changes = {}
    for key, value in house_rules.items():
        match key:
            case "attribute_levels" | "skill_levels" | "tokens" | "meta_points_start":
                changes[key] = _count(key, value)
            case "max_lowered_skills" | "tokens_carried" | "meta_points_max":
                changes[key] = _count(key, value, allow_none=True)
            case "free_gifts" | "superpower_cost":
                changes[key] = _amount(key, value)
            case "attribute_caps" | "skill_caps":
                changes[key] = _caps(key, value)
            case "legendary_at_creation":
                if not isinstance(value, bool):
                    raise HouseRuleError(key, f"must be true or false, not {value!r}")
                changes[key] = value
            case "trade_values":
                changes[key] = _trade_values(key, value, ruleset.trade_values)
            case "extra_attributes":
                changes[key] = _extra_attributes(key, value)
            case _:
                raise HouseRuleError(
                    str(key), f"unknown house rule; known keys: {', '.join(HOUSE_RULE_KEYS)}"
                )
    if changes.get("meta_points_max", ruleset.meta_points_max) is not None and changes.get(
        "meta_points_start", ruleset.meta_points_start
    ) > changes.get("meta_points_max", ruleset.meta_points_max):
        raise HouseRuleError("meta_points_start", "cannot be above meta_points_max")
    return dataclasses.replace(ruleset, **changes)


def house_rules_to_json(ruleset: Ruleset, base: Ruleset) -> dict:
    """The overrides that turn `base` into `ruleset`, in the file's JSON form."""
    out = {}
    for key in HOUSE_RULE_KEYS:
        value, original = getattr(ruleset, key), getattr(base, key)
        if value == original:
            continue
        if key in ("attribute_caps", "skill_caps"):
            value = {level_name(level): n for level, n in sorted(value.items(), reverse=True)}
        elif key == "extra_attributes":
            value = [{"name": name, "default": level_name(d)} for name, d in value]
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
