"""What the rule pages and the campaign form say of each ruleset: budgets, caps and cost tables."""

import dataclasses
from dataclasses import dataclass

from django.db.models import Max
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, pgettext

from characters import knobs, vocabulary
from characters.models import DesignedRuleset
from characters.rules_content import rules_name
from characters.sheets import build_sheet, own_words
from characters.wording import SPEAKER, said
from rules import tables
from rules.character import Character, Fault, Gift, Trait
from rules.derived import DerivedValue
from rules.house_rules import json_number
from rules.ladder import LevelError
from rules.report import build_report
from rules.rulesets import BUILTIN, LEVELS, Ruleset, skill_default
from rules.trades import amount_phrase
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
    """A ruleset's budgets, label and value, in the reader's language (its own words as
    written)."""
    terms = r.terms
    if r.system == LEVELS:
        tv = r.trade_values
        rows = [
            (_noun(terms.pool_noun("attributes", 2), capital=True), str(r.attribute_levels)),
            (_noun(terms.pool_noun("skills", 2), capital=True), str(r.skill_levels)),
            (knobs.label(r, "free_gifts"), _number(json_number(r.free_gifts))),
            (
                knobs.label(r, "trade_values"),
                gettext(
                    "1 {attribute_level} = {attribute_worth}; 1 {gift} = {gift_worth}; "
                    "1 {fault} = {fault_worth}"
                ).format(
                    attribute_level=_noun(terms.pool_noun("attributes", 1)),
                    attribute_worth=said(amount_phrase(tv["attribute"], "skills", terms)),
                    gift=_noun(terms.list_noun("gifts")),
                    gift_worth=_number(json_number(tv["gift"])),
                    fault=_noun(terms.list_noun("faults")),
                    fault_worth=_number(json_number(tv["fault"])),
                ),
            ),
        ]
        if r.has_scale:
            refund = r.negative_scale_refund
            rows.append(
                (
                    gettext("Scale below 0"),
                    gettext("gives levels back") if refund else gettext("gives nothing back"),
                )
            )
        if terms.points:
            rows.append((knobs.label(r, "meta_points_start"), str(r.meta_points_start)))
        return [(_capitalised(label), value) for label, value in rows]
    rows = [(knobs.label(r, "tokens"), str(r.tokens))]
    if r.power_levels:
        rows.append((gettext("Power levels"), " / ".join(map(str, r.power_levels))))
    if r.attribute_cost != r.skill_cost:
        rows.append(
            (
                gettext("{attributes} cost").format(attributes=_title(r, "attributes")),
                gettext("{cost} a rank, from {level}").format(
                    cost=said(amount_phrase(r.attribute_cost, "tokens")),
                    level=_level(r, r.attribute_default),
                ),
            )
        )
    if r.tokens_carried is not None:
        rows.append(
            (
                knobs.label(r, "tokens_carried"),
                gettext("at most {count}").format(count=r.tokens_carried),
            )
        )
    if r.must_spend_and_save:
        rows.append((gettext("At creation"), gettext("spend at least 1 token, save at least 1")))
    return [(_capitalised(label), value) for label, value in rows]


def describe_caps(r: Ruleset) -> list[tuple[str, str]]:
    """A ruleset's caps and bounds, label and value, in the reader's language."""

    def caps(c):
        return ", ".join(f"{n} {_level(r, lv)}" for lv, n in sorted(c.items(), reverse=True))

    def at_most(c):
        if r.cap_trading:
            return gettext("at most {caps} (two lower for one higher)").format(caps=caps(c))
        return gettext("at most {caps}").format(caps=caps(c))

    rows = []
    if r.attribute_caps:
        rows.append((_title(r, "attributes"), at_most(r.attribute_caps)))
    if r.skill_caps:
        rows.append((_title(r, "skills"), at_most(r.skill_caps)))
    if r.max_skills is not None:
        rows.append(
            (
                knobs.label(r, "max_skills"),
                gettext("at most {count}").format(count=r.max_skills),
            )
        )
    if r.min_faults:
        rows.append((_title(r, "faults"), gettext("at least {count}").format(count=r.min_faults)))
    if r.max_lowered_skills is not None:
        rows.append(
            (
                knobs.label(r, "max_lowered_skills"),
                gettext("at most {count}, one level each").format(count=r.max_lowered_skills),
            )
        )
    levels = gettext("{lowest} to {highest}").format(
        lowest=_level(r, r.creation_min), highest=_level(r, r.creation_max)
    )
    if r.legendary_at_creation:
        top = _level(r, r.ladder.top_word_level)
        levels = gettext("{lowest} to {highest}, {top} allowed").format(
            lowest=_level(r, r.creation_min), highest=_level(r, r.creation_max), top=top
        )
    rows.append((gettext("Levels at creation"), levels))
    if r.uncommitted_traits:
        rows.append(
            (
                knobs.label(r, "uncommitted_traits"),
                gettext("{count}, defined in play at {level} or lower").format(
                    count=r.uncommitted_traits, level=_level(r, r.uncommitted_max)
                ),
            )
        )
    return [(_capitalised(label), value) for label, value in rows]


