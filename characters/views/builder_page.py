"""The builder page's context: every row with its form, its cost and the report's issues
about it, and the budget panel. One pass over prefetched rows: the query count does not
grow with the number of traits. It lives with the views, not the selectors, because it
builds forms (the layers in pyproject.toml)."""

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, partial
from html import escape
from typing import NamedTuple

from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _

from characters import vocabulary
from characters.adapters import (
    TRAIT_LISTS,
    build_changed,
    character_to_rules,
    cost_pool,
    override_summary,
    ruleset_for,
    traits_by_kind,
)
from characters.forms.builder import (
    DetailsForm,
    PersonalityForm,
    UncommittedForm,
    equipment_controls,
    trait_controls,
)
from characters.forms.row_controls import RowControls
from characters.models import Character, Trait
from characters.selectors.history import history_steps
from characters.selectors.threads import threads_on
from characters.views.picker import (
    EQUIPMENT,
    catalog_entries,
    catalog_picks,
    difficulty_word,
    equipment_kind_word,
    units,
)
from characters.wording import SPEAKER, said
from rules.character import PERSONALITY_QUESTIONS
from rules.house_rules import json_number
from rules.ladder import FAIR
from rules.ledger import creation_build
from rules.numbers import number_text
from rules.report import Report, build_report, scale_phrases
from rules.rulesets import LEVELS, Ruleset
from rules.tables import creation_levels
from rules.templates import apply_template, templates_for, unmet_minimums
from rules.trades import amount_phrase
from rules.words import Level, Noun

REPORT_KINDS = {name: kind for kind, name in TRAIT_LISTS.items()}

# The built-in rulesets' hints above the equipment and the personality questions
# (rules.rulesets.Terms), marked for the catalogue; any other ruleset's is shown as written.
HINTS = frozenset(
    (
        gettext_noop("Answer what helps the character come alive; none is required."),
        gettext_noop("Mudge 1.35: answer what helps the character come alive; none is required."),
        gettext_noop(
            "MicroFudged DIP I: one sentence says who the character is (the concept), "
            "another what they want; the rest helps them come alive."
        ),
        gettext_noop(
            "Gear adds or subtracts cards: a weapon's cards go to Attack or Defence, "
            "armour's always and only to Defence (MicroFudged DIP VII.2)."
        ),
        gettext_noop(
            "Weapons feed the offensive damage factor, armour the defensive one (Fudge "
            "Basics, Offensive and Defensive Damage Factors)."
        ),
        gettext_noop(
            "Weapons feed the offensive damage factor, armour the defensive one (Mudge 4.54)."
        ),
    )
)


def hint(text: str) -> str:
    """A ruleset's hint in the reader's language (HINTS); a GM's own as written."""
    return _(text) if text in HINTS else text


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

    @cached_property
    def add_form(self):
        return self.make_add_form()

    @cached_property
    def picks(self) -> list:
        """The catalogue's entries for this list, with what adding each does (the picker)."""
        return catalog_picks(self.ruleset, self.gift_names, self.kind)

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


@dataclass
class Pool:
    key: str
    label: str
    budget: object
    spent: object
    over: bool


# Advice the GM's approval settles: the creation build's unspent levels went when play
# started (Mudge 1.6), and each spend the rules hand to the GM went through them (a request
# they accepted, or their own spend). An approved character's panel no longer gives it.
SETTLED_BY_APPROVAL = frozenset({"levels_unspent", "gm_permission"})


def _priced(character: Character):
    ruleset = ruleset_for(character)
    value = character_to_rules(character)
    report = build_report(value, ruleset)
    if character.state == Character.State.APPROVED:
        report.warnings = [w for w in report.warnings if w.code not in SETTLED_BY_APPROVAL]
    return ruleset, value, report


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
    return entry.note if entry is not None else ""


def catalog_datalist(ruleset: Ruleset, kind: str) -> SafeString:
    """The names to suggest for a new row of `kind` (a trait kind or "equipment"), each with
    a hint, as the <option>s of its add form's <datalist>: the ruleset's catalogue (a
    campaign's own, for a campaign character)."""
    catalog = ruleset.catalog
    if kind == Trait.Kind.ATTRIBUTE:
        names = ((n, "") for n in ruleset.attribute_names or catalog.attributes)
    elif kind == Trait.Kind.SKILL and ruleset.skill_difficulties:
        names = ((s.name, difficulty_word(s.difficulty)) for s in catalog.skills)
    elif kind == Trait.Kind.SKILL:
        names = ((s.name, s.note) for s in catalog.skills)
    elif kind == Trait.Kind.GIFT:
        names = ((g.name, number_text(g.cost)) for g in catalog.gifts)
    elif kind == Trait.Kind.FAULT:
        names = ((f.name, number_text(f.value)) for f in catalog.faults)
    elif kind == EQUIPMENT:
        names = ((e.name, equipment_kind_word(e.kind)) for e in catalog.equipment)
    else:
        names = ()
    return _datalist(tuple(names))


