"""The character sheet as plain values, for templates/sheets/sheet.html on screen and on paper.

`build_sheet` takes the engine's Character and Ruleset, the approval (or None) and the
experience ledger, and touches no database: `render_sheet` prints character files with it.
`sheet_for_character` gathers those inputs for a stored character.
"""

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from itertools import zip_longest

from django.utils import formats, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext, pgettext_lazy

from characters import adapters, states, vocabulary
from characters.adapters import file_sha256, override_summary
from characters.audit_chain import stamp_code
from characters.models import Character as CharacterModel
from characters.recorded import ledger_reason_said
from characters.rules_content import rules_name, rules_text
from characters.wording import SPEAKER, said
from rules import combat, tables
from rules.character import PERSONALITY_QUESTIONS, Character, Equipment, Trait
from rules.derived import DerivedValue, values_by_key
from rules.game_parts import Tracker, Translations, part_words
from rules.house_rules import json_number
from rules.ladder import TERRIBLE, WORDS, card_rating, signed
from rules.numbers import number_text
from rules.report import build_report, power_difficulty, power_potential
from rules.rulesets import TOKENS, Ruleset
from rules.trackers import tracker_start, tracker_value
from rules.words import Level

DIFFICULTY_MARKS = {"easy": "*", "average": "", "hard": "**", "very_hard": "***"}
KEY_TRAITS = 3  # on the campaign pack's party summary
# A count of at most this many is also drawn as boxes to tick; a longer one only as "__ / 40".
COUNT_BOXES_MAX = 20
# Facts that change in play, by their key: form fields on paper.
CONSUMABLE_FACTS = {"experience", "points", "saved_tokens"}
# The points the built-in rulesets spend in play; a GM's own points stay a plain fact.
TABLE_POINTS = {"fudge points", "meta points"}
# The damage factors' own words (rules.combat), in the reader's language.
FACTOR_WORDS = {
    "Unarmed": pgettext_lazy("damage factor", "Unarmed"),
    "Defensive": pgettext_lazy("damage factor", "Defensive"),
    "Strength Scale": pgettext_lazy("damage factor", "Strength Scale"),
    "Mass Scale": pgettext_lazy("damage factor", "Mass Scale"),
    "Misc.": pgettext_lazy("damage factor", "Misc."),
    "Weapon": pgettext_lazy("damage factor", "Weapon"),
    "Armour": pgettext_lazy("damage factor", "Armour"),
}
# A term left for play as said after a total, "-1 + armour": lower case in English, French
# and Spanish, a noun's capital in German; so its own message, not the word above lowered.
AFTER_A_TOTAL = {
    "Armour": pgettext_lazy("damage factor, after a total", "armour"),
}


def percent(chance: Fraction) -> str:
    """A chance as the reader's language writes it: "38.3%", "38,3 %"."""
    # Rounded here: number_format cuts the digits it drops (23.46 would read 23.4).
    number = formats.number_format(round(float(chance) * 100, 1), 1)
    return _("{number}%").format(number=number)


def dice_odds() -> tuple[tuple[str, str, str], ...]:
    """Fudge Basics, "Odds of Rolling Exactly on 4dF", shown beside the dice roller."""
    return tuple((signed(r), percent(e), percent(h)) for r, e, h in combat.fudge_dice_odds())