def summarize_ruleset(r: Ruleset) -> RulesetSummary:
    """What a page shows of a ruleset, in the reader's language: said when asked for, so
    each request gets its own (the ruleset's own words as written)."""
    caption, header, rows = tables.creation_cost_table(r)
    terms = r.terms
    pool = "attributes" if r.system == LEVELS else "tokens"
    return RulesetSummary(
        slug=r.slug,
        name=vocabulary.term(r.name, "ruleset"),
        summary=rules_in_a_line(r),
        ruleset=r,
        budgets=describe_budgets(r),
        caps=describe_caps(r),
        cost_caption=said(caption),
        cost_header=tuple(_heading(h) for h in header),
        cost_rows=[_row(r, row) for row in rows],
        attribute_caption=gettext("Cost of {attributes}, in {units}").format(
            attributes=_noun(terms.list_noun("attributes", 2)),
            units=_noun(terms.pool_noun(pool, 2)),
        ),
        attribute_rows=[_row(r, row) for row in tables.attribute_cost_table(r)],
        experience_rows=[_row(r, row) for row in tables.experience_table(r)],
        experience_unit=(
            vocabulary.term(r.advancement.unit, "experience unit") if r.advancement else ""
        ),
        experience_header=(
            _noun(terms.list_noun("skills"), capital=True),
            _noun(terms.list_noun("attributes"), capital=True),
            vocabulary.term(terms.gm, "game master"),
        ),
    )


def rules_in_a_line(r: Ruleset) -> str:
    """The ruleset's rules at a glance, in one sentence of the reader's language."""
    return pgettext("list separator", "; ").join(said(p) for p in tables.rules_summary(r)) + "."


def _noun(noun: Noun, capital: bool = False) -> str:
    return SPEAKER.noun(dataclasses.replace(noun, capital=capital))


def _title(r: Ruleset, list_name: str) -> str:
    return vocabulary.term(r.terms.title(list_name), "list title")


def _level(r: Ruleset, level: int) -> str:
    return SPEAKER.level(Level(level, r.ladder))


def _number(value) -> str:
    return SPEAKER.number(value)


def _capitalised(word: str) -> str:
    return word[:1].upper() + word[1:]


def _heading(text: str) -> str:
    """A cost table's column: a difficulty ("Very Hard"), a list's title, or "Cost"."""
    if text == "Cost":
        return gettext("Cost")
    return vocabulary.term(vocabulary.term(text, "difficulty"), "list title")


def _row(r: Ruleset, row: tables.Row) -> tables.Row:
    """A table's row with its level words in the reader's language: "Good", "+1 Good",
    "Fair → Good"."""
    words = []
    for part in row.label.split(" → "):
        sign, _, word = part.rpartition(" ")
        said_word = _level_word(word, r)
        words.append(f"{sign} {said_word}" if sign else said_word)
    return tables.Row(" → ".join(words), row.cells)


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
    # The game's derived values for the sample: (name, its value or why it has none)
    derived: list[tuple[str, str]] = dataclasses.field(default_factory=list)


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
        return [
            (rules_name(row.name), _level_word(row.level, ruleset), row.rating) for row in traits
        ]

    return DesignPreview(
        character,
        built.to_json(SPEAKER),
        sheet,
        SPEAKER.noun(unit),
        rows(sheet.attributes),
        rows(sheet.skills),
        [
            (own_words(v.derived.name, v.derived.translations), _derived_value(v))
            for v in built.derived
        ],
    )


def _derived_value(value: DerivedValue) -> str:
    return _number(value.value) if value.problem is None else said(value.problem)


def _level_word(word: str, ruleset: Ruleset) -> str:
    """A sheet's level word in the reader's language (a GM's own ladder as written)."""
    try:
        return SPEAKER.level(Level(ruleset.ladder.parse(word), ruleset.ladder))
    except LevelError:
        return word
