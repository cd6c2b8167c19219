"""Reference tables derived from a ruleset's data, for the landing page, the GM's forms and
the printed sheet: the same numbers the report prices with, never typed in twice."""

from dataclasses import dataclass

from rules.advancement import NotAvailable, raise_cost
from rules.ladder import ABYSMAL, FAIR, TERRIBLE, card_rating, signed
from rules.rulesets import DIFFICULTIES, LEVELS, TOKENS, Ruleset
from rules.trades import amount_phrase
from rules.words import Level, Noun, Phrase, say


@dataclass(frozen=True)
class Row:
    label: str
    cells: tuple


def creation_levels(ruleset: Ruleset) -> range:
    """The levels a trait may start at, from the top: Superb to Terrible in Mudge, Great to
    Poor in Streamlined MicroFudged (house rules applied)."""
    return range(ruleset.creation_max, ruleset.creation_min - 1, -1)


def creation_choices(ruleset: Ruleset, list_name: str) -> range:
    """The levels a trait of `list_name` may start at, from the top, as the build report's
    bounds allow them (rules.report): up to creation_max (Mudge 1.6: Superb), or with
    legendary_at_creation through Legendary to three past it; down to creation_min (Mudge
    1.2: Terrible; DIP I: Poor), a field of power to Abysmal (DIP VIII.1) and a field of
    expertise to the lowest default one may keep (Streamlined: Science at Terrible)."""
    if ruleset.legendary_at_creation:
        top = ruleset.ladder.top_word_level + 3
    else:
        top = ruleset.creation_max
    bottom = ruleset.creation_min
    if ruleset.system == TOKENS and list_name == "powers":
        bottom = ABYSMAL
    elif ruleset.system == TOKENS and list_name == "skills":
        bottom = min(bottom, ruleset.skill_default, *ruleset.named_skill_defaults.values())
    return range(top, bottom - 1, -1)


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


def creation_cost_table(ruleset: Ruleset) -> tuple[Phrase, tuple[str, ...], list[Row]]:
    """(caption, header, rows): what a trait costs at each level creation allows, in the
    numbers in force. Levels rulesets: skills, by difficulty (attributes have their own
    unit); token rulesets: fields of expertise and abilities side by side, in tokens."""
    header, rows = skill_cost_table(ruleset)
    if ruleset.system == LEVELS:
        terms = ruleset.terms
        caption = say(
            "Cost of {skills}, in {units}",
            skills=terms.list_noun("skills", 2),
            units=Noun(terms.cost_unit, f"{terms.cost_unit}s", 2),
        )
        return caption, header, rows
    attributes = attribute_cost_table(ruleset)
    return (
        say("Cost at creation, in tokens"),
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
    return "; ".join(map(str, rules_summary(r))) + "."


def rules_summary(r: Ruleset) -> tuple[Phrase, ...]:
    """describe_rules' sentence as phrases (rules.words), its parts, for another language:
    joined with "; " and ended with a full stop."""
    terms = r.terms
    count = len(r.attribute_names) if r.attribute_names else 0
    skills = terms.list_noun("skills", 2)
    if count:
        named = say(
            "{count} {attributes}", count=count, attributes=terms.list_noun("attributes", 2)
        )
    else:
        named = terms.list_noun("attributes", 2, capital=r.system == LEVELS)
    if r.system == LEVELS:
        tv = r.trade_values
        if r.skill_difficulties:
            priced = say("priced by difficulty")
        else:
            priced = say("from {level}", level=Level(r.skill_default, r.ladder))
        return (
            say(
                "{attributes} from {default} with {levels} free {attribute_levels}",
                attributes=named,
                default=Level(r.attribute_default, r.ladder),
                levels=r.attribute_levels,
                attribute_levels=terms.pool_noun("attributes", r.attribute_levels),
            ),
            say(
                "{skill_levels}, {skills} {priced}",
                skill_levels=amount_phrase(r.skill_levels, "skills", terms),
                skills=skills,
                priced=priced,
            ),
            say(
                "{count} free {gifts}",
                count=r.free_gifts,
                gifts=terms.pool_noun("gifts", r.free_gifts),
            ),
            say(
                "trades: 1 {attribute_level} = {attribute_worth}, 1 {gift} = {gift_worth}, "
                "1 {fault} = {fault_worth}",
                attribute_level=terms.pool_noun("attributes", 1),
                attribute_worth=amount_phrase(tv["attribute"], "skills", terms),
                gift=terms.list_noun("gifts"),
                gift_worth=tv["gift"],
                fault=terms.list_noun("faults"),
                fault_worth=tv["fault"],
            ),
        )
    tokens = amount_phrase(r.tokens, "tokens")
    if r.power_levels:
        tokens = say(
            "{tokens} (power levels {levels})",
            tokens=tokens,
            levels=", ".join(map(str, r.power_levels)),
        )
    parts = [
        tokens,
        say(
            "{attributes} from {attribute_default} at {attribute_cost} a rank, {skills} from "
            "{skill_default} at {skill_cost} a rank",
            attributes=named,
            attribute_default=Level(r.attribute_default, r.ladder),
            attribute_cost=amount_phrase(r.attribute_cost, "tokens"),
            skills=skills,
            skill_default=Level(r.skill_default, r.ladder),
            skill_cost=amount_phrase(r.skill_cost, "tokens"),
        ),
        say(
            "nothing below {lowest} or above {highest}",
            lowest=Level(r.creation_min, r.ladder),
            highest=Level(r.creation_max, r.ladder),
        ),
    ]
    if r.must_spend_and_save:
        parts.append(say("spend at least one token and save at least one for play"))
    if r.tokens_carried is not None:
        parts.append(
            say(
                "at most {tokens} carried into play",
                tokens=amount_phrase(r.tokens_carried, "tokens"),
            )
        )
    return tuple(parts)


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
