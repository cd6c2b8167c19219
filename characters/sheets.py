"""The character sheet as plain values, for templates/sheets/sheet.html on screen and on paper.

`build_sheet` takes the engine's Character and Ruleset, the approval (or None) and the
experience ledger, and touches no database: `render_sheet` prints character files with it.
`sheet_for_character` gathers those inputs for a stored character.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from characters import adapters
from characters.models import Character as CharacterModel
from characters.services.review import approval_summary
from rules import combat, tables
from rules.character import Character, Equipment, Trait
from rules.house_rules import json_number
from rules.ladder import card_rating, level_name, signed
from rules.report import build_report, power_potential
from rules.rulesets import LEVELS, TOKENS, Ruleset

DIFFICULTY_MARKS = {"easy": "*", "average": "", "hard": "**", "very_hard": "***"}
NOT_APPROVED = "draft - not approved"
KEY_TRAITS = 3  # on the campaign pack's party summary


def _percent(chance: Fraction) -> str:
    return f"{float(chance) * 100:.1f}%"


# Fudge Basics, "Odds of Rolling Exactly on 4dF", shown beside the dice roller.
DICE_ODDS = tuple((signed(r), _percent(e), _percent(h)) for r, e, h in combat.fudge_dice_odds())


@dataclass(frozen=True)
class ApprovalStamp:
    """What the GM approved: the SHA-256 of the approved character file, and the approval
    in words (services.review.approval_summary), with the GM's reason for an override:
    "approved over budget by 2 skill levels: a veteran of the siege"."""

    sha256: str
    summary: str = "approved"

    @property
    def line(self) -> str:
        text = f"Approved · SHA-256 {self.sha256}"
        return text if self.summary == "approved" else f"{text} · {self.summary}"


@dataclass(frozen=True)
class LedgerRow:
    day: date
    amount: int
    reason: str
    pending: bool = False


@dataclass(frozen=True)
class TraitRow:
    name: str
    level: str  # the ladder word: "Good", "Legendary+1"; "" for a power with no level
    modifier: int  # what the level adds to a 4dF roll: the dice roller's starting point
    rating: str  # printed after the level: the modifier ("+1") or the cards ("4 cards")
    mark: str = ""  # Mudge difficulty: "*" easy, "**" hard, "***" very hard
    note: str = ""  # "Scale -2", "default", "spell", "potential 3"


@dataclass(frozen=True)
class ListedItem:
    name: str
    note: str = ""


@dataclass(frozen=True)
class FactorRow:
    label: str
    terms: tuple[tuple[str, int], ...]
    total: str  # signed, as the printed sheet writes it: "+1", "0", "-2"
    open_term: str = ""


@dataclass(frozen=True)
class WoundRow:
    name: str
    damage: str
    penalty: str  # "-1", or "" for no penalty
    boxes: range


@dataclass(frozen=True)
class ReferenceRow:
    level: str
    cells: tuple  # the roll modifier, MicroFudged's cards, then the costs of a skill


@dataclass(frozen=True)
class Sheet:
    name: str
    player: str
    race: str
    concept: str
    ruleset_name: str
    uses_tokens: bool
    facts: tuple[tuple[str, str], ...]
    attributes_title: str
    attributes: tuple[TraitRow, ...]
    skills_title: str
    skill_marks: str  # the legend for TraitRow.mark, or "" where difficulty does not matter
    skills: tuple[TraitRow, ...]
    gifts: tuple[ListedItem, ...]
    faults: tuple[ListedItem, ...]
    powers_title: str
    powers: tuple[TraitRow, ...]
    offensive: tuple[FactorRow, ...]
    defensive: tuple[FactorRow, ...]
    wounds: tuple[WoundRow, ...]
    equipment: tuple[ListedItem, ...]
    reference_header: tuple[str, ...]
    reference: tuple[ReferenceRow, ...]
    personality: tuple[tuple[str, str], ...]
    notes: str
    approval: ApprovalStamp | None
    ledger: tuple[LedgerRow, ...]
    experience_unit: str
    key_traits: str  # the best few traits, for the campaign pack's party summary

    @property
    def approval_line(self) -> str:
        return self.approval.line if self.approval else NOT_APPROVED

    @property
    def ledger_total(self) -> int:
        return sum(row.amount for row in self.ledger if not row.pending)


def build_sheet(
    character: Character,
    ruleset: Ruleset,
    approval: ApprovalStamp | None = None,
    ledger: Iterable[LedgerRow] = (),
) -> Sheet:
    tokens = ruleset.system == TOKENS
    report = build_report(character, ruleset)
    factors = combat.damage_factors(character, ruleset)
    reference_header, reference = _reference(ruleset, tokens)
    attributes = _attributes(character, ruleset, tokens)
    skills = tuple(_skill(t, ruleset, tokens) for t in character.skills)
    return Sheet(
        name=character.name,
        player=character.player,
        race=character.race,
        concept=character.concept,
        ruleset_name=ruleset.name,
        uses_tokens=tokens,
        facts=_facts(character, ruleset, report),
        attributes_title="Abilities" if tokens else "Attributes",
        attributes=attributes,
        skills_title="Fields of expertise" if tokens else "Skills",
        skill_marks="* Easy, ** Hard, *** Very Hard" if ruleset.skill_difficulties else "",
        skills=skills,
        gifts=tuple(ListedItem(g.name, _cost_note(g.cost)) for g in character.gifts),
        faults=tuple(ListedItem(f.name, _cost_note(f.value)) for f in character.faults),
        powers_title="Fields of power" if tokens else "Powers",
        powers=tuple(_power(p, ruleset, tokens) for p in character.powers),
        offensive=tuple(_factor(f) for f in factors.offensive),
        defensive=tuple(_factor(f) for f in factors.defensive),
        wounds=tuple(
            WoundRow(w.name, w.damage, signed(w.penalty) if w.penalty else "", range(w.boxes))
            for w in combat.wound_track(character, ruleset)
        ),
        equipment=tuple(_equipment(item) for item in character.equipment),
        reference_header=reference_header,
        reference=reference,
        personality=tuple(character.personality.items()),
        notes=character.notes,
        approval=approval,
        ledger=tuple(ledger),
        experience_unit=ruleset.advancement.unit if ruleset.advancement else "",
        key_traits=_key_traits(attributes + skills),
    )


def _facts(character: Character, ruleset: Ruleset, report) -> tuple[tuple[str, str], ...]:
    unit = ruleset.advancement.unit if ruleset.advancement else ""
    facts = [("Ruleset", ruleset.name), ("Experience", f"{character.experience} {unit}".strip())]
    if ruleset.system == LEVELS:
        points = character.meta_points
        if points is None:
            points = ruleset.meta_points_start
        label = "Fudge points" if ruleset.slug == "fudge-basics" else "Meta points"
        facts.append((label, str(points)))
        facts.append(("Scale (Str/Mass)", f"{character.scale_strength} / {character.scale_mass}"))
    else:
        pool = report.pools["tokens"]
        facts.append(
            ("Tokens", f"{json_number(pool['budget'])}, spent {json_number(pool['spent'])}")
        )
        facts.append(("Saved tokens", str(json_number(pool["saved"]))))
    return tuple(facts)


def _attributes(character: Character, ruleset: Ruleset, tokens: bool) -> tuple[TraitRow, ...]:
    """The listed attributes, then any of the ruleset's fixed or house-ruled ones left at
    their default (a character file may omit them; the sheet, like Mudge's, shows them all)."""
    rows = [_attribute(t, character, tokens) for t in character.attributes]
    listed = {t.name.casefold() for t in character.attributes}
    fixed = [(name, ruleset.attribute_default) for name in ruleset.attribute_names or ()]
    for name, default in [*fixed, *ruleset.extra_attributes]:  # extras: the GM's house rules
        if name.casefold() not in listed:
            rows.append(_attribute(Trait(name, default), character, tokens, note="default"))
    return tuple(rows)


def _attribute(trait: Trait, character: Character, tokens: bool, note: str = "") -> TraitRow:
    if trait.name.casefold() == "strength" and character.scale_strength:
        note = f"Scale {signed(character.scale_strength)}"
    return _trait_row(trait.name, trait.level, tokens, note=note)


def _skill(trait: Trait, ruleset: Ruleset, tokens: bool) -> TraitRow:
    mark = DIFFICULTY_MARKS[trait.difficulty or "average"] if ruleset.skill_difficulties else ""
    return _trait_row(trait.name, trait.level, tokens, mark=mark)


def _power(power, ruleset: Ruleset, tokens: bool) -> TraitRow:
    if tokens:  # a field of power: unused until raised from Abysmal (DIP VI, VIII.1)
        level = ruleset.power_default if power.level is None else power.level
        return _trait_row(power.name, level, tokens, note=f"potential {power_potential(level)}")
    mark = DIFFICULTY_MARKS[power.difficulty] if power.difficulty else ""
    note = power.kind or "superpower"
    if power.cost is not None:
        note = f"{note}, {_cost_note(power.cost) or 'costs 1'}"
    if power.level is None:  # a superpower priced in gifts has no level to roll against
        return TraitRow(power.name, "", 0, "", mark=mark, note=note)
    return _trait_row(power.name, power.level, tokens, mark=mark, note=note)


def _trait_row(name: str, level: int, tokens: bool, mark: str = "", note: str = "") -> TraitRow:
    rating = f"{card_rating(level)} cards" if tokens else signed(level)
    return TraitRow(name, level_name(level), level, rating, mark=mark, note=note)


def _reference(ruleset: Ruleset, tokens: bool):
    """The trait ladder (tables.ladder_table) with, on each level's row, what a skill at
    that level costs at creation (tables.skill_cost_table), as on Mudge's sheet (6.2)."""
    cost_header, cost_rows = tables.skill_cost_table(ruleset)
    costs = {row.label.split(" ", 1)[1]: row.cells for row in cost_rows}  # "+1 Good" -> Good
    no_cost = ("",) * len(cost_header)
    header = ("Roll", "Cards", *cost_header) if tokens else ("Roll", *cost_header)
    rows = []
    for row in tables.ladder_table(ruleset):
        roll, cards = row.cells
        ladder = (roll, cards) if tokens else (roll,)
        rows.append(ReferenceRow(row.label, (*ladder, *costs.get(row.label, no_cost))))
    return header, tuple(rows)


def _cost_note(cost: Fraction) -> str:
    """Gifts and faults usually count 1; the starred ones 2 (Mudge 1.33, 1.34)."""
    return "" if cost == 1 else f"costs {json_number(cost)}"


def _factor(factor: combat.DamageFactor) -> FactorRow:
    return FactorRow(factor.label, factor.terms, signed(factor.total), factor.open_term)


def _equipment(item: Equipment) -> ListedItem:
    details = []
    if item.kind != "gear":
        details.append(item.kind)
    if item.damage is not None:
        details.append(f"damage {signed(item.damage)}")
    if item.armour is not None:
        details.append(f"armour {signed(item.armour)}")
    if item.notes:
        details.append(item.notes)
    return ListedItem(item.name, ", ".join(details))


def _key_traits(traits: tuple[TraitRow, ...]) -> str:
    best = sorted(traits, key=lambda t: -t.modifier)[:KEY_TRAITS]
    return ", ".join(f"{t.name} {t.level}" for t in best)


# -- stored characters ------------------------------------------------------------------------


def approval_stamp(character: CharacterModel) -> ApprovalStamp | None:
    """The latest approval of an approved character. Callers prefetch `approvals`."""
    if character.state != CharacterModel.APPROVED:
        return None
    approval = next(iter(character.approvals.all()), None)  # newest first (Meta.ordering)
    if approval is None:
        return None
    return ApprovalStamp(approval.sha256, approval_summary(approval))


def sheet_for_character(character: CharacterModel, *, with_ledger: bool = True) -> Sheet:
    """Callers prefetch `traits`, `equipment` and `approvals` (and `ledger` for many)."""
    ledger = ()
    if with_ledger:
        ledger = [
            LedgerRow(e.created_at.date(), e.amount, e.reason, e.pending)
            for e in character.ledger.all()
        ]
    return build_sheet(
        adapters.character_to_rules(character),
        adapters.ruleset_for(character),
        approval_stamp(character),
        ledger,
    )
