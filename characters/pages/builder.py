"""The builder page's context: its rows (pages.builder_rows), the budget panel, the
template panel and the forms of the whole character. One pass over prefetched rows: the
query count does not grow with the number of traits."""

from dataclasses import dataclass
from functools import partial

from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from characters import vocabulary
from characters.adapters import (
    build_changed,
    character_to_rules,
    override_summary,
    ruleset_for,
    traits_by_kind,
)
from characters.forms.builder import (
    DetailsForm,
    PersonalityForm,
    UncommittedForm,
    equipment_controls,
)
from characters.kept import KeptUnderRules
from characters.models import Character
from characters.pages.builder_rows import (
    RowUrls,
    Verdict,
    broken_rules,
    catalog_datalist,
    equipment_rows,
    issues_by_trait,
    level_word,
    pick_count,
    trait_sections,
)
from characters.pages.picker import EQUIPMENT, catalog_picks
from characters.rules_content import rules_name
from characters.selectors.advancement import settled_report
from characters.selectors.history import history_steps
from characters.selectors.threads import threads_on
from characters.sheets import derived_rows, tracker_rows
from characters.wording import SPEAKER, said
from rules.character import PERSONALITY_QUESTIONS
from rules.house_rules import json_number
from rules.report import Report, build_report, scale_phrases
from rules.rulesets import LEVELS, Ruleset
from rules.templates import apply_template, templates_for, unmet_minimums
from rules.trades import amount_phrase
from rules.words import Noun


@dataclass
class Pool:
    key: str
    label: str
    budget: object
    spent: object
    over: bool


def _priced(character: Character):
    ruleset = ruleset_for(character)
    value = character_to_rules(character)
    return ruleset, value, settled_report(character, build_report(value, ruleset))


def balance_label(balance, ruleset: Ruleset) -> str:
    """The balance as the budget panel says it, in the reader's language: "-3 skill
    levels", "1 token" (selectors.campaigns.balance_words in English)."""
    pool = "skills" if ruleset.system == LEVELS else "tokens"
    return said(amount_phrase(balance, pool, ruleset.terms))


# The verdict each page and edit answer drew last, by character, version, rules and language:
# an edit compares the verdict after it against the one the page shows (shown_verdict), and
# pricing the build as it stood before the edit was a second pricing a request (issue 40).
# Whatever a verdict reads moves the character's version (every write does) or is another
# ruleset (characters.kept): one drawn under other rules than the character's now (the GM
# changed the house rules or the catalogue since the page was drawn) says the page shows a
# verdict no pricing here can tell again.
# created_at tells a character from one that had its id before (a rolled-back test's, on
# SQLite).
_DRAWN_VERDICTS = KeptUnderRules(limit=512)  # characters being edited at once, in one process


def _verdict_key(character: Character) -> tuple:
    return (character.pk, character.created_at, character.version, get_language())


def shown_verdict(character: Character) -> Verdict | None:
    """The verdict the page shows of the character as it is: the one drawn at this
    version, else worked out again; None when the page was drawn under other rules (the
    GM changed them since), and shows a verdict that is not the build's under these."""
    ruleset = ruleset_for(character)
    drawn = _DRAWN_VERDICTS.get(_verdict_key(character))
    if drawn is not None:
        drawn_under, verdict = drawn
        return verdict if drawn_under is ruleset else None
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
    issues = issues_by_trait(by_kind, report)
    gift_names = frozenset(g.name.casefold() for g in value.gifts)
    verdict = Verdict.of(issues, report)
    _DRAWN_VERDICTS.put(_verdict_key(character), ruleset, verdict)
    return {
        "character": character,
        "ruleset": ruleset,
        "report": report,
        # An approved build changed behind the app (issue 31): only approved ones are hashed.
        "build_changed": build_changed(character),
        "pools": pools_of(report, ruleset),
        "catalogue_title": catalogue_title(ruleset),
        # A built-in's hints in the reader's language; a GM's own as written.
        "equipment_hint": vocabulary.term(ruleset.terms.equipment_hint, "ruleset note"),
        "personality_hint": vocabulary.term(ruleset.terms.personality_hint, "ruleset note"),
        "sections": trait_sections(
            ruleset, value, report, by_kind, issues, gift_names, forms=forms, version=version
        ),
        "equipment_rows": equipment_rows(character, ruleset, forms=forms, version=version),
        "row_urls": RowUrls(character.pk),
        # Reversed once: each list's picker links to the page (a {% url %} costs 50 µs).
        "builder_url": reverse("character_builder", args=[character.pk]),
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
        "threads": SimpleLazyObject(partial(threads_on, character, ruleset)),
        # Read only for an approved build, by the budget and review panels: once.
        "approval_override": SimpleLazyObject(partial(approval_override, character, ruleset)),
        "uncommitted": uncommitted_slots(character, ruleset, viewer, forms.get("uncommitted")),
        "balance_label": balance_label(report.balance, ruleset),
        "verdict": verdict,
        "broken_rules": broken_rules(issues, report),
        "scale_notes": scale_phrases(value, ruleset),
        # A designed game's derived values and trackers at their start, as the report has
        # worked them out (none in a built-in game).
        "derived_rows": derived_rows(report.derived),
        "tracker_rows": tracker_rows(ruleset.trackers, report.derived),
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
            "race": rules_name(character.race),
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
                    _("{name} new → {level}").format(name=rules_name(trait.name), level=to)
                    if old is None
                    else _("{name} {start} → {level}").format(
                        name=rules_name(trait.name), start=level_word(ruleset, old), level=to
                    )
                )
    for name in ("gifts", "faults"):
        noun = SPEAKER.noun(ruleset.terms.list_noun(name))
        lines += [
            _("{noun} {name}").format(noun=noun, name=rules_name(item.name))
            for item in getattr(after, name)[len(getattr(before, name)) :]
        ]
    if after.race != before.race:
        lines.append(_("race {race}").format(race=rules_name(after.race)))
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