def pick_count(ruleset: Ruleset, kind: str) -> int:
    """How many entries a list's picker offers."""
    return len(catalog_entries(ruleset, kind))


@lru_cache(maxsize=256)  # the same catalogue on every page of a campaign
def _datalist(names: tuple[tuple[str, str], ...]) -> SafeString:
    return mark_safe(
        "".join(f'<option value="{escape(name)}">{escape(hint)}</option>' for name, hint in names)
    )


def _cost_label(kind, trait, cost, ruleset) -> str:
    pool = cost_pool(ruleset, kind, trait.power_kind)
    return units(cost, ruleset.terms.pool_words(pool))  # ½ gift, 2 gifts


def level_word(ruleset: Ruleset, level: int) -> str:
    """A level in the ruleset's ladder words, in the reader's language: "Great", "Très bon"."""
    return _level_word(level, ruleset.ladder, get_language())


@lru_cache(maxsize=1024)  # two steps on every row of every page
def _level_word(level: int, ladder, language: str) -> str:
    return SPEAKER.level(Level(level, ladder))


def balance_label(balance, ruleset: Ruleset) -> str:
    """The balance as the budget panel says it, in the reader's language: "-3 skill
    levels", "1 token" (selectors.campaigns.balance_words in English)."""
    pool = "skills" if ruleset.system == LEVELS else "tokens"
    return said(amount_phrase(balance, pool, ruleset.terms))


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


def shown_verdict(character: Character) -> Verdict:
    _, _, report = _priced(character)
    return Verdict.of(issues_by_trait(traits_by_kind(character), report), report)


def builder_context(
    character: Character, *, forms: dict | None = None, template_slug: str = "", viewer=None
) -> dict:
    """Everything builder.html renders. `forms` replaces a row's form (e.g. "trait-12",
    "add-skill", "details", "uncommitted") with a bound one that failed validation;
    `template_slug` picks the Mudge 6.4 template whose unmet minimums the panel lists;
    `viewer`, when given, may be offered to define an uncommitted trait. Forms and catalogue
    lists are made when a template first reads them, so an edit's fragments pay only for
    what they show."""
    forms = forms or {}
    ruleset, value, report = _priced(character)
    version = {"version": character.version}
    by_kind = traits_by_kind(character)
    in_play = bought_in_play(value, ruleset)
    issues = issues_by_trait(by_kind, report)
    gift_names = frozenset(g.name.casefold() for g in value.gifts)
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
                partial(_trait_form, forms, trait, controls, version),
                ruleset,
                costs[index] if index < len(costs) else 0,
                issues.get(trait.pk, []),
                in_play.get((list_name, index), ""),
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
            )
        )

    controls = equipment_controls(ruleset)
    equipment_rows = [
        Row(item, partial(_equipment_form, forms, item, controls, version))
        for item in character.equipment.all()
    ]
    return {
        "character": character,
        "ruleset": ruleset,
        "report": report,
        # An approved build changed behind the app (issue 31): only approved ones are hashed.
        "build_changed": build_changed(character),
        "pools": pools_of(report, ruleset),
        "catalogue_title": catalogue_title(ruleset),
        "equipment_hint": hint(ruleset.terms.equipment_hint),
        "personality_hint": hint(ruleset.terms.personality_hint),
        "sections": sections,
        "equipment_rows": equipment_rows,
        "row_urls": RowUrls(character.pk),
        "equipment_datalist": SimpleLazyObject(partial(catalog_datalist, ruleset, EQUIPMENT)),
        # A callable, read as a plain int when the picker is drawn: the count of its
        # "entries" is a plural, which a lazy object cannot choose the form of.
        "equipment_pick_count": partial(pick_count, ruleset, EQUIPMENT),
        "equipment_picks": SimpleLazyObject(partial(catalog_picks, ruleset, gift_names, EQUIPMENT)),
        "add_equipment_form": forms.get("add-equipment")
        or SimpleLazyObject(lambda: equipment_controls(ruleset).draw("add-equipment-", version)),
        "details_form": forms.get("details")
        or SimpleLazyObject(partial(_details_form, character, ruleset, version)),
        "personality_form": forms.get("personality")
        or SimpleLazyObject(partial(_personality_form, character, version)),
        "templates": list(ruleset.templates),
        "template_check": template_check(value, ruleset, template_slug, report),
        # Called by the page only when it renders the templates panel.
        "history": partial(history_steps, character),
        # The GM's and the player's threads: at the top and beside the rows they are on.
        "threads": SimpleLazyObject(partial(threads_on, character, ruleset.terms.gm)),
        # Read only for an approved build, by the budget and review panels: once.
        "approval_override": SimpleLazyObject(partial(approval_override, character, ruleset)),
        "uncommitted": uncommitted_slots(character, ruleset, viewer, forms.get("uncommitted")),
        "balance_label": balance_label(report.balance, ruleset),
        "verdict": Verdict.of(issues, report),
        "broken_rules": broken_rules(issues, report),
        "scale_notes": scale_phrases(value, ruleset),
        # The campaign's GM reading the build: the template panel links the house rules.
        "is_gm": viewer is not None
        and character.campaign is not None
        and character.campaign.gm_id == viewer.pk,
    }


