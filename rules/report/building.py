"""Building the report: the creation build priced by the ruleset's system, with an experience
ledger undone first and checked on its own, and the unknown fields warned of."""

import dataclasses

from rules import ledger
from rules.character import Character
from rules.derived import derived_values, values_by_key
from rules.prerequisites import broken_prerequisites
from rules.report.issues import Issue, Report
from rules.report.levels import LevelsPricing
from rules.report.tokens import TokensPricing
from rules.rulesets import LEVELS, Ruleset
from rules.words import GameWords, Phrase, say, say_plural

# What an NPC built without a budget is not held to (Character.without_budget): the budget's
# verdicts and the creation limits that share the budget out (caps, counts, lowered skills,
# tokens spent and saved, starting meta points). Its traits are still priced, and the
# ladder and Scale still bound them (rules.report.traits).
BUDGET_CODES = frozenset(
    {
        "over_budget",
        "levels_unspent",
        "lowered_with_levels_unspent",
        "too_many_lowered",
        "cap_exceeded",
        "cap_slots_traded",
        "must_spend_token",
        "must_save_token",
        "tokens_lost",
        "too_many_skills",
        "too_few_faults",
        "meta_points_out_of_range",
    }
)


def build_report(character: Character, ruleset: Ruleset, ignored_fields=()) -> Report:
    """The creation build priced and checked; with an experience ledger, the creation build
    is the character with every spend undone, and the ledger is checked on its own."""
    if character.advancement is None:
        report = _price(character, ruleset)
    else:
        report = _price_with_ledger(character, ruleset)
    if character.without_budget:
        report.errors = [i for i in report.errors if i.code not in BUDGET_CODES]
        report.warnings = [i for i in report.warnings if i.code not in BUDGET_CODES]
        report.trades = []
    _check_game_parts(report, character, ruleset)
    for path in ignored_fields:
        report.warnings.append(
            Issue(
                "unknown_field",
                say(
                    "'{path}' is not a field of the character file and was ignored; check its "
                    "spelling (docs/character-file.md).",
                    path=path,
                ),
                "Fairsheet character file",
                where=path,
            )
        )
    return report


class _Check(LevelsPricing, TokensPricing):
    """A character's build checked against a ruleset, priced by the ruleset's system."""


def _price(character: Character, ruleset: Ruleset) -> Report:
    check = _Check(character, ruleset)
    return check.price_levels() if ruleset.system == LEVELS else check.price_tokens()


def _price_with_ledger(character: Character, ruleset: Ruleset) -> Report:
    undone = ledger.creation_build(character, ruleset)
    report = _price(undone.character, ruleset)
    # The creation build's rows, named by where they stand now (the builder marks and
    # prices current rows); a row bought in play costs nothing against creation.
    report.costs = {
        name: _costs_now(costs, undone.positions.get(name), len(getattr(character, name)))
        for name, costs in report.costs.items()
    }
    report.errors = [_where_now(i, undone.positions) for i in report.errors]
    report.warnings = [_where_now(i, undone.positions) for i in report.warnings]
    ledger_issues = undone.issues + ledger.check_ledger(
        character, ruleset, creation_balance=report.balance
    )
    for issue in ledger_issues:
        found = Issue(issue.code, issue.phrase, issue.section, where=issue.where)
        (report.warnings if issue.warning else report.errors).append(found)
    report.advancement = ledger.summarize(character, ruleset)
    return report


def _costs_now(costs, positions, length):
    if positions is None:
        return costs
    now = [0] * length
    for cost, at in zip(costs, positions, strict=False):
        if at is not None:
            now[at] = cost
    return now


def _where_now(issue: Issue, positions) -> Issue:
    """An issue's row in the creation build, as the current lists number it (no row for a
    fault bought off since)."""
    if not issue.where or "[" not in issue.where:
        return issue
    name, _, rest = issue.where.partition("[")
    index = rest.rstrip("]")
    if name not in positions or not index.isdigit() or int(index) >= len(positions[name]):
        return issue
    at = positions[name][int(index)]
    return dataclasses.replace(issue, where=None if at is None else f"{name}[{at}]")


