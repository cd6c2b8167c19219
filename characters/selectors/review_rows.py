"""The GM's review, row by row: each trait in the sheet's order with what it costs, and each
trait or piece of equipment set beside the campaign's catalogue, so that a home-made gift or
a sword whose value was changed stands out with the catalogue's value beside the
character's."""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from characters import vocabulary
from characters.adapters import TRAIT_LISTS, cost_pool, trait_target, traits_by_kind
from characters.models import Character, Equipment, PowerKind, Trait, target_label
from characters.rules_content import rules_name
from characters.wording import SPEAKER
from rules.catalog import Catalog, CatalogFault, CatalogGift, CatalogSkill
from rules.house_rules import json_number
from rules.ladder import signed
from rules.report import POWER_DIFFICULTY, Report
from rules.rulesets import SKILL_DIFFICULTY, Ruleset
from rules.templates import templates_catalog, templates_for
from rules.words import Level


@dataclass(frozen=True)
class ReviewRow:
    kind: str  # "skill", "equipment"...
    name: str
    target: str  # what a comment on it is about: "gift:Luck", "equipment:Sword"
    field: str  # the review form's comment box for it
    facts: tuple[str, ...]  # "Good", "very hard", "spell"
    cost: str  # what it cost at creation, in its pool's words; "" for equipment
    # How it stands against the campaign's catalogue: "" (as listed), else why it is marked
    catalogue: str = ""
    label: str = ""  # its kind in the ruleset's words: "field of expertise"


def review_rows(character: Character, ruleset: Ruleset, report: Report) -> list[ReviewRow]:
    """Every trait, in the sheet's order (attributes, skills, gifts, faults, powers), then
    every piece of equipment. Callers prefetch traits and equipment."""
    rows = []
    by_kind = traits_by_kind(character)
    offered = _Offered(ruleset.catalog, templates_catalog(ruleset))
    for kind, list_name in TRAIT_LISTS.items():
        costs = report.costs.get(list_name, [])
        for index, trait in enumerate(by_kind[kind]):
            spent = costs[index] if index < len(costs) else 0
            rows.append(
                ReviewRow(
                    kind,
                    trait.name,
                    trait_target(trait),
                    f"trait_{trait.pk}",
                    _trait_facts(trait, ruleset),
                    _cost_words(ruleset, trait, spent),
                    _trait_against_catalogue(ruleset, offered, trait),
                    _kind_said(ruleset, kind),
                )
            )
    for item in character.equipment.all():
        rows.append(
            ReviewRow(
                "equipment",
                item.name,
                equipment_target(item),
                f"equipment_{item.pk}",
                _equipment_facts(ruleset, item),
                "",
                _equipment_against_catalogue(ruleset, item),
                pgettext("review row", "equipment"),
            )
        )
    return rows


def equipment_target(item: Equipment) -> str:
    return f"equipment:{item.name}"


def _kind_said(ruleset: Ruleset, kind: str) -> str:
    """A row's kind in the ruleset's words ("field of expertise"), in the reader's language
    when it is a built-in word; a GM's own word as written."""
    one, many = ruleset.terms.kind(kind), ruleset.terms.plural(TRAIT_LISTS[kind])
    return vocabulary.noun(one, many, 1) or one


def _trait_facts(trait: Trait, ruleset: Ruleset) -> tuple[str, ...]:
    facts = []
    if trait.level is not None:
        facts.append(SPEAKER.level(Level(trait.level, ruleset.ladder)))
    if trait.difficulty:
        facts.append(vocabulary.term(trait.difficulty.replace("_", " "), "difficulty"))
    if trait.power_kind:
        facts.append(vocabulary.label(trait.power_kind, "power kind"))
    # A gift's or fault's cost is the row's cost (ReviewRow.cost): not said twice.
    return tuple(facts)