@dataclass(frozen=True)
class ApprovalStamp:
    """What the GM approved: the SHA-256 of the approved character file, and the approval
    in words when the GM approved over broken rules (adapters.override_summary), with the
    GM's reason: "approved over budget by 2 skill levels: a veteran of the siege"; "" for a
    plain approval."""

    sha256: str
    summary: str = ""
    # False when the kept build no longer hashes to what the approval's event recorded, or
    # the character's rows no longer hash to the build its trail records.
    verified: bool = True
    build_changed: bool = False  # the rows changed behind the app: no stamp till the GM looks
    # The stamp's code (audit_chain.stamp_code): the check page says whether this server
    # issued it, so a printed stamp cannot be made up. "" without a verified approval.
    code: str = ""

    @property
    def line(self) -> str:
        if self.build_changed:
            return _("{state}: not approved until the GM looks at it again").format(
                state=states.label(states.CHANGED)
            )
        if not self.verified:
            return _(
                "Approval does not match its record: the kept build no longer has the "
                "SHA-256 {sha256} the GM approved"
            ).format(sha256=self.sha256)
        return " · ".join(words for words in (self.head, self.summary) if words)

    @property
    def head(self) -> str:
        """A standing approval's line before the words an override adds: the hash and the
        stamp, "Approved · SHA-256 … · stamp 12.7.345.1a2b3c4d5e"."""
        text = _("Approved · SHA-256 {sha256}").format(sha256=self.sha256)
        return " · ".join(words for words in (text, self.stamp) if words)

    @property
    def stamp(self) -> str:
        """The stamp's code in words, "stamp 12.7.345.1a2b3c4d5e"; "" without a code."""
        return _("stamp {code}").format(code=self.code) if self.code else ""

    @property
    def override(self) -> str:
        """The approval in words when the GM approved over broken rules, with the reason;
        "" for a plain approval. Paper prints it once, under the name."""
        return self.summary if self.verified else ""


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
    open_after: str = ""  # the open term as said after the total: "armour", "Rüstung"

    @property
    def short(self) -> str:
        """The factor without its terms: "Broadsword +3", "Defensive +0 + armour"."""
        short = f"{self.label} {self.total}"
        return f"{short} + {self.open_after}" if self.open_term else short


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
class Consumable:
    """A value that changes in play (experience, meta points, saved tokens): a form field on
    the printed sheet, left blank for pencil play. `label` is the one in Sheet.facts."""

    name: str  # the form field's name: "experience", "points", "saved_tokens"
    label: str
    value: str
    unit: str = ""


@dataclass(frozen=True)
class DerivedRow:
    """A designed game's derived value (rules.derived) for one character, as shown."""

    name: str  # in the reader's language where the GM gave it
    value: int | None  # None: it cannot be worked out for this character
    problem: str = ""  # why not, in the reader's language
    note: str = ""


@dataclass(frozen=True)
class TrackerRow:
    """A designed game's tracker (rules.game_parts.Tracker) with a value: its start on the
    sheet and the builder, its current value on the play page."""

    tracker: Tracker
    name: str  # in the reader's language where the GM gave it
    note: str
    start: int
    value: int

    @property
    def kind(self) -> str:
        return self.tracker.kind

    @property
    def size(self) -> int:
        return self.tracker.size

    @property
    def key(self) -> str:
        return self.tracker.key

    @property
    def boxes(self) -> list[bool]:
        """Each box or segment, ticked or not, in order; none for a count too long to draw."""
        if self.kind == "count" and self.size > COUNT_BOXES_MAX:
            return []
        return [n <= self.value for n in range(1, self.size + 1)]


def own_words(text: str, translations: Translations, index: int = 1) -> str:
    """A GM's name (index 1) or note (index 2) of a tracker or derived value in the reader's
    language, where the GM gave it; as written otherwise."""
    return SPEAKER.game_words(part_words(text, translations, index))


def derived_rows(values: Iterable[DerivedValue]) -> tuple[DerivedRow, ...]:
    return tuple(
        DerivedRow(
            own_words(v.derived.name, v.derived.translations),
            v.value,
            said(v.problem) if v.problem else "",
            own_words(v.derived.note, v.derived.translations, 2),
        )
        for v in values
    )


