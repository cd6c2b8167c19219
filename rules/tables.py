"""Reference tables derived from a ruleset's data, for the landing page, the GM's forms and
the printed sheet: the same numbers the report prices with, never typed in twice."""

from dataclasses import dataclass

from rules.advancement import NotAvailable, raise_cost
from rules.house_rules import json_number
from rules.ladder import FAIR, TERRIBLE, card_rating, signed
from rules.rulesets import DIFFICULTIES, LEVELS, Ruleset
from rules.trades import amount


@dataclass(frozen=True)
class Row:
    label: str
    cells: tuple


def creation_levels(ruleset: Ruleset) -> range:
    """The levels a trait may start at, from the top: Superb to Terrible in Mudge, Great to
    Poor in Streamlined MicroFudged (house rules applied)."""
    return range(ruleset.creation_max, ruleset.creation_min - 1, -1)


def skill_cost_table(ruleset: Ruleset) -> tuple[tuple[str, ...], list[Row]]:
    """Mudge 1.62's "Cost of Skills" (by difficulty), or one column where difficulty does
    not matter: the skill levels (or tokens) a skill at each level creation allows costs."""
    levels = creation_levels(ruleset)
    if ruleset.skill_difficulties:
        header = tuple(d.replace("_", " ").title() for d in DIFFICULTIES)
        return header, [
            Row(
                f"{signed(lv)} {ruleset.word(lv)}",
                tuple(lv + ruleset.difficulty_costs[d] for d in DIFFICULTIES),
            )
            for lv in levels
        ]
    return ("Cost",), [
        Row(
            f"{signed(lv)} {ruleset.word(lv)}",
            ((lv - ruleset.skill_default) * ruleset.skill_cost,),
        )
        for lv in levels
    ]


def creation_cost_table(ruleset: Ruleset) -> tuple[str, tuple[str, ...], list[Row]]:
    """(caption, header, rows): what a trait costs at each level creation allows, in the
    numbers in force. Levels rulesets: skills, by difficulty (attributes have their own
    unit); token rulesets: fields of expertise and abilities side by side, in tokens."""
    header, rows = skill_cost_table(ruleset)
    if ruleset.system == LEVELS:
        terms = ruleset.terms
        return f"Cost of {terms.plural('skills')}, in {terms.cost_unit}s", header, rows
    attributes = attribute_cost_table(ruleset)
    return (
        "Cost at creation, in tokens",
        (ruleset.terms.title("skills"), ruleset.terms.title("attributes")),
        [
            Row(row.label, (*row.cells, ability.cells[0]))
            for row, ability in zip(rows, attributes, strict=True)
        ],
    )


def attribute_cost_table(ruleset: Ruleset) -> list[Row]:
    """Mudge 1.61: +3 Superb ... -3 Terrible, in attribute levels (or tokens: Streamlined
    MicroFudged's abilities, 3 a rank from Fair)."""
    return [
        Row(ruleset.word(lv), ((lv - ruleset.attribute_default) * ruleset.attribute_cost,))
        for lv in creation_levels(ruleset)
    ]


def describe_rules(r: Ruleset) -> str:
    """The ruleset in one sentence, from the numbers in force (house rules applied)."""
    attributes, skills = r.terms.plural("attributes"), r.terms.plural("skills")
    named = f"{len(r.attribute_names)} {attributes}" if r.attribute_names else attributes
    if r.system == LEVELS:
        tv, terms = r.trade_values, r.terms
        attribute_level = terms.pool_noun("attributes", 1)
        gift, fault = terms.noun("gifts"), terms.noun("faults")
        priced = (
            "priced by difficulty" if r.skill_difficulties else f"from {r.word(r.skill_default)}"
        )
        return (
            f"{named.capitalize()} from {r.word(r.attribute_default)} with "
            f"{r.attribute_levels} free {terms.pool_noun('attributes', r.attribute_levels)}; "
            f"{amount(r.skill_levels, 'skills', terms)}, {skills} {priced}; "
            f"{json_number(r.free_gifts)} free {terms.pool_noun('gifts', r.free_gifts)}; "
            f"trades: 1 {attribute_level} = {amount(tv['attribute'], 'skills', terms)}, "
            f"1 {gift} = {json_number(tv['gift'])}, 1 {fault} = {json_number(tv['fault'])}."
        )
    parts = [amount(r.tokens, "tokens")]
    if r.power_levels:
        parts[0] += f" (power levels {', '.join(map(str, r.power_levels))})"
    parts.append(
        f"{named} from {r.word(r.attribute_default)} at {_per_rank(r.attribute_cost)}, "
        f"{skills} from {r.word(r.skill_default)} at {_per_rank(r.skill_cost)}"
    )
    bounds = f"{r.word(r.creation_min)} or above {r.word(r.creation_max)}"
    parts.append(f"nothing below {bounds}")
    if r.must_spend_and_save:
        parts.append("spend at least one token and save at least one for play")
    if r.tokens_carried is not None:
        parts.append(f"at most {amount(r.tokens_carried, 'tokens')} carried into play")
    return "; ".join(parts) + "."


def _per_rank(cost: int) -> str:
    return f"{amount(cost, 'tokens')} a rank"


def ladder_table(ruleset: Ruleset) -> list[Row]:
    """The trait ladder with each level's modifier, and MicroFudged's card rating."""
    return [
        Row(ruleset.word(lv), (signed(lv - FAIR), card_rating(lv)))
        for lv in range(ruleset.ladder.top_word_level, ruleset.ladder_bottom - 1, -1)
    ]


def experience_table(ruleset: Ruleset) -> list[Row]:
    """Raising a skill (and an attribute) one level, from each level (Mudge 5.2 and kin)."""
    rows = []
    for lv in range(max(TERRIBLE, ruleset.ladder.bottom), ruleset.ladder.top_word_level + 2):
        try:
            skill = raise_cost(ruleset, "skill", lv)
            attribute = raise_cost(ruleset, "attribute", lv)
        except NotAvailable:
            break
        rows.append(
            Row(
                f"{ruleset.word(lv)} → {ruleset.word(lv + 1)}",
                (skill.amount, attribute.amount, skill.needs_gm_permission),
            )
        )
    return rows