def _cost_words(ruleset: Ruleset, trait: Trait, spent) -> str:
    one, many = ruleset.terms.pool_words(cost_pool(ruleset, trait.kind, trait.power_kind))
    # The plural rule's count: a fraction up to 1 is one (0.5 skill level), as in English;
    # 0 is as the language says it (French: 0 niveau).
    count = 1 if 0 < abs(spent) <= 1 else int(abs(spent)) if spent == int(spent) else 2
    noun = vocabulary.noun(one, many, count) or (one if count == 1 else many)
    return f"{SPEAKER.number(spent)} {noun}"


def _equipment_facts(ruleset: Ruleset, item) -> tuple[str, ...]:
    # The terms are labels ("Damage"); here they follow the kind in a phrase.
    facts = [vocabulary.label(item.kind, "equipment kind")]
    if item.damage is not None:
        facts.append(f"{_value_word(ruleset.terms.weapon_value)} {signed(item.damage)}")
    if item.armour is not None:
        facts.append(f"{_value_word(ruleset.terms.armour_value)} {signed(item.armour)}")
    return tuple(facts)


def _differences(pairs) -> str:
    """'the catalogue says cost 1 (here 3)' for each (what, catalogue's, character's)
    that differ."""
    said = [
        _("{what} {listed} (here {own})").format(what=what, listed=listed, own=own)
        for what, listed, own in pairs
        if listed != own
    ]
    return (
        _("differs from the catalogue: it lists {differences}").format(differences="; ".join(said))
        if said
        else ""
    )


NOT_LISTED = gettext_lazy("not in the campaign's catalogue")


@dataclass(frozen=True)
class _Offered:
    """The lists the character's campaign offers: its catalogue (seeded from the ruleset's
    own, then the GM's), and the ruleset's templates, whose traits (Mudge 6.42's "Covert
    skills") are the game's own though no catalogue lists them. The catalogue answers first:
    where the GM set a skill's difficulty, that is what the campaign lists."""

    catalog: Catalog
    templates: Catalog

    def skill(self, name: str) -> CatalogSkill | None:
        return self.catalog.skill(name) or self.templates.skill(name)

    def gift(self, name: str) -> CatalogGift | None:
        return self.catalog.gift(name) or self.templates.gift(name)

    def fault(self, name: str) -> CatalogFault | None:
        return self.catalog.fault(name) or self.templates.fault(name)


def _trait_against_catalogue(ruleset: Ruleset, offered: _Offered, trait: Trait) -> str:
    if trait.kind == Trait.Kind.ATTRIBUTE:
        return _attribute_against_catalogue(ruleset, trait)
    if trait.kind == Trait.Kind.SKILL:
        return _skill_against_catalogue(ruleset, offered, trait)
    if trait.kind in (Trait.Kind.GIFT, Trait.Kind.FAULT):
        return _gift_or_fault_against_catalogue(offered, trait)
    return _power_against_catalogue(ruleset, trait)


def _attribute_against_catalogue(ruleset: Ruleset, trait: Trait) -> str:
    known = {n.casefold() for n in ruleset.catalog.attributes}
    known |= {a.casefold() for a in ruleset.attribute_gifts.values()}
    known |= {n.casefold() for n, _ in ruleset.extra_attributes}
    return "" if trait.name.casefold() in known else NOT_LISTED


def _skill_against_catalogue(ruleset: Ruleset, offered: _Offered, trait: Trait) -> str:
    entry = offered.skill(trait.name)
    if entry is None:
        return NOT_LISTED
    if not ruleset.skill_difficulties:
        return ""
    own = trait.difficulty or SKILL_DIFFICULTY
    return _differences([(_DIFFICULTY, _words(entry.difficulty), _words(own))])


def _gift_or_fault_against_catalogue(offered: _Offered, trait: Trait) -> str:
    is_gift = trait.kind == Trait.Kind.GIFT
    entry = offered.gift(trait.name) if is_gift else offered.fault(trait.name)
    if entry is None:
        return NOT_LISTED
    if trait.cost is None:  # priced by the catalogue
        return ""
    listed = entry.cost if is_gift else entry.value
    noun = _COST if is_gift else _VALUE
    return _differences([(noun, json_number(listed), json_number(trait.cost))])


