"""The builder's rows: each trait list of the ruleset with its rows, each row's form, its
cost at creation and the report's issues about it, and the equipment's rows. What only a
drawn row shows is worked out when it is drawn (templatetags.builder_rows draws them)."""

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache, partial
from html import escape
from typing import NamedTuple

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from characters.adapters import TRAIT_LISTS, cost_pool
from characters.forms.builder import TraitForm, equipment_controls, trait_controls
from characters.forms.row_controls import RowControls
from characters.models import Character, Trait
from characters.pages.picker import (
    EQUIPMENT,
    catalog_entries,
    catalog_picks,
    difficulty_label,
    equipment_kind_word,
    units,
)
from characters.rules_content import rules_name, rules_text
from characters.sheets import use_cost
from characters.wording import SPEAKER
from rules.ladder import FAIR
from rules.ledger import creation_build
from rules.numbers import number_text
from rules.report import Report
from rules.rulesets import LEVELS, Ruleset
from rules.tables import creation_levels
from rules.words import Level

REPORT_KINDS = {name: kind for kind, name in TRAIT_LISTS.items()}


@dataclass
class Row:
    """A row of the builder. What only a drawn row shows (its controls, its cost in words,
    the catalogue's note) is worked out when it is drawn: an edit draws one row again, and
    doing it for the sixty it does not show would cost more than the rest of the request."""

    trait: object
    make_form: Callable[[], object]  # its refused form, else its controls drawn (RowControls)
    ruleset: Ruleset | None = None
    spent: object = 0  # what it cost at creation, in its pool's units
    issues: list = field(default_factory=list)
    in_play: str = ""  # what experience changed since creation; the cost stays creation's
    refused: bool = False  # its form is one the player sent that did not validate

    @cached_property
    def form(self):
        return self.make_form()

    @cached_property
    def cost(self) -> str:
        return _cost_label(self.trait.kind, self.trait, self.spent, self.ruleset)

    @cached_property
    def steps(self) -> tuple["Step | None", "Step | None"]:
        """The level one step down and one step up, each with what it does to the budget:
        the row's minus and plus buttons. At creation a step costs the same at every level (Mudge
        1.6, 1.62; DIP III: tokens per level)."""
        kind, level = self.trait.kind, self.trait.level
        if kind not in (Trait.Kind.ATTRIBUTE, Trait.Kind.SKILL) or level is None:
            return None, None
        r = self.ruleset
        unit = r.attribute_cost if kind == Trait.Kind.ATTRIBUTE else r.skill_cost
        cost, amount = _cost_label(kind, self.trait, unit, r), number_text(unit)
        levels = creation_levels(r)
        return tuple(
            Step(to, level_word(r, to), cost, amount) if to in levels else None
            for to in (level - 1, level + 1)
        )

    @cached_property
    def note(self) -> str:
        """The catalogue's note on it, shown while the row has the focus."""
        return catalog_note(self.ruleset, self.trait.kind, self.trait.name)

    @cached_property
    def power(self):
        """The catalogue's power of this name (Mudge 2.53's Fireball), for its text's lines."""
        if getattr(self.trait, "kind", None) != Trait.Kind.POWER:
            return None
        return self.ruleset.catalog.power(self.trait.name)

    @cached_property
    def use_cost(self) -> str:
        """What a casting of this power lowers, as its sheet prints it: "lowers Mana 1"."""
        if getattr(self.trait, "kind", None) != Trait.Kind.POWER:
            return ""
        return use_cost(self.trait.name, self.trait.power_kind, self.ruleset)

    @cached_property
    def brings_attribute(self) -> str:
        """The attribute this gift brings (Magery: Mana), which removing it asks about."""
        if getattr(self.trait, "kind", None) != Trait.Kind.GIFT:
            return ""
        gift = self.trait.name.casefold()
        return next(
            (a for g, a in self.ruleset.attribute_gifts.items() if g.casefold() == gift), ""
        )

    @property
    def prices_in_gifts(self) -> bool:
        """A power row's gift cost means something only for a superpower: a spell or psi
        power is priced as a skill (Mudge 2.5, 2.7)."""
        return self.trait.power_kind not in self.ruleset.power_gifts


class Step(NamedTuple):
    level: int
    word: str  # "Great"
    cost: str  # what the step moves on the budget: "1 skill level"
    amount: str  # the same in the row's own unit, for the narrow hint beside the +: "1"


