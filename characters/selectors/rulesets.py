"""What the rule pages and the campaign form say of each ruleset: budgets, caps and cost tables."""

from dataclasses import dataclass

from django.db.models import Max
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from characters.models import DesignedRuleset
from characters.sheets import build_sheet
from characters.wording import SPEAKER
from rules import tables
from rules.character import Character, Fault, Gift, Trait
from rules.house_rules import json_number
from rules.ladder import LevelError
from rules.report import amount, build_report
from rules.rulesets import BUILTIN, LEVELS, Ruleset, skill_default
from rules.words import Level, Noun, plural_count


@dataclass(frozen=True)
class RulesetSummary:
    slug: str
    name: str
    summary: str
    ruleset: Ruleset
    budgets: list[tuple[str, str]]
    caps: list[tuple[str, str]]
    cost_caption: str
    cost_header: tuple[str, ...]
    cost_rows: list
    attribute_caption: str
    attribute_rows: list
    experience_rows: list
    experience_unit: str
    # The experience table's columns in the ruleset's words: ("Skill", "Attribute", "GM")
    experience_header: tuple[str, str, str] = ("Skill", "Attribute", "GM")


def describe_budgets(r: Ruleset) -> list[tuple[str, str]]:
    if r.system == LEVELS:
        tv, terms = r.trade_values, r.terms
        attribute_level, attribute_levels = terms.pool_words("attributes")
        rows = [
            (attribute_levels.capitalize(), str(r.attribute_levels)),
            (terms.pool_words("skills")[1].capitalize(), str(r.skill_levels)),
            (f"Free {terms.plural('gifts')}", str(json_number(r.free_gifts))),
            (
                "Trade values",
                f"1 {attribute_level} = {amount(tv['attribute'], 'skills', terms)}; "
                f"1 {terms.noun('gifts')} = {json_number(tv['gift'])}; "
                f"1 {terms.noun('faults')} = {json_number(tv['fault'])}",
            ),
        ]
        if r.has_scale:
            rows.append(
                (
                    "Scale below 0",
                    "gives levels back" if r.negative_scale_refund else "gives nothing back",
                )
            )
        if r.terms.points:
            rows.append((f"{r.terms.points.capitalize()} at start", str(r.meta_points_start)))
        return rows
    rows = [("Tokens", str(r.tokens))]
    if r.power_levels:
        rows.append(("Power levels", " / ".join(map(str, r.power_levels))))
    if r.attribute_cost != r.skill_cost:
        rows.append(
            (
                f"{r.terms.title('attributes')} cost",
                f"{amount(r.attribute_cost, 'tokens')} a rank, from {r.word(r.attribute_default)}",
            )
        )
    if r.tokens_carried is not None:
        rows.append(("Tokens carried into play", f"at most {r.tokens_carried}"))
    if r.must_spend_and_save:
        rows.append(("At creation", "spend at least 1 token, save at least 1"))
    return rows


def describe_caps(r: Ruleset) -> list[tuple[str, str]]:
    def caps(c):
        return ", ".join(f"{n} {r.word(lv)}" for lv, n in sorted(c.items(), reverse=True))

    traded = " (two lower for one higher)" if r.cap_trading else ""
    rows = []
    if r.attribute_caps:
        rows.append((r.terms.title("attributes"), f"at most {caps(r.attribute_caps)}{traded}"))
    if r.skill_caps:
        rows.append((r.terms.title("skills"), f"at most {caps(r.skill_caps)}{traded}"))
    if r.max_skills is not None:
        rows.append((f"Number of {r.terms.plural('skills')}", f"at most {r.max_skills}"))
    if r.min_faults:
        rows.append((r.terms.title("faults"), f"at least {r.min_faults}"))
    if r.max_lowered_skills is not None:
        rows.append(
            (
                f"Lowered {r.terms.plural('skills')}",
                f"at most {r.max_lowered_skills}, one level each",
            )
        )
    top = r.ladder.words[-1]
    rows.append(
        (
            "Levels at creation",
            f"{r.word(r.creation_min)} to {r.word(r.creation_max)}"
            + ("" if not r.legendary_at_creation else f", {top} allowed"),
        )
    )
    if r.uncommitted_traits:
        rows.append(
            (
                "Uncommitted traits",
                f"{r.uncommitted_traits}, defined in play at {r.word(r.uncommitted_max)} or lower",
            )
        )
    return rows