def _power_against_catalogue(ruleset: Ruleset, trait: Trait) -> str:
    entry = ruleset.catalog.power(trait.name)
    if entry is None:
        return NOT_LISTED
    own_kind = trait.power_kind or PowerKind.SUPERPOWER
    pairs = [(_KIND, _power_kind(entry.kind), _power_kind(own_kind))]
    if entry.difficulty:
        pairs.append(
            (
                _DIFFICULTY,
                _words(entry.difficulty),
                _words(trait.difficulty or POWER_DIFFICULTY),
            )
        )
    return _differences(pairs)


def _equipment_against_catalogue(ruleset: Ruleset, item) -> str:
    entry = ruleset.catalog.equipment_item(item.name)
    if entry is None:
        return NOT_LISTED
    terms = ruleset.terms
    return _differences(
        [
            (_KIND, _equipment_kind(entry.kind), _equipment_kind(item.kind)),
            (_value_word(terms.weapon_value), _signed(entry.damage), _signed(item.damage)),
            (_value_word(terms.armour_value), _signed(entry.armour), _signed(item.armour)),
        ]
    )


# What a difference from the catalogue is in: "the catalogue lists cost 1 (here 3)".
_COST = pgettext_lazy("catalogue difference", "cost")
_VALUE = pgettext_lazy("catalogue difference", "value")
_KIND = pgettext_lazy("catalogue difference", "kind")
_DIFFICULTY = pgettext_lazy("catalogue difference", "difficulty")


def _words(difficulty: str) -> str:
    return vocabulary.term(difficulty.replace("_", " "), "difficulty")


def _power_kind(kind: str) -> str:
    return vocabulary.term(kind, "power kind")


def _value_word(label: str) -> str:
    """A ruleset's label for a damage or armour value ("Damage") inside a phrase, in the
    reader's language: "damage", "dégâts"."""
    word = vocabulary.term(label, "equipment value")
    return word[:1].lower() + word[1:]


def _equipment_kind(kind: str) -> str:
    return vocabulary.term(kind, "equipment kind")


def _signed(value) -> str:
    return pgettext("recorded value", "none") if value is None else signed(value)


def broad_template_breaking_caps(character: Character, ruleset: Ruleset, report: Report):
    """The Mudge 6.42 broad class the build was last given, when it still stands (not
    undone) and the build breaks a cap: the GM is told which house rule fits (caps off)."""
    if not any(issue.code == "cap_exceeded" for issue in report.errors):
        return None
    # Applied, undone and redone (services.history) alike carry the template as target, as
    # template_undone did (the one-click undo before the history).
    last = (
        character.events.filter(target__startswith="template:")
        .order_by("-id")
        .values_list("action", "target")
        .first()
    )
    if last is None or last[0] not in ("template_applied", "edit_redone"):
        return None
    template = templates_for(ruleset).get(last[1].partition(":")[2])
    return template if template is not None and template.broad else None


def target_said(target: str, ruleset: Ruleset | None = None) -> str:
    """What an event, a comment or a thread is about (models.target_label) in the reader's
    language: "skill:Riding" is "Compétence : Riding" in French, "Field of expertise: Riding"
    in MicroFudged's English. A GM's own word for a list stays as written."""
    kind, _sep, name = target.partition(":")
    if not target:
        return _("The build")
    if not name:
        return target_label(target)
    if kind == "equipment":
        said = pgettext("review row", "equipment")
    elif kind == "template":
        said = pgettext("event target", "template")
    elif ruleset is not None and f"{kind}s" in TRAIT_LISTS.values():
        said = _kind_said(ruleset, kind)
    else:
        said = vocabulary.noun(kind, f"{kind}s", 1) or kind
    if kind == "template":  # by the name its ruleset gives it; a slug it no longer has as kept
        template = templates_for(ruleset).get(name) if ruleset is not None else None
        name = name if template is None else rules_name(template.name)
    else:  # a built-in name in the reader's language
        name = rules_name(name)
    return _("{kind}: {name}").format(kind=said[:1].upper() + said[1:], name=name)