@dataclass
class Section:
    kind: str
    title: str
    rows: list[Row]
    make_add_form: Callable[[], object]  # its refused form, else its controls drawn
    ruleset: Ruleset
    gift_names: frozenset[str]  # the character's, casefolded: what a spell's pick needs
    noun: str = ""  # one of them, for "Add a skill…"
    add_refused: bool = False  # its add form is one the player sent that did not validate
    # Its picker's Add at as its select sent it (drawing the picker again, or by Undo and
    # Redo: views.builder._query_reopening_picker); None: its add form's level.
    picker_level: str | None = None

    @cached_property
    def add_form(self):
        return self.make_add_form()

    @property
    def kept_as(self) -> str | None:
        """What the page keeps its add form and picker by (templatetags.kept_drawings): its
        kind; None for an add form sent back refused, drawn as the player sent it."""
        return None if self.add_refused else self.kind

    @cached_property
    def taken(self) -> frozenset[str]:
        """The names this list has, casefolded: the picker says so of its entries, rather
        than offer one that adding would refuse (a list holds a name once)."""
        return frozenset(row.trait.name.casefold() for row in self.rows)

    @cached_property
    def picks(self) -> list:
        """The catalogue's entries for this list, with what adding each does (the picker): a
        skill's or a spell's cost quoted at its Add at (pick_level), at Fair where that is no
        level (a superpower's "No level", a list without one, a refused add form's level that
        is not one)."""
        level = self.pick_level[0]
        return [
            replace(pick, taken=True) if pick.name.casefold() in self.taken else pick
            for pick in catalog_picks(self.ruleset, self.gift_names, self.kind, _quoted_at(level))
        ]

    @property
    def pick_level(self) -> tuple:
        """The level its picker adds an entry at and the levels to choose from (its add
        form's), or (None, ()) for a list whose entries have no level (gifts, faults): the
        picker then offers no "Add at"."""
        form = self.add_form
        if "level" not in form.fields:
            return None, ()
        chosen = self.picker_level
        return form["level"].value() if chosen is None else chosen, form.fields["level"].choices

    @property
    def noun_said(self) -> str:
        """One of this list in the reader's language: "skill", "compétence"."""
        return SPEAKER.noun(self.ruleset.terms.list_noun(TRAIT_LISTS[self.kind]))

    @property
    def a_noun(self) -> str:
        """The same with its article: "a skill", "une compétence"."""
        return SPEAKER.noun(self.ruleset.terms.list_noun(TRAIT_LISTS[self.kind], article=True))

    @property
    def pick_count(self) -> int:
        return pick_count(self.ruleset, self.kind)

    @property
    def datalist(self) -> SafeString:
        return catalog_datalist(self.ruleset, self.kind)


def bought_in_play(value, ruleset: Ruleset) -> dict[tuple[str, int], str]:
    """What the ledger's spends changed, by (list, current index): a row's cost is what it
    cost at creation (rules.ledger), so a raised row says where it started."""
    if not value.advancement:
        return {}
    undone = creation_build(value, ruleset)
    notes = {}
    for name, positions in undone.positions.items():
        created = getattr(undone.character, name)
        was = {now: created[then] for then, now in enumerate(positions) if now is not None}
        for now, item in enumerate(getattr(value, name)):
            before = was.get(now)
            # Gifts and faults have no level; a power's level is optional.
            created_at = getattr(before, "level", None)
            if before is None:
                notes[name, now] = _("bought in play")
            elif created_at != getattr(item, "level", None):
                notes[name, now] = (
                    _("raised in play")
                    if created_at is None
                    else _("{level} at creation, raised in play").format(
                        level=level_word(ruleset, created_at)
                    )
                )
    return notes


def catalog_note(ruleset: Ruleset, kind: str, name: str) -> str:
    """What the catalogue (the campaign's, for a campaign character) says of a trait."""
    find = {
        Trait.Kind.SKILL: ruleset.catalog.skill,
        Trait.Kind.GIFT: ruleset.catalog.gift,
        Trait.Kind.FAULT: ruleset.catalog.fault,
    }.get(kind)
    entry = find(name) if find else None
    return rules_text(entry.note) if entry is not None else ""


