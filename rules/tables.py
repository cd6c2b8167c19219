"""Reference tables derived from a ruleset's data, for the landing page, the GM's forms and
the printed sheet: the same numbers the report prices with, never typed in twice."""

from dataclasses import dataclass

from rules.advancement import NotAvailable, raise_cost
from rules.ladder import FAIR, LEGENDARY, SUPERB, TERRIBLE, card_rating, level_name, signed
from rules.rulesets import DIFFICULTIES, LEVELS, MUDGE_SKILL_FAIR_COST, Ruleset


@dataclass(frozen=True)
class Row:
    label: str
    cells: tuple


def skill_cost_table(ruleset: Ruleset) -> tuple[tuple[str, ...], list[Row]]:
    """Mudge 1.62's "Cost of Skills" (by difficulty), or one column where difficulty does
    not matter: the skill levels (or tokens) a skill at each level costs at creation."""
    levels = range(SUPERB, TERRIBLE - 1, -1)
    if ruleset.skill_difficulties:
        header = tuple(d.replace("_", " ").title() for d in DIFFICULTIES)
        return header, [
            Row(
                f"{signed(lv)} {level_name(lv)}",
                tuple(lv + MUDGE_SKILL_FAIR_COST[d] for d in DIFFICULTIES),
            )
            for lv in levels
        ]
    return ("Cost",), [
        Row(f"{signed(lv)} {level_name(lv)}", ((lv - ruleset.skill_default) * ruleset.skill_cost,))
        for lv in levels
    ]


def attribute_cost_table(ruleset: Ruleset) -> list[Row]:
    """Mudge 1.61: +3 Superb ... -3 Terrible, in attribute levels (or tokens)."""
    return [
        Row(level_name(lv), ((lv - ruleset.attribute_default) * ruleset.attribute_cost,))
        for lv in range(SUPERB, TERRIBLE - 1, -1)
    ]


def ladder_table(ruleset: Ruleset) -> list[Row]:
    """The trait ladder with each level's modifier, and MicroFudged's card rating."""
    bottom = TERRIBLE if ruleset.system == LEVELS else TERRIBLE - 1
    return [
        Row(level_name(lv), (signed(lv - FAIR), card_rating(lv)))
        for lv in range(LEGENDARY, bottom - 1, -1)
    ]


def experience_table(ruleset: Ruleset) -> list[Row]:
    """Raising a skill (and an attribute) one level, from each level (Mudge 5.2 and kin)."""
    rows = []
    for lv in range(TERRIBLE, LEGENDARY + 2):
        try:
            skill = raise_cost(ruleset, "skill", lv)
            attribute = raise_cost(ruleset, "attribute", lv)
        except NotAvailable:
            break
        rows.append(
            Row(
                f"{level_name(lv)} → {level_name(lv + 1)}",
                (skill.amount, attribute.amount, skill.needs_gm_permission),
            )
        )
    return rows
