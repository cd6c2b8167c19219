"""The builder page's context: every row with its form, its cost and the report's issues
about it, and the budget panel. One pass over prefetched rows: the query count does not
grow with the number of traits."""

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, partial

from characters.adapters import character_to_rules, ruleset_for
from characters.forms.builder import (
    PERSONALITY_QUESTIONS,
    DetailsForm,
    EquipmentForm,
    PersonalityForm,
    TraitForm,
)
from characters.models import CatalogEntry, Character, Trait
from rules.catalogues import microfudged, mudge
from rules.house_rules import json_number
from rules.report import POOL_UNITS, Report, build_report
from rules.rulesets import LEVELS, Ruleset
from rules.templates import BY_SLUG, unmet_minimums

SECTION_TITLES = {
    LEVELS: {
        Trait.ATTRIBUTE: "Attributes",
        Trait.SKILL: "Skills",
        Trait.GIFT: "Gifts",
        Trait.FAULT: "Faults",
        Trait.POWER: "Powers",
    },
    "tokens": {
        Trait.ATTRIBUTE: "Abilities",
        Trait.SKILL: "Fields of expertise",
        Trait.POWER: "Fields of power",
    },
}
SECTION_NOUNS = {
    "Attributes": "attribute",
    "Skills": "skill",
    "Gifts": "gift",
    "Faults": "fault",
    "Powers": "power",
    "Abilities": "ability",
    "Fields of expertise": "field of expertise",
    "Fields of power": "field of power",
}
REPORT_LISTS = {
    Trait.ATTRIBUTE: "attributes",
    Trait.SKILL: "skills",
    Trait.GIFT: "gifts",
    Trait.FAULT: "faults",
    Trait.POWER: "powers",
}
POOL_LABELS = {
    "attributes": "Attribute levels",
    "skills": "Skill levels",
    "gifts": "Gifts",
    "faults": "Faults",
    "tokens": "Tokens",
}


@dataclass
class Row:
    """A row of the builder. Its form is made only when a template renders it: an edit
    re-renders one row, and building sixty forms it does not show would cost more than
    the rest of the request."""

    trait: object
    make_form: Callable[[], object]
    cost: str = ""
    issues: list = field(default_factory=list)

    @cached_property
    def form(self):
        return self.make_form()


@dataclass
class Section:
    kind: str
    title: str
    rows: list[Row]
    make_add_form: Callable[[], TraitForm]
    options: list[tuple[str, str]]  # catalogue (name, hint) for the add form's datalist
    noun: str = ""  # one of them, for "Add a skill…"

    @cached_property
    def add_form(self) -> TraitForm:
        return self.make_add_form()


@dataclass
class Pool:
    key: str
    label: str
    budget: object
    spent: object
    over: bool


def report_for(character: Character) -> tuple[Ruleset, Report]:
    ruleset = ruleset_for(character)
    return ruleset, build_report(character_to_rules(character), ruleset)


def _priced(character: Character):
    ruleset = ruleset_for(character)
    value = character_to_rules(character)
    return ruleset, value, build_report(value, ruleset)


def catalogue_options(character: Character, ruleset: Ruleset) -> dict[str, list]:
    """Names to suggest per trait kind: the campaign's catalogue, else the built-in one."""
    if character.campaign_id:
        options: dict[str, list] = {}
        for entry in character.campaign.catalog.all():
            kind = {CatalogEntry.POWER_KIND: None, CatalogEntry.EQUIPMENT: "equipment"}.get(
                entry.kind, entry.kind
            )
            if kind:
                hint = (
                    entry.difficulty.replace("_", " ")
                    if entry.difficulty
                    else (f"{json_number(entry.cost)}" if entry.cost is not None else entry.note)
                )
                options.setdefault(kind, []).append((entry.name, hint))
        return options
    catalog = mudge.CATALOG if ruleset.system == LEVELS else microfudged.DIP_CATALOG
    return {
        Trait.ATTRIBUTE: [(n, "") for n in ruleset.attribute_names or catalog.attributes],
        Trait.SKILL: [(s.name, s.difficulty.replace("_", " ")) for s in catalog.skills],
        Trait.GIFT: [(g.name, str(json_number(g.cost))) for g in catalog.gifts],
        Trait.FAULT: [(f.name, str(json_number(f.value))) for f in catalog.faults],
        "equipment": [(e.name, e.kind) for e in catalog.equipment],
    }


def _cost_label(kind, trait, cost, ruleset) -> str:
    if ruleset.system != LEVELS:
        pool = "tokens"
    elif kind == Trait.POWER:
        spell_like = trait.power_kind in ("spell", "psi") and ruleset.skill_difficulties
        pool = "skills" if spell_like else "gifts"
    else:
        pool = REPORT_LISTS[kind]
    one, many = POOL_UNITS[pool]
    value = json_number(cost)
    return f"{value} {one if value in (1, -1) else many}"