def summarize_ruleset(r: Ruleset) -> RulesetSummary:
    caption, header, rows = tables.creation_cost_table(r)
    return RulesetSummary(
        slug=r.slug,
        name=r.name,
        summary=tables.describe_rules(r),
        ruleset=r,
        budgets=describe_budgets(r),
        caps=describe_caps(r),
        cost_caption=caption,
        cost_header=header,
        cost_rows=rows,
        attribute_caption=(
            f"Cost of {r.terms.plural('attributes')}, in "
            f"{r.terms.pool_words('attributes' if r.system == LEVELS else 'tokens')[1]}"
        ),
        attribute_rows=tables.attribute_cost_table(r),
        experience_rows=tables.experience_table(r),
        experience_unit=r.advancement.unit if r.advancement else "",
        experience_header=(
            r.terms.noun("skills").capitalize(),
            r.terms.noun("attributes").capitalize(),
            r.terms.gm,
        ),
    )


def ruleset_summaries() -> tuple[RulesetSummary, ...]:
    # Described on each call (0.4 ms for four): a ruleset added to BUILTIN shows at once.
    return tuple(summarize_ruleset(r) for r in BUILTIN.values())


# -- designed rulesets ----------------------------------------------------------------------


def designed_rulesets_of(user):
    """The rulesets `user` designed, each with its versions' count and latest number."""
    return (
        DesignedRuleset.objects.filter(owner=user)
        .annotate(latest_number=Max("versions__number"))
        .order_by("name", "pk")
    )


def designed_for_owner(user, pk) -> DesignedRuleset:
    """One of `user`'s designed rulesets; a 404 for anyone else's, as campaigns are."""
    return get_object_or_404(DesignedRuleset.objects.filter(owner=user), pk=pk)


@dataclass(frozen=True)
class DesignPreview:
    """A sample character priced under a design, and the sheet it prints, in the reader's
    language: the report's messages, its unit for the balance, each row's level word."""

    character: Character
    report: dict
    sheet: object  # characters.sheets.Sheet
    unit: str  # the balance's unit, for its count: "skill levels", "tokens"
    attributes: list[tuple[str, str, str]]  # (name, level, rating)
    skills: list[tuple[str, str, str]]


def sample_character(ruleset: Ruleset) -> Character:
    """A character anyone might build first: the first attribute a level up, three skills
    two levels above their default, a gift and a fault when the game has them."""
    attributes = ruleset.attribute_names or ruleset.catalog.attributes or ("Body",)
    skill_names = [s.name for s in ruleset.catalog.skills[:3]] or ["Climbing", "Riding"]
    return Character(
        ruleset=ruleset.slug,
        name=gettext("Sample character"),
        attributes=tuple(
            Trait(name, ruleset.attribute_default + (index == 0))
            for index, name in enumerate(attributes)
        ),
        skills=tuple(
            Trait(name, min(skill_default(ruleset, name, None) or 0, 0) + 2) for name in skill_names
        ),
        gifts=tuple(Gift(g.name) for g in ruleset.catalog.gifts[:1])
        if ruleset.gifts_and_faults
        else (),
        faults=tuple(Fault(f.name) for f in ruleset.catalog.faults[:1])
        if ruleset.gifts_and_faults
        else (),
    )


def design_preview(ruleset: Ruleset) -> DesignPreview:
    character = sample_character(ruleset)
    built = build_report(character, ruleset)
    sheet = build_sheet(character, ruleset)
    count = plural_count(built.balance)
    if count == 1 and built.balance != 1:  # English says "-1 skill levels", as it always has
        count = 2
    unit = Noun(built.unit, f"{built.unit}s", count)

    def rows(traits):
        return [(row.name, _level_word(row.level, ruleset), row.rating) for row in traits]

    return DesignPreview(
        character,
        built.to_json(SPEAKER),
        sheet,
        SPEAKER.noun(unit),
        rows(sheet.attributes),
        rows(sheet.skills),
    )


def _level_word(word: str, ruleset: Ruleset) -> str:
    """A sheet's level word in the reader's language (a GM's own ladder as written)."""
    try:
        return SPEAKER.level(Level(ruleset.ladder.parse(word), ruleset.ladder))
    except LevelError:
        return word