def _details_form(character, ruleset, version) -> DetailsForm:
    return DetailsForm(
        ruleset=ruleset,
        auto_id="details-%s",
        initial={
            **version,
            "name": character.name,
            "player": character.player,
            "concept": character.concept,
            "race": character.race,
            "scale_strength": character.scale_strength,
            "scale_mass": character.scale_mass,
            "meta_points": character.meta_points,
        },
    )


def _personality_form(character, version) -> PersonalityForm:
    personality = character.personality or {}
    return PersonalityForm(
        auto_id="personality-%s",
        initial={
            **version,
            "notes": character.notes,
            **{f"q_{k}": personality.get(k, "") for k, _ in PERSONALITY_QUESTIONS},
        },
    )


def _trait_form(forms, trait, controls: RowControls, version):
    return forms.get(f"trait-{trait.pk}") or controls.draw(
        f"trait-{trait.pk}-",
        {
            **version,
            "name": trait.name,
            "level": trait.level,
            "difficulty": trait.difficulty,
            "cost": trait.cost,
            "power_kind": trait.power_kind,
        },
    )


def _add_form(forms, kind, ruleset, version):
    return forms.get(f"add-{kind}") or trait_controls(kind, ruleset).draw(
        f"add-{kind}-", {**version, "level": _default_level(kind, ruleset)}
    )


def _equipment_form(forms, item, controls: RowControls, version):
    return forms.get(f"equipment-{item.pk}") or controls.draw(
        f"equipment-{item.pk}-",
        {
            **version,
            "name": item.name,
            "kind": item.kind,
            "damage": item.damage,
            "armour": item.armour,
            "notes": item.notes,
        },
    )


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


def catalogue_title(ruleset: Ruleset) -> str:
    """What the campaign's catalogue holds, in the ruleset's words: "The fields of
    expertise, fields of power and equipment your Narrator lists, with their notes"."""
    terms = ruleset.terms
    names = ["skills", "gifts", "faults"] if ruleset.gifts_and_faults else ["skills", "powers"]
    lists = ", ".join(SPEAKER.noun(terms.list_noun(name, 2)) for name in names)
    return _("The {lists} and equipment your {gm} lists, with their notes").format(
        lists=lists, gm=vocabulary.term(terms.gm, "game master")
    )


def pool_label(pool: str, ruleset: Ruleset) -> str:
    """A budget's pool in the ruleset's words: "Attribute levels", "Tokens", "Knack
    levels" in a GM's game of knacks."""
    return SPEAKER.noun(Noun(*ruleset.terms.pool_words(pool), 2, capital=True))


def pools_of(report: Report, ruleset: Ruleset) -> list[Pool]:
    """Each pool spent against its budget; a pool is over only past what the trades bring
    it (3 skill levels → 1 attribute level covers a fourth attribute level)."""
    traded = dict.fromkeys(report.pools, 0)
    for trade in report.trades:
        traded[trade.get_pool] = traded.get(trade.get_pool, 0) + trade.get
        traded[trade.give_pool] = traded.get(trade.give_pool, 0) - trade.give
    pools = []
    for key, numbers in report.pools.items():
        if "budget" in numbers:
            pools.append(
                Pool(
                    key,
                    pool_label(key, ruleset),
                    json_number(numbers["budget"]),
                    json_number(numbers["spent"]),
                    numbers["spent"] > numbers["budget"] + traded[key],
                )
            )
        else:
            pools.append(
                Pool(key, pool_label(key, ruleset), None, json_number(numbers["value"]), False)
            )
    return pools


def _default_level(kind: str, ruleset: Ruleset):
    if kind == Trait.Kind.ATTRIBUTE:
        return ruleset.attribute_default
    if kind == Trait.Kind.SKILL:
        return ruleset.skill_default + 1  # one level up from the default: the usual first buy
    # A power: a field of power from its floor (Abysmal, DIP VIII.1), a spell at Fair.
    return ruleset.power_default if ruleset.system != LEVELS else FAIR