def catalog_datalist(ruleset: Ruleset, kind: str) -> SafeString:
    """The names to suggest for a new row of `kind` (a trait kind or "equipment"), each with
    a hint, as the <option>s of its add form's <datalist>: the ruleset's catalogue (a
    campaign's own, for a campaign character).

    Kept by the process for the ruleset object and the reader's language: a builder page
    said some 270 catalogue names and hints again for each of its six lists. The object is
    the campaign's as it stands (adapters.ruleset_for keeps one per base game, house rules
    and catalogue version, which the GM's translations follow), so a change is another
    object and never finds a stale list."""
    key = (id(ruleset), kind, get_language())
    kept = _DATALISTS.get(key)
    if kept is not None and kept[0] is ruleset:
        return kept[1]
    said = _catalog_datalist(ruleset, kind)
    # The ruleset is held with its list, so its id names no other object while kept.
    _DATALISTS[key] = (ruleset, said)
    if len(_DATALISTS) > _DATALISTS_KEPT:
        _DATALISTS.pop(next(iter(_DATALISTS)), None)  # the oldest
    return said


_DATALISTS: dict[tuple[int, str, str], tuple[Ruleset, SafeString]] = {}
_DATALISTS_KEPT = 512  # six lists of a campaign in four languages: some twenty campaigns


def _catalog_datalist(ruleset: Ruleset, kind: str) -> SafeString:
    catalog = ruleset.catalog
    if kind == Trait.Kind.ATTRIBUTE:
        names = ((n, "") for n in ruleset.attribute_names or catalog.attributes)
    elif kind == Trait.Kind.SKILL and ruleset.skill_difficulties:
        names = ((s.name, difficulty_label(s.difficulty)) for s in catalog.skills)
    elif kind == Trait.Kind.SKILL:
        names = ((s.name, rules_text(s.note)) for s in catalog.skills)
    elif kind == Trait.Kind.GIFT:
        names = ((g.name, number_text(g.cost)) for g in catalog.gifts)
    elif kind == Trait.Kind.FAULT:
        names = ((f.name, number_text(f.value)) for f in catalog.faults)
    elif kind == EQUIPMENT:
        names = ((e.name, equipment_kind_word(e.kind)) for e in catalog.equipment)
    else:
        names = ()
    # Suggested in the reader's language: what is picked is saved by its key (typed_key).
    return mark_safe(
        "".join(
            f'<option value="{escape(rules_name(name))}">{escape(hint)}</option>'
            for name, hint in names
        )
    )


def pick_count(ruleset: Ruleset, kind: str) -> int:
    """How many entries a list's picker offers."""
    return len(catalog_entries(ruleset, kind))


def _cost_label(kind, trait, cost, ruleset) -> str:
    pool = cost_pool(ruleset, kind, trait.power_kind)
    return units(cost, ruleset.terms.pool_words(pool))  # ½ gift, 2 gifts


def level_word(ruleset: Ruleset, level: int) -> str:
    """A level in the ruleset's ladder words, in the reader's language: "Great", "Très bon"."""
    return _level_word(level, ruleset.ladder, get_language())


@lru_cache(maxsize=1024)  # two steps on every row of every page
def _level_word(level: int, ladder, language: str) -> str:
    return SPEAKER.level(Level(level, ladder))


def issues_by_trait(by_kind: dict[str, list], report: Report) -> dict[int, list]:
    """The report's errors about one row, by the trait's id: the report names a row by its
    place in a list ("skills[3]"), which moves when a row before it goes."""
    issues: dict[int, list] = {}
    for issue in report.errors:  # no warning names a row: they are about the whole build
        list_name, _, index = (issue.where or "").rstrip("]").partition("[")
        kind = REPORT_KINDS.get(list_name)
        if kind is None or not index.isdigit() or int(index) >= len(by_kind[kind]):
            continue  # about the whole build, or a row the page does not have
        issues.setdefault(by_kind[kind][int(index)].pk, []).append(issue)
    return issues


def broken_rules(issues: dict[int, list], report: Report) -> list[tuple[object, str]]:
    """Each broken rule with where the page shows it: the row it is about, else the
    budget panel (a rule about the whole build)."""
    row_of = {id(issue): pk for pk, found in issues.items() for issue in found}
    return [
        (issue, f"trait-{row_of[id(issue)]}" if id(issue) in row_of else "budget-panel")
        for issue in report.errors
    ]


class Verdict(NamedTuple):
    """What the page shows of a build's report beyond the budget: each row's issue marks (by
    trait id) and the count of broken rules. Taken before and after an edit, so only what
    changed is sent again."""

    marks: dict[int, tuple]
    broken: int

    @classmethod
    def of(cls, issues: dict[int, list], report: Report) -> "Verdict":
        marks = {
            pk: tuple((i.code, i.message, i.section) for i in found) for pk, found in issues.items()
        }
        return cls(marks, len(report.errors))