def scale_notes(character: Character, ruleset: Ruleset) -> list[str]:
    """scale_phrases in English."""
    return [str(note) for note in scale_phrases(character, ruleset)]


def scale_phrases(character: Character, ruleset: Ruleset) -> list[Phrase]:
    """How Strength and Mass Scale move the budget, in words for the budget panel and the
    GM's review (Mudge 2.34): what a step costs or, below 0, whether it gives anything
    back. Empty where the ruleset has no Scale or the character is at Scale 0."""
    if not ruleset.has_scale:
        return []
    section, notes = ruleset.section("scale"), []
    strength, mass = character.scale_strength, character.scale_mass
    refund = ruleset.negative_scale_refund
    # One sentence each, whole: another language orders its words otherwise.
    if strength > 0:
        notes.append(
            say_plural(
                "Strength Scale +{scale} costs {steps} attribute level ({section}).",
                "Strength Scale +{scale} costs {steps} attribute levels ({section}).",
                strength,
                scale=strength,
                steps=strength,
                section=section,
            )
        )
    elif strength < 0 and refund:
        notes.append(
            say_plural(
                "Strength Scale {scale} gives back {steps} attribute level, by house rule "
                "({section}).",
                "Strength Scale {scale} gives back {steps} attribute levels, by house rule "
                "({section}).",
                -strength,
                scale=strength,
                steps=-strength,
                section=section,
            )
        )
    elif strength < 0:
        notes.append(
            say(
                "Strength Scale {scale} gives nothing back: only if the GM allows it "
                "({section}); a race taken as a fault is priced as that fault.",
                scale=strength,
                section=section,
            )
        )
    if mass > 0:
        notes.append(
            say_plural(
                "Mass Scale +{scale} costs {steps} gift ({section}).",
                "Mass Scale +{scale} costs {steps} gifts ({section}).",
                mass,
                scale=mass,
                steps=mass,
                section=section,
            )
        )
    elif mass < 0 and refund:
        notes.append(
            say_plural(
                "Mass Scale {scale} counts as a fault (Easily Wounded) for each of {steps} "
                "step, by house rule ({section}).",
                "Mass Scale {scale} counts as a fault (Easily Wounded) for each of {steps} "
                "steps, by house rule ({section}).",
                -mass,
                scale=mass,
                steps=-mass,
                section=section,
            )
        )
    elif mass < 0:
        notes.append(
            say(
                "Mass Scale {scale} gives nothing back: only if the GM allows it "
                "({section}); a race taken as a fault is priced as that fault.",
                scale=mass,
                section=section,
            )
        )
    return notes


def ruleset_attributes(character: Character, ruleset: Ruleset) -> list[tuple[str, int]]:
    """(name, default) of every attribute the ruleset gives this character: its fixed list,
    the attributes its gifts open (Mana with Magery, Psyche with Psionic: Mudge 2.5, 2.7),
    the GM's extra attributes."""
    r = ruleset
    attributes = [(name, r.attribute_default) for name in r.attribute_names or ()]
    attributes += [
        (attribute, r.attribute_default)
        for gift, attribute in r.attribute_gifts.items()
        if character.has_gift(gift)
    ]
    return attributes + list(r.extra_attributes)


def _check_game_parts(report: Report, character: Character, ruleset: Ruleset) -> None:
    """A designed game's derived values on the report, and its prerequisites checked on the
    character as it stands (an NPC too: they are the game's rules, not its budget)."""
    report.derived = derived_values(ruleset, character)
    for broken in broken_prerequisites(
        character, ruleset.prerequisites, values_by_key(report.derived)
    ):
        prerequisite = broken.prerequisite
        report.errors.append(
            Issue(
                "prerequisite_unmet",
                say(
                    "{message}", message=GameWords(prerequisite.message, prerequisite.translations)
                ),
                prerequisite.section or ruleset.section("prerequisites"),
                trait=broken.trait,
                where=broken.where,
            )
        )