def template_check(value, ruleset: Ruleset, slug: str, report: Report) -> dict | None:
    """The chosen Mudge 6.4 template, the minimums this character does not meet, and what
    applying it would do: each change, and the balance and broken rules before and after."""
    template = templates_for(ruleset).get(slug)
    if template is None:
        return None
    after = apply_template(value, template, ruleset)
    priced = build_report(after, ruleset)
    before = {_issue_key(issue) for issue in report.errors}
    now = {_issue_key(issue) for issue in priced.errors}
    return {
        "template": template,
        "unmet": unmet_minimums(value, template),
        "changes": template_changes(value, after, ruleset),
        "balance_before": balance_label(report.balance, ruleset),
        "balance_after": balance_label(priced.balance, ruleset),
        # The rules it would break, and those it would mend, each in words with its section.
        "breaks": _unique(i for i in priced.errors if _issue_key(i) not in before),
        "mends": _unique(i for i in report.errors if _issue_key(i) not in now),
        "breaks_caps": any(
            i.code == "cap_exceeded" and _issue_key(i) not in before for i in priced.errors
        ),
    }


def _issue_key(issue) -> tuple:
    return issue.code, issue.trait, issue.message


def _unique(issues) -> list:
    """The issues once each, by message: a cap broken by four attributes is one line."""
    seen, unique = set(), []
    for issue in issues:
        if issue.message not in seen:
            seen.add(issue.message)
            unique.append(issue)
    return unique


def template_changes(before, after, ruleset: Ruleset) -> list[str]:
    """What a template changes, one line each: "Strength Fair → Good", "gift Night Vision",
    "Scale -2 / -2"."""
    lines = []
    for name in ("attributes", "skills"):
        was = {t.name.casefold(): t.level for t in getattr(before, name)}
        for trait in getattr(after, name):
            old = was.get(trait.name.casefold())
            if old != trait.level:
                to = level_word(ruleset, trait.level)
                lines.append(
                    _("{name} new → {level}").format(name=trait.name, level=to)
                    if old is None
                    else _("{name} {start} → {level}").format(
                        name=trait.name, start=level_word(ruleset, old), level=to
                    )
                )
    for name in ("gifts", "faults"):
        noun = SPEAKER.noun(ruleset.terms.list_noun(name))
        lines += [
            _("{noun} {name}").format(noun=noun, name=item.name)
            for item in getattr(after, name)[len(getattr(before, name)) :]
        ]
    if after.race != before.race:
        lines.append(_("race {race}").format(race=after.race))
    if (after.scale_strength, after.scale_mass) != (before.scale_strength, before.scale_mass):
        lines.append(
            _("Scale {strength} / {mass}").format(
                strength=after.scale_strength, mass=after.scale_mass
            )
        )
    return lines


def approval_override(character: Character, ruleset: Ruleset) -> str:
    """When the GM approved the build over broken rules, what the approval says, e.g.
    "approved over budget by 12 skill levels: a veteran of the siege"; else nothing. The
    approved build's panels say the GM chose so, and why."""
    approval = character.approvals.first()
    return "" if approval is None else override_summary(approval, terms=ruleset.terms)


@dataclass
class Uncommitted:
    """Mudge 1.7's uncommitted traits: how many are left open, which were defined in play,
    the most a new one may be, and the form that defines one (for whoever may)."""

    open: int
    defined: list[tuple[str, str]]  # (name, level word)
    top: str
    section: str
    gm: str
    form: UncommittedForm | None = None

    @property
    def open_slots(self) -> range:
        return range(self.open)


def uncommitted_slots(
    character: Character, ruleset: Ruleset, viewer=None, form=None
) -> Uncommitted | None:
    if not ruleset.uncommitted_traits:
        return None
    defined = [
        (t.name, level_word(ruleset, t.level)) for t in character.traits.all() if t.defined_in_play
    ]
    slots = Uncommitted(
        open=max(ruleset.uncommitted_traits - len(defined), 0),
        defined=defined,
        top=level_word(ruleset, ruleset.uncommitted_max),
        section=ruleset.section("uncommitted"),
        gm=vocabulary.term(ruleset.terms.gm, "game master"),
    )
    if form is not None:  # refused: shown again with why
        slots.form = form
    elif slots.open and viewer is not None and may_define_uncommitted(character, viewer):
        slots.form = UncommittedForm(
            ruleset=ruleset, auto_id="uncommitted-%s", initial={"version": character.version}
        )
    return slots


def may_define_uncommitted(character: Character, user) -> bool:
    """Mudge 1.7: defined in play, "subject to the GM's approval": the campaign's GM, once the
    build is approved; the owner of a character outside any campaign."""
    if character.campaign_id is None:
        return character.owner_id == user.pk
    return character.campaign.gm_id == user.pk and character.state == Character.State.APPROVED