def _trait_form(forms, trait, controls: RowControls, version, ruleset: Ruleset):
    values = {
        **version,
        # A built-in name in the reader's language (the form saves its key back: typed_key).
        "name": rules_name(trait.name),
        "level": trait.level,
        "difficulty": trait.difficulty,
        "cost": trait.cost,
        "power_kind": trait.power_kind,
    }
    refused = forms.get(f"trait-{trait.pk}")
    if refused is not None:
        return refused
    level = controls.fields.get("level")
    if level is not None and trait.level is not None and trait.level not in dict(level.choices):
        # At a level creation does not offer (bought with experience, imported so): a form
        # of its own, which keeps that level among the choices.
        return TraitForm(
            kind=trait.kind,
            ruleset=ruleset,
            keep_level=trait.level,
            initial=values,
            auto_id=f"trait-{trait.pk}-%s",
        )
    return controls.draw(f"trait-{trait.pk}-", values)


def _add_form(forms, kind, ruleset, version):
    return forms.get(f"add-{kind}") or trait_controls(kind, ruleset).draw(
        f"add-{kind}-", {**version, "level": _default_level(kind, ruleset)}
    )


def _equipment_form(forms, item, controls: RowControls, version):
    return forms.get(f"equipment-{item.pk}") or controls.draw(
        f"equipment-{item.pk}-",
        {
            **version,
            "name": rules_name(item.name),
            "kind": item.kind,
            "damage": item.damage,
            "armour": item.armour,
            "notes": item.notes,
        },
    )


def _quoted_at(level) -> int:
    """A picker's Add at as a level to quote costs at: Fair where it holds none."""
    try:
        return int(level)
    except (TypeError, ValueError):
        return FAIR


def trait_sections(
    ruleset: Ruleset,
    value,
    report: Report,
    by_kind: dict[str, list],
    issues: dict[int, list],
    gift_names: frozenset[str],
    *,
    forms: dict,
    version: dict,
) -> list[Section]:
    """Each list of traits the ruleset has, with its rows: each row's creation cost, the
    report's issues about it and what play changed of it. `forms` and `version` as
    builder_context's."""
    in_play = bought_in_play(value, ruleset)
    sections = []
    for kind, list_name in TRAIT_LISTS.items():
        if list_name not in ruleset.terms.lists:
            continue  # MicroFudged has no gifts or faults
        title, noun = ruleset.terms.lists[list_name]
        costs = report.costs.get(list_name, [])
        controls = trait_controls(kind, ruleset)
        rows = [
            Row(
                trait,
                partial(_trait_form, forms, trait, controls, version, ruleset),
                ruleset,
                costs[index] if index < len(costs) else 0,
                issues.get(trait.pk, []),
                in_play.get((list_name, index), ""),
                refused=f"trait-{trait.pk}" in forms,
            )
            for index, trait in enumerate(by_kind[kind])
        ]
        sections.append(
            Section(
                kind,
                title,
                rows,
                partial(_add_form, forms, kind, ruleset, version),
                ruleset,
                gift_names,
                noun,
                add_refused=f"add-{kind}" in forms,
            )
        )
    return sections


def equipment_rows(character: Character, ruleset: Ruleset, *, forms: dict, version: dict):
    """The character's equipment, a row each: equipment costs nothing from the budget."""
    controls = equipment_controls(ruleset)
    return [
        Row(item, partial(_equipment_form, forms, item, controls, version))
        for item in character.equipment.all()
    ]


class RowUrls:
    """The URL of each row of a page under a URL name that takes the character's id and the
    row's (trait_update, equipment_delete...), at the price of one reverse a name: reversed
    with a stand-in row id, then each row's id put in its place."""

    STAND_IN = 987_654_321

    def __init__(self, character_pk: int):
        self.character_pk = character_pk
        self._around: dict[str, tuple[str, str]] = {}

    def __call__(self, name: str, pk: int) -> str:
        around = self._around.get(name)
        if around is None:
            url = reverse(name, args=[self.character_pk, self.STAND_IN])
            # The row's id comes after the character's in every such URL: the last match.
            before, _, after = url.rpartition(str(self.STAND_IN))
            around = self._around[name] = (before, after)
        return f"{around[0]}{pk}{around[1]}"


def _default_level(kind: str, ruleset: Ruleset):
    if kind == Trait.Kind.ATTRIBUTE:
        return ruleset.attribute_default
    if kind == Trait.Kind.SKILL:
        return ruleset.skill_default + 1  # one level up from the default: the usual first buy
    # A power: a field of power from its floor (Abysmal, DIP VIII.1), a spell at Fair.
    return ruleset.power_default if ruleset.system != LEVELS else FAIR