def tracker_rows(
    trackers: Iterable[Tracker], derived: Iterable[DerivedValue], values: dict | None = None
) -> tuple[TrackerRow, ...]:
    """Each tracker with its start for the character (from its `derived` values, a report's
    or a table's) and its value in `values` (a play state's, key -> value), its start where
    `values` has none."""
    by_key = values_by_key(derived)
    rows = []
    for tracker in trackers:
        start = tracker_start(tracker, by_key)
        rows.append(
            TrackerRow(
                tracker,
                own_words(tracker.name, tracker.translations),
                own_words(tracker.note, tracker.translations, 2),
                start,
                tracker_value(tracker, start, values or {}),
            )
        )
    return tuple(rows)


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
    # The ruleset's own words and harm track (Mudge's wounds, MicroFudged's setbacks)
    gifts_and_faults: bool = True
    gifts_title: str = "Gifts"
    faults_title: str = "Faults"
    harm_title: str = "Wounds"
    harm_caused_by: str = "Damage"
    harm_note: str = ""
    fair_word: str = "Fair"  # the ladder's word for 0, for a plain roll ("Fine" in a GM's game)
    # The dice roller's ladder: its words lowest first, which is 0, the lowest it names.
    ladder_words: str = "|".join(WORDS)
    ladder_fair: int = WORDS.index("Fair")
    ladder_bottom: int = TERRIBLE
    factors_note: str = ""  # an attribute the damage factors use that the character lacks
    reference_caption: str = ""
    dice_note: str = ""  # Mudge's damage die (3.22); nothing where there is none
    dice_section: str = ""  # where the ruleset's text gives the odds of 4dF, if it does
    skill_noun: str = "skill"  # one of the skills, in the ruleset's words ("knack")
    uncommitted: tuple[str, ...] = ()  # Mudge 1.7: one line per open slot
    consumables: tuple[Consumable, ...] = ()
    portrait: str = ""  # a data: URL (adapters.portrait_data_url): the PDF fetches nothing
    state: str = states.DRAFT  # where the build stands (a file's: a draft), for its marks
    # A designed game's derived values and trackers (at their start): none in a built-in.
    derived: tuple[DerivedRow, ...] = ()
    trackers: tuple[TrackerRow, ...] = ()

    @property
    def fixed_facts(self) -> tuple[tuple[str, str], ...]:
        """The facts that do not change in play; the paper prints the rest as fields."""
        changing = {c.label for c in self.consumables}
        return tuple(fact for fact in self.facts if fact[0] not in changing)

    def gift_fault_grid(self, columns: int) -> list[list[ListedItem | None]]:
        """Gifts beside faults, each in `columns` columns read across, row by row: one
        table row holds `columns` gifts then `columns` faults (None for an empty cell)."""
        gifts = [self.gifts[i : i + columns] for i in range(0, len(self.gifts), columns)]
        faults = [self.faults[i : i + columns] for i in range(0, len(self.faults), columns)]
        return [
            [*gift_row, *[None] * (columns - len(gift_row)), *fault_row]
            + [None] * (columns - len(fault_row))
            for gift_row, fault_row in zip_longest(gifts, faults, fillvalue=())
        ] or [[None] * 2 * columns]

    @property
    def offence_line(self) -> str:
        """The offensive factors on one line, as the party view's card says them: a line
        made here rather than by a loop in the template, once a card."""
        return ", ".join(factor.short for factor in self.offensive)

    @property
    def defence_line(self) -> str:
        return ", ".join(factor.short for factor in self.defensive)

    @property
    def approval_line(self) -> str:
        return self.approval.line if self.approval else states.not_approved(self.state)

    @property
    def watermark(self) -> str:
        """What paper prints across a sheet whose build is not approved: its state, or why
        its approval no longer holds; "" for a standing approval."""
        if self.approval is None:
            return states.not_approved(self.state)
        if self.approval.build_changed:
            return states.not_approved(states.CHANGED)
        return "" if self.approval.verified else states.not_approved(states.APPROVED)

    @property
    def watermark_size(self) -> int:
        """The watermark's size in points: 50 for a short mark ("Draft · not approved"); a
        longer one smaller, so that it runs corner to corner and not past them."""
        length = len(self.watermark)
        return 50 if length <= 20 else min(34, 750 // max(length, 1))

    @property
    def stamp_line(self) -> str:
        """The approval as the printed footer carries it: the hash, without the words an
        override adds (those print once, under the name) or the stamp (a line of its own
        there, ApprovalStamp.stamp)."""
        if self.approval is None:
            return states.not_approved(self.state)
        if self.approval.build_changed:
            return _("Changed since approval: see under the name")
        if not self.approval.verified:
            return _("Approval does not match its record: see under the name")
        return _("Approved · SHA-256 {sha256}").format(sha256=self.approval.sha256)

    @property
    def ledger_total(self) -> int:
        return sum(row.amount for row in self.ledger if not row.pending)

    @property
    def ledger_pending(self) -> int:
        """What spends waiting for the GM would take, left out of the total."""
        return sum(row.amount for row in self.ledger if row.pending)


def build_sheet(
    character: Character,
    ruleset: Ruleset,
    approval: ApprovalStamp | None = None,
    ledger: Iterable[LedgerRow] = (),
    state: str = states.DRAFT,
    *,
    card: bool = False,
) -> Sheet:
    """A `card` (sheet_for_character's, the party view's) shows neither the reference (the
    cost tables the sheet prints under the build: empty tables) nor a dice roller (its
    ladder's words: the standard ones), so neither is worked out."""
    tokens = ruleset.system == TOKENS
    terms = ruleset.terms
    report = build_report(character, ruleset)
    factors = combat.damage_factors(character, ruleset)
    reference_header, reference = ((), ()) if card else _reference(ruleset, tokens)
    attributes = _attributes(character, ruleset, tokens)
    skills = tuple(_skill(t, ruleset, tokens) for t in character.skills)
    harm = ruleset.harm
    keyed_facts = _facts(character, ruleset, report)
    experience_unit = ruleset.advancement.unit if ruleset.advancement else ""
    return Sheet(
        name=character.name,
        player=character.player,
        race=rules_name(character.race),
        concept=character.concept,
        ruleset_name=vocabulary.term(ruleset.name, "ruleset"),
        uses_tokens=tokens,
        facts=tuple((label, value) for _key, label, value in keyed_facts),
        attributes_title=_title(terms, "attributes"),
        attributes=attributes,
        skills_title=_title(terms, "skills"),
        skill_marks=_skill_marks() if ruleset.skill_difficulties else "",
        skills=skills,
        # Costs as the report priced them: a cost left out takes the catalogue's (Magery: 2).
        gifts=tuple(
            ListedItem(g.name, _cost_note(cost))
            for g, cost in zip(character.gifts, report.costs["gifts"], strict=True)
        ),
        faults=tuple(
            ListedItem(f.name, _worth_note(value))
            for f, value in zip(character.faults, report.costs["faults"], strict=True)
        ),
        powers_title=_title(terms, "powers"),
        powers=tuple(_power(p, ruleset, tokens) for p in character.powers),
        offensive=tuple(_factor(f) for f in factors.offensive),
        defensive=tuple(_factor(f, defensive=True) for f in factors.defensive),
        wounds=tuple(
            WoundRow(
                vocabulary.term(w.name, "wound"),
                _damage_words(w.damage),
                _penalty(w.penalty, harm.penalty_unit),
                range(w.boxes),
            )
            for w in combat.wound_track(character, ruleset)
        ),
        equipment=tuple(_equipment(item) for item in character.equipment),
        reference_header=reference_header,
        reference=reference,
        personality=_personality(character.personality),
        notes=character.notes,
        approval=approval,
        ledger=tuple(ledger),
        experience_unit=vocabulary.term(experience_unit, "experience unit"),
        key_traits=_key_traits(attributes + skills),
        gifts_and_faults=ruleset.gifts_and_faults,
        gifts_title=_title(terms, "gifts") if ruleset.gifts_and_faults else "",
        faults_title=_title(terms, "faults") if ruleset.gifts_and_faults else "",
        harm_title=vocabulary.term(harm.title, "harm") if harm else "",
        harm_caused_by=vocabulary.term(harm.caused_by, "harm") if harm else "",
        # A built-in's notes in the reader's language; a GM's own as written.
        harm_note=vocabulary.term(harm.note, "ruleset note") if harm else "",
        fair_word=_word(ruleset, 0),
        ladder_words=(
            Sheet.ladder_words
            if card
            else "|".join(_ladder_text(ruleset, word) for word in ruleset.ladder.words)
        ),
        ladder_fair=ruleset.ladder.fair,
        ladder_bottom=ruleset.ladder_bottom,
        factors_note=_factors_note(factors, ruleset),
        reference_caption=_("Cost of {a_skill} at creation, in {units}").format(
            a_skill=_with_article(terms.noun("skills")), units=_cost_units(terms.cost_unit)
        ),
        dice_note=vocabulary.term(terms.dice_note, "ruleset note"),
        dice_section=ruleset.cites("dice"),
        skill_noun=list_noun(terms.noun("skills")),
        uncommitted=_uncommitted(character, ruleset),
        consumables=_consumables(keyed_facts, character),
        state=state,
        derived=derived_rows(report.derived),
        trackers=tracker_rows(ruleset.trackers, report.derived),
    )


def list_noun(word: str) -> str:
    """One of a ruleset's lists, "skill", "field of power", in the reader's language; a GM's
    own noun as written."""
    for (one, _many), said_for in vocabulary.NOUNS.items():
        if one == word:
            return said_for(1)
    return word


def _title(terms, list_name: str) -> str:
    return vocabulary.term(terms.title(list_name), "list title")


def _word(ruleset: Ruleset, level: int) -> str:
    """A level in the ruleset's ladder, in the reader's language where the ladder is standard."""
    return SPEAKER.level(Level(level, ruleset.ladder))


def _skill_marks() -> str:
    return _("* {easy}, ** {hard}, *** {very_hard}").format(
        easy=vocabulary.term("Easy", "difficulty"),
        hard=vocabulary.term("Hard", "difficulty"),
        very_hard=vocabulary.term("Very Hard", "difficulty"),
    )


def _with_article(noun: str) -> str:
    """ "a skill", "une compétence": a built-in list's noun in the reader's language; a GM's
    own ("knack") as written, with the English article only in English."""
    found = vocabulary.noun_with_article(noun)
    if found is not None:
        return found
    if not (translation.get_language() or "en").startswith("en"):
        return noun
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def _cost_units(unit: str) -> str:
    """ "skill levels", "tokens": what a skill's cost is counted in, plural."""
    found = vocabulary.noun(unit, f"{unit}s", 2)
    return f"{unit}s" if found is None else found


def _damage_words(damage: str) -> str:
    """MicroFudged's setbacks come from "1 success", "2 successes": said in the reader's
    language; a wound track's numbers ("3,4", "9+") are numbers (damage_numbers)."""
    count, space, word = damage.partition(" ")
    if space and count.isdigit() and word in ("success", "successes"):
        return ngettext("{count} success", "{count} successes", int(count)).format(count=count)
    return damage_numbers(damage)


def damage_numbers(damage: str) -> str:
    """A wound level's damage as a range: the rules write "3,4", which French and Spanish
    read as a decimal (3,4 = 3.4), so consecutive numbers become 3, an en dash and 4, and a
    lone one "6", in every language; other lists get a space after the comma; "9+" stays."""
    numbers = damage.split(",")
    if len(numbers) < 2 or not all(n.strip().isdigit() for n in numbers):
        return damage
    values = [int(n) for n in numbers]
    if values == list(range(values[0], values[0] + len(values))):
        return f"{values[0]}\u2013{values[-1]}"
    return ", ".join(str(v) for v in values)


def _facts(character: Character, ruleset: Ruleset, report) -> tuple[tuple[str, str, str], ...]:
    """(key, label, value): the key names a fact that changes in play (CONSUMABLE_FACTS)."""
    unit = ruleset.advancement.unit if ruleset.advancement else ""
    if unit == "token":  # EP and XP stay as they are
        unit = vocabulary.noun("token", "tokens", character.experience) or unit
    else:
        unit = vocabulary.term(unit, "experience unit")
    facts = [
        ("ruleset", _("Ruleset"), vocabulary.term(ruleset.name, "ruleset")),
        ("experience", _("Experience"), f"{character.experience} {unit}".strip()),
    ]
    if ruleset.system != TOKENS:
        points = character.meta_points
        if points is None:
            points = ruleset.meta_points_start
        if ruleset.terms.points:
            label = vocabulary.term(ruleset.terms.points, "points")
            key = "points" if ruleset.terms.points.lower() in TABLE_POINTS else ""
            facts.append((key, label[:1].upper() + label[1:], str(points)))
        if ruleset.has_scale:
            scale = f"{character.scale_strength} / {character.scale_mass}"
            facts.append(("scale", _("Scale (Str/Mass)"), scale))
    else:
        pool = report.pools["tokens"]
        tokens = _("{budget}, spent {spent}").format(
            budget=_number(pool["budget"]), spent=_number(pool["spent"])
        )
        facts.append(("tokens", _("Tokens"), tokens))
        facts.append(("saved_tokens", _("Saved tokens"), _number(pool["saved"])))
    return tuple(facts)


def _number(value) -> str:
    """A JSON number (3, 1.5) as the reader's language writes it (1,5)."""
    return formats.number_format(json_number(value))


def _consumables(facts, character: Character) -> tuple[Consumable, ...]:
    found = []
    for key, label, value in facts:
        if key == "experience":  # the fact reads "12 XP", "1 token": the field holds the number
            unit = value.partition(" ")[2]
            found.append(Consumable(key, label, str(character.experience), unit))
        elif key in CONSUMABLE_FACTS:
            found.append(Consumable(key, label, value))
    return tuple(found)


def _attributes(character: Character, ruleset: Ruleset, tokens: bool) -> tuple[TraitRow, ...]:
    """The listed attributes, then any of the ruleset's fixed or house-ruled ones left at
    their default (a character file may omit them; the sheet, like Mudge's, shows them all)."""
    rows = [_attribute(t, character, ruleset) for t in character.attributes]
    listed = {t.name.casefold() for t in character.attributes}
    fixed = [(name, ruleset.attribute_default) for name in ruleset.attribute_names or ()]
    for name, default in [*fixed, *ruleset.extra_attributes]:  # extras: the GM's house rules
        if name.casefold() not in listed:
            rows.append(_attribute(Trait(name, default), character, ruleset, note=_("default")))
    return tuple(rows)


def _attribute(trait: Trait, character: Character, ruleset: Ruleset, note: str = "") -> TraitRow:
    if trait.name.casefold() == "strength" and character.scale_strength:
        note = _("Scale {scale}").format(scale=signed(character.scale_strength))
    return _trait_row(trait.name, trait.level, ruleset, note=note)


def _skill(trait: Trait, ruleset: Ruleset, tokens: bool) -> TraitRow:
    mark = DIFFICULTY_MARKS[trait.difficulty or "average"] if ruleset.skill_difficulties else ""
    note = _("uncommitted, defined in play") if trait.defined_in_play else ""
    return _trait_row(trait.name, trait.level, ruleset, mark=mark, note=note)


def _power(power, ruleset: Ruleset, tokens: bool) -> TraitRow:
    if tokens:  # a field of power: unused until raised from Abysmal (DIP VI, VIII.1)
        level = ruleset.power_default if power.level is None else power.level
        potential = _("potential {count}").format(count=power_potential(level))
        return _trait_row(power.name, level, ruleset, note=potential)
    # A spell or psi power with no difficulty is Hard (Mudge 2.5, 2.7; spec).
    priced_as_skill = power.kind in ruleset.power_gifts
    difficulty = power_difficulty(power) if priced_as_skill else power.difficulty
    mark = DIFFICULTY_MARKS[difficulty] if difficulty else ""
    note = vocabulary.label(power.kind or "superpower", "power kind")
    if power.cost is not None:
        cost = _cost_note(power.cost) or _("costs {cost}").format(cost=1)
        note = f"{note}, {cost}"
    if priced_as_skill:
        note += _use_cost(power, ruleset)
    if power.level is None:  # a superpower priced in gifts has no level to roll against
        return TraitRow(power.name, "", 0, "", mark=mark, note=note)
    return _trait_row(power.name, power.level, ruleset, mark=mark, note=note)


def _use_cost(power, ruleset: Ruleset) -> str:
    lowers = use_cost(power.name, power.kind, ruleset)
    return f", {lowers}" if lowers else ""


def use_cost(name: str, kind: str, ruleset: Ruleset) -> str:
    """What a casting lowers, from the catalogue's entry of the same name and kind: "lowers
    Mana 1" (Mudge 2.51; the attribute is the one the power's gift brings, ruleset data);
    the sheet and the builder's row say the same."""
    entry = ruleset.catalog.power(name)
    if entry is None or entry.kind != kind or not entry.cost.isdigit():
        return ""
    attribute = ruleset.attribute_gifts.get(ruleset.power_gifts.get(kind, ""))
    if not attribute:
        return ""
    return _("lowers {attribute} {cost}").format(attribute=rules_name(attribute), cost=entry.cost)


def _trait_row(name: str, level: int, ruleset: Ruleset, mark: str = "", note: str = "") -> TraitRow:
    if ruleset.system == TOKENS:
        cards = card_rating(level)
        rating = ngettext("{count} cards", "{count} cards", cards).format(count=cards)
    else:
        rating = signed(level)
    return TraitRow(name, _word(ruleset, level), level, rating, mark=mark, note=note)


def _reference(ruleset: Ruleset, tokens: bool):
    """The trait ladder (tables.ladder_table) with, on each level's row, what a skill at
    that level costs at creation (tables.skill_cost_table), as on Mudge's sheet (6.2)."""
    cost_header, cost_rows = tables.skill_cost_table(ruleset)
    costs = {row.label.split(" ", 1)[1]: row.cells for row in cost_rows}  # "+1 Good" -> Good
    no_cost = ("",) * len(cost_header)
    cost_header = tuple(_cost_heading(heading) for heading in cost_header)
    roll_heading = pgettext_lazy("reference table", "Roll")
    cards_heading = pgettext_lazy("reference table", "Cards")
    header = (roll_heading, cards_heading, *cost_header) if tokens else (roll_heading, *cost_header)
    rows = []
    for row in tables.ladder_table(ruleset):
        roll, cards = row.cells
        ladder = (roll, cards) if tokens else (roll,)
        label = _ladder_text(ruleset, row.label)
        rows.append(ReferenceRow(label, (*ladder, *costs.get(row.label, no_cost))))
    return tuple(str(heading) for heading in header), tuple(rows)


def _cost_heading(heading: str) -> str:
    if heading == "Cost":
        return str(pgettext_lazy("reference table", "Cost"))
    return vocabulary.term(heading, "difficulty")


def _ladder_text(ruleset: Ruleset, text: str) -> str:
    """A label made of ladder words ("Good", "Good → Great") in the reader's language,
    when the ladder is the standard one; a GM's own ladder as written."""
    if not vocabulary.ladder_is_standard(ruleset.ladder.words):
        return text
    return " → ".join(vocabulary.ladder_text(word) for word in text.split(" → "))


def _cost_note(cost: Fraction) -> str:
    """Gifts and faults usually count 1; the starred ones 2 (Mudge 1.33, 1.34). One bought
    with experience costs nothing at creation (the report's 0): it says nothing, as one at
    1 does, not "costs 0"."""
    return "" if cost in (0, 1) else _("costs {cost}").format(cost=_amount(cost))


def _worth_note(value: Fraction) -> str:
    """A fault is worth what it gives back (Mudge 1.34: the starred ones 2), not a cost."""
    return "" if value == 1 else _("worth {value}").format(value=_amount(value))


def _amount(value: Fraction) -> str:
    """number_text's cost as the reader's language writes it: a decimal with its own mark
    (0,25), a whole number as it groups digits, a half as the rule texts write it (½)."""
    text = number_text(value)
    if "." in text:
        return formats.number_format(float(text))
    return formats.number_format(int(text)) if text.lstrip("-").isdigit() else text


def _personality(answers: dict[str, str]) -> tuple[tuple[str, str], ...]:
    """The answers under their questions (Mudge 1.35), in the questionnaire's order and the
    reader's language; a key the questionnaire does not know (a file's own question) is its
    own question, as written."""
    known = [
        (vocabulary.term(question, "personality question"), answers[key])
        for key, question in PERSONALITY_QUESTIONS
        if key in answers
    ]
    asked = {key for key, _ in PERSONALITY_QUESTIONS}
    return (*known, *((key, answer) for key, answer in answers.items() if key not in asked))


def _penalty(penalty: int, unit: str) -> str:
    """ "-1" (to every action), "-2 cards" (MicroFudged draws), or "" for none."""
    if not penalty:
        return ""
    if not unit:
        return signed(penalty)
    if unit == "card":
        return ngettext("{penalty} card", "{penalty} cards", abs(penalty)).format(
            penalty=signed(penalty)
        )
    return f"{signed(penalty)} {unit}{'' if abs(penalty) == 1 else 's'}"


def _factors_note(factors: combat.DamageFactors, ruleset: Ruleset) -> str:
    """Says so when a damage factor uses an attribute the character does not list (a GM's
    list without it): it stands at the default there, and the GM may name another one."""
    if not factors.unlisted:
        return ""
    names = _(" and ").join(factors.unlisted)
    return _(
        "{names}: not on this character, counted at {level}. The {gm} names the attributes "
        "damage factors use in the house rules."
    ).format(
        names=names,
        level=_word(ruleset, ruleset.attribute_default),
        gm=vocabulary.term(ruleset.terms.gm, "game master"),
    )


def _uncommitted(character: Character, ruleset: Ruleset) -> tuple[str, ...]:
    """Mudge 1.7: a line for each uncommitted trait still open."""
    defined = sum(t.defined_in_play for t in (*character.attributes, *character.skills))
    open_slots = max(ruleset.uncommitted_traits - defined, 0)
    line = _("Uncommitted: define in play, {level} or lower").format(
        level=_word(ruleset, ruleset.uncommitted_max)
    )
    return (line,) * open_slots


def _factor(factor: combat.DamageFactor, defensive: bool = False) -> FactorRow:
    return FactorRow(
        _factor_label(factor.label, defensive),
        tuple((factor_word(name), value) for name, value in factor.terms),
        signed(factor.total),
        factor_word(factor.open_term),
        _after_a_total(factor.open_term),
    )


def _after_a_total(word: str) -> str:
    """A factor's open term as said after its total (AFTER_A_TOTAL); another as said anywhere,
    in lower case."""
    found = AFTER_A_TOTAL.get(word)
    return factor_word(word).lower() if found is None else str(found)


def factor_word(word: str) -> str:
    """A damage factor's own word (rules.combat) in the reader's language; an attribute's
    or a weapon's name said as any rules name (a built-in one in the reader's language)."""
    found = FACTOR_WORDS.get(word)
    return rules_name(word) if found is None else str(found)


def _factor_label(label: str, defensive: bool) -> str:
    """rules.combat's "In Chain mail" (armour worn) as the defensive factor in that armour,
    "Defensive (Chain mail)", which reads the same whatever the armour is called (Mudge's
    "Effective"); its own words in the reader's language; a weapon's name as written."""
    if defensive and label.startswith("In ") and label not in FACTOR_WORDS:
        return pgettext("damage factor", "Defensive ({armour})").format(
            armour=rules_name(label[3:])
        )
    return factor_word(label)


def _equipment(item: Equipment) -> ListedItem:
    details = [f"×{item.quantity}"] if item.quantity != 1 else []  # noqa: RUF001 (the times sign, as printed)
    if item.kind != "gear":
        details.append(vocabulary.label(item.kind, "equipment kind"))
    if item.damage is not None:
        details.append(_("damage {value}").format(value=signed(item.damage)))
    if item.armour is not None:
        details.append(_("armour {value}").format(value=signed(item.armour)))
    if item.notes:  # a catalogue item's note, kept with it: in the reader's language
        details.append(rules_text(item.notes))
    return ListedItem(item.name, ", ".join(details))


def _key_traits(traits: tuple[TraitRow, ...]) -> str:
    best = sorted(traits, key=lambda t: -t.modifier)[:KEY_TRAITS]
    return ", ".join(f"{rules_name(t.name)} {t.level}" for t in best)


# -- the reference page: printed once per pack, not on every sheet ----------------------------


@dataclass(frozen=True)
class ReferencePage:
    """A ruleset's trait ladder with the cost of a skill at each level, the cost of
    attributes and of raising traits with experience (rules.tables)."""

    ruleset_name: str
    uses_tokens: bool
    ladder_header: tuple[str, ...]
    ladder: tuple[ReferenceRow, ...]
    attribute_costs: tuple[tables.Row, ...]
    experience_unit: str
    experience: tuple[tables.Row, ...]  # cells: skill cost, attribute cost, needs the GM


def reference_page(ruleset: Ruleset) -> ReferencePage:
    tokens = ruleset.system == TOKENS
    header, ladder = _reference(ruleset, tokens)
    unit = ruleset.advancement.unit if ruleset.advancement else ""
    return ReferencePage(
        ruleset_name=vocabulary.term(ruleset.name, "ruleset"),
        uses_tokens=tokens,
        ladder_header=header,
        ladder=ladder,
        attribute_costs=_in_words(ruleset, tables.attribute_cost_table(ruleset)),
        experience_unit=vocabulary.term(unit, "experience unit"),
        experience=_in_words(ruleset, tables.experience_table(ruleset)),
    )


def _in_words(ruleset: Ruleset, rows) -> tuple[tables.Row, ...]:
    """A table's rows with their ladder words in the reader's language."""
    return tuple(tables.Row(_ladder_text(ruleset, row.label), row.cells) for row in rows)


# -- stored characters ------------------------------------------------------------------------


def approval_stamp(character: CharacterModel, terms=None) -> ApprovalStamp | None:
    """The latest approval of an approved character, said in its ruleset's `terms` where
    the caller has them. Callers prefetch `approvals`."""
    if character.state != CharacterModel.State.APPROVED:
        return None
    approval = next(iter(character.approvals.all()), None)  # newest first (Meta.ordering)
    if approval is None:
        return None
    events = getattr(character, "approval_events", None)  # selectors.APPROVAL_RECORD
    if events is None:
        event = approval.recorded_event()
    else:
        event = next((e for e in events if e.version == approval.version), None)
    if event is None:
        return ApprovalStamp(approval.sha256, verified=False)
    sha256 = event.after["sha256"]
    changed = adapters.build_changed(character)  # a forged approval event too
    verified = file_sha256(approval.snapshot) == sha256 and not changed
    return ApprovalStamp(
        sha256,
        override_summary(approval, event.reason, terms),
        verified=verified,
        build_changed=changed,
        code=stamp_code(character.pk, approval.version, event.pk) if verified else "",
    )


def sheet_for_character(
    character: CharacterModel,
    *,
    with_ledger: bool = True,
    card: bool = False,
    rules: Character | None = None,
) -> Sheet:
    """Callers prefetch `traits`, `equipment`, `ledger` and, but for a card, `approvals`
    (selectors.access.APPROVAL_RECORD for many). A card's sheet (the party view's, which
    shows the build, its statblock and the portrait by its URL) has no approval stamp, no
    portrait and no reference tables: none is read or worked out. A page that reads the
    character at the table too (selectors.play.at_table) passes the engine's form of it,
    `rules`, converted once for both."""
    ledger = ()
    if with_ledger:
        ledger = [
            LedgerRow(e.created_at.date(), e.amount, ledger_reason_said(e), e.pending)
            for e in character.ledger.all()
        ]
    ruleset = adapters.ruleset_for(character)
    sheet = build_sheet(
        adapters.character_to_rules(character) if rules is None else rules,
        ruleset,
        None if card else approval_stamp(character, ruleset.terms),
        ledger,
        character.state,
        card=card,
    )
    if card or not character.portrait_sha:
        return sheet
    return dataclasses.replace(sheet, portrait=adapters.portrait_data_url(character))