def builder_context(
    character: Character, *, forms: dict | None = None, template_slug: str = ""
) -> dict:
    """Everything builder.html renders. `forms` replaces a row's form (e.g. "trait-12",
    "add-skill", "details") with a bound one that failed validation; `template_slug` picks
    the Mudge 6.4 template whose unmet minimums the panel lists."""
    forms = forms or {}
    ruleset, value, report = _priced(character)
    version = {"version": character.version}
    by_kind = {kind: [] for kind, _ in Trait.KINDS}
    for trait in character.traits.all():
        by_kind[trait.kind].append(trait)
    issues_by_row: dict[str, list] = {}
    for issue in report.errors + report.warnings:
        if issue.where:
            issues_by_row.setdefault(issue.where, []).append(issue)

    options = catalogue_options(character, ruleset)
    sections = []
    for kind, title in SECTION_TITLES[ruleset.system].items():
        list_name = REPORT_LISTS[kind]
        costs = report.costs.get(list_name, [])
        rows = []
        for index, trait in enumerate(by_kind[kind]):
            cost = costs[index] if index < len(costs) else 0
            rows.append(
                Row(
                    trait,
                    partial(_trait_form, forms, trait, ruleset, version),
                    _cost_label(kind, trait, cost, ruleset),
                    issues_by_row.get(f"{list_name}[{index}]", []),
                )
            )
        sections.append(
            Section(
                kind,
                title,
                rows,
                partial(_add_form, forms, kind, ruleset, version),
                options.get(kind, []),
                SECTION_NOUNS.get(title, title.lower()),
            )
        )

    equipment_rows = [
        Row(item, partial(_equipment_form, forms, item, version))
        for item in character.equipment.all()
    ]
    personality = character.personality or {}
    return {
        "character": character,
        "ruleset": ruleset,
        "report": report,
        "pools": pools_of(report),
        "sections": sections,
        "equipment_rows": equipment_rows,
        "equipment_options": options.get("equipment", []),
        "add_equipment_form": forms.get("add-equipment")
        or EquipmentForm(auto_id="add-equipment-%s", initial={**version, "kind": "gear"}),
        "details_form": forms.get("details")
        or DetailsForm(
            auto_id="details-%s",
            initial={
                **version,
                "name": character.name,
                "concept": character.concept,
                "race": character.race,
                "scale_strength": character.scale_strength,
                "scale_mass": character.scale_mass,
                "meta_points": character.meta_points,
            },
        ),
        "personality_form": forms.get("personality")
        or PersonalityForm(
            auto_id="personality-%s",
            initial={
                **version,
                "notes": character.notes,
                **{f"q_{k}": personality.get(k, "") for k, _ in PERSONALITY_QUESTIONS},
            },
        ),
        "templates": list(BY_SLUG.values()) if ruleset.system == LEVELS else [],
        "template_check": template_check(value, template_slug),
        "balance_label": f"{json_number(report.balance)} "
        f"{ruleset.unit if abs(report.balance) == 1 else ruleset.unit + 's'}",
    }


def _trait_form(forms, trait, ruleset, version) -> TraitForm:
    return forms.get(f"trait-{trait.pk}") or TraitForm(
        kind=trait.kind,
        ruleset=ruleset,
        auto_id=f"trait-{trait.pk}-%s",
        initial={
            **version,
            "name": trait.name,
            "level": trait.level,
            "difficulty": trait.difficulty,
            "cost": trait.cost,
            "power_kind": trait.power_kind,
        },
    )


def _add_form(forms, kind, ruleset, version) -> TraitForm:
    return forms.get(f"add-{kind}") or TraitForm(
        kind=kind,
        ruleset=ruleset,
        auto_id=f"add-{kind}-%s",
        initial={**version, "level": _default_level(kind, ruleset)},
    )


def _equipment_form(forms, item, version) -> EquipmentForm:
    return forms.get(f"equipment-{item.pk}") or EquipmentForm(
        auto_id=f"equipment-{item.pk}-%s",
        initial={
            **version,
            "name": item.name,
            "kind": item.kind,
            "damage": item.damage,
            "armour": item.armour,
            "notes": item.notes,
        },
    )


def pools_of(report: Report) -> list[Pool]:
    pools = []
    for key, numbers in report.pools.items():
        if "budget" in numbers:
            pools.append(
                Pool(
                    key,
                    POOL_LABELS[key],
                    json_number(numbers["budget"]),
                    json_number(numbers["spent"]),
                    numbers["spent"] > numbers["budget"],
                )
            )
        else:
            pools.append(Pool(key, POOL_LABELS[key], None, json_number(numbers["value"]), False))
    return pools


def _default_level(kind: str, ruleset: Ruleset):
    if kind == Trait.ATTRIBUTE:
        return ruleset.attribute_default
    if kind == Trait.SKILL:
        return ruleset.skill_default + 1  # one level up from the default: the usual first buy
    return None


def template_check(value, slug: str) -> dict | None:
    """The chosen Mudge 6.4 template and the minimums this character does not meet."""
    template = BY_SLUG.get(slug)
    if template is None:
        return None
    return {"template": template, "unmet": unmet_minimums(value, template)}
