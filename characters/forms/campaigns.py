"""Forms for campaigns: the campaign itself, its house rules, its catalogue, joining one.

The house-rules form only reads what the GM typed; whether a number makes sense is the rules
engine's call (rules.house_rules, through services.campaigns), so the form, the character
file and the check command refuse the same things with the same words.
"""

import re
from dataclasses import dataclass
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.errors import HouseRulesRefused
from characters.forms.fields import AmountField, NameField
from characters.models import (
    CATALOG_NAME_MAX,
    CATALOG_NOTE_MAX,
    DIFFICULTY_CHOICES,
    ENTRY_FIELDS,
    FACTOR_RANGE,
    POWER_KIND_CHOICES,
    Campaign,
    CatalogEntry,
    Equipment,
)
from rules.house_rules import ATTRIBUTE_KEYS, BOOLEAN_KEYS, LEVEL_KEYS, json_number
from rules.ladder import ABYSMAL, GOOD, GREAT, LEGENDARY, SUPERB, level_name, parse_level
from rules.rulesets import DEFAULT, LEVELS, TOKENS, Ruleset, ruleset_choices

CAP_LEVELS = (LEGENDARY, SUPERB, GREAT, GOOD)  # the levels a GM may cap, from the top
TRADE_PARTS = {
    "attribute": "1 attribute level",
    "gift": "1 gift",
    "fault": "1 fault",
}
COUNT_MAX = 999
# The experience costs a GM may change here (the rest, e.g. skill_steps, in a file).
ADVANCEMENT_PARTS = {
    "attribute_multiplier": "Raising an attribute, times a skill's cost",
    "gift": "A new gift",
    "power": "A new power",
    "meta_point": "A meta point",
    "buy_off_fault": "Buying off a fault",
}


class CampaignForm(forms.Form):
    name = NameField(max_length=Campaign._meta.get_field("name").max_length)
    base_ruleset = forms.ChoiceField(
        choices=ruleset_choices,
        initial=DEFAULT.slug,
        label="Base ruleset",
        help_text="Every number below starts from this ruleset. It cannot change later.",
    )


@dataclass(frozen=True)
class Knob:
    """One field of the house-rules form: which house rule it sets and how to show the base
    ruleset's value next to it; `note` says what it checks (the report's code) and where the
    rule comes from."""

    field: str
    key: str
    label: str
    part: str | int | None = None  # a level for caps, a trade key for trade_values
    note: str = ""


def _knobs():
    yield Knob("attribute_levels", "attribute_levels", "Free attribute levels")
    yield Knob("skill_levels", "skill_levels", "Free skill levels")
    yield Knob("free_gifts", "free_gifts", "Free gifts")
    yield Knob("tokens", "tokens", "Starting tokens")
    yield Knob("tokens_carried", "tokens_carried", "Tokens carried into play, at most")
    for kind in ("attribute", "skill"):
        for level in CAP_LEVELS:
            name = level_name(level)
            yield Knob(f"{kind}_cap_{name.lower()}", f"{kind}_caps", name, level)
    for part, label in TRADE_PARTS.items():
        yield Knob(f"trade_{part}", "trade_values", label, part)
    yield Knob(
        "cap_trading",
        "cap_trading",
        "Trade cap slots two lower for one higher",
        note="Mudge 1.5: a traded slot is a warning; more than the caps allow breaks a rule",
    )
    yield Knob("legendary_at_creation", "legendary_at_creation", "Legendary at creation")
    yield Knob(
        "creation_min",
        "creation_min",
        "Lowest level at creation",
        note="DIP VIII.3: unless the Narrator allows it; a lower level breaks a rule",
    )
    yield Knob(
        "creation_max",
        "creation_max",
        "Highest level at creation",
        note="A higher level breaks a rule",
    )
    yield Knob("max_lowered_skills", "max_lowered_skills", "Skills lowered below default")
    yield Knob(
        "max_skills",
        "max_skills",
        "Skills, at most",
        note="Mudge 1.5: 10, 15 or 20; more breaks a rule",
    )
    yield Knob(
        "min_faults",
        "min_faults",
        "Faults, at least",
        note="Mudge 1.5, Fudge Basics; fewer breaks a rule",
    )
    yield Knob("meta_points_start", "meta_points_start", "Meta points at start")
    yield Knob("meta_points_max", "meta_points_max", "Meta points, at most")
    yield Knob("superpower_cost", "superpower_cost", "Superpower cost, in gifts")
    yield Knob(
        "uncommitted_traits",
        "uncommitted_traits",
        "Uncommitted traits",
        note="Mudge 1.7; more, or one set too high, breaks a rule",
    )
    yield Knob(
        "negative_scale_refund",
        "negative_scale_refund",
        "Scale below 0 gives levels back",
        note="Mudge 2.34: only if the GM allows",
    )
    yield Knob(
        "damage_capacity_attribute",
        "damage_capacity_attribute",
        "Attribute that soaks damage",
        note="The defensive damage factor on the sheet",
    )
    yield Knob(
        "muscle_attribute",
        "muscle_attribute",
        "Attribute that adds to damage",
        note="The offensive damage factors on the sheet",
    )
    yield Knob("extra_attributes", "extra_attributes", "Extra attributes")
    for part, label in ADVANCEMENT_PARTS.items():
        yield Knob(f"advancement_{part}", "advancement_costs", label, part)


KNOBS = {knob.field: knob for knob in _knobs()}

# The form's sections, in order: a title, the system they matter for (None: both) and
# their fields. A section for the other system is folded away, not hidden: a GM may still
# want it.
SECTIONS = (
    ("Budgets", LEVELS, ("attribute_levels", "skill_levels", "free_gifts")),
    ("Tokens", TOKENS, ("tokens", "tokens_carried")),
    (
        "How many {attributes} may stand at a level",
        None,
        tuple(f"attribute_cap_{level_name(lv).lower()}" for lv in CAP_LEVELS),
    ),
    (
        "How many {skills} may stand at a level",
        None,
        tuple(f"skill_cap_{level_name(lv).lower()}" for lv in CAP_LEVELS),
    ),
    ("Trade values, in skill levels", LEVELS, tuple(f"trade_{p}" for p in TRADE_PARTS)),
    (
        "Limits at creation",
        None,
        (
            "cap_trading",
            "legendary_at_creation",
            "creation_min",
            "creation_max",
            "max_lowered_skills",
            "max_skills",
        ),
    ),
    (
        "Faults, meta points, powers and uncommitted traits",
        LEVELS,
        (
            "min_faults",
            "meta_points_start",
            "meta_points_max",
            "superpower_cost",
            "uncommitted_traits",
        ),
    ),
    (
        "Scale and combat",
        LEVELS,
        ("negative_scale_refund", "damage_capacity_attribute", "muscle_attribute"),
    ),
    ("Extra attributes", None, ("extra_attributes",)),
    ("Experience costs", None, tuple(f"advancement_{part}" for part in ADVANCEMENT_PARTS)),
)
BOOLEAN_WORDS = {
    "legendary_at_creation": ("allowed", "not allowed"),
    "cap_trading": ("allowed", "not allowed"),
    "negative_scale_refund": ("refunds", "no refund"),
}


@dataclass(frozen=True)
class Section:
    title: str
    relevant: bool  # used by the base ruleset's system; the others are folded away
    fields: list

    @property
    def open(self) -> bool:
        """A folded section opens when it holds a value or an error."""
        return any(field.value() not in (None, "") or field.errors for field in self.fields)


def base_value(ruleset: Ruleset, knob: Knob) -> str:
    """The base ruleset's value for a knob, as the form shows it beside the field."""
    if knob.key == "advancement_costs":
        value = getattr(ruleset.advancement, knob.part, None) if ruleset.advancement else None
        return "not given" if value is None else str(value)
    value = getattr(ruleset, knob.key)
    if knob.key in ("attribute_caps", "skill_caps"):
        return str(value[knob.part]) if knob.part in value else "no cap"
    if knob.key == "trade_values":
        return str(json_number(value[knob.part]))
    if knob.key in BOOLEAN_KEYS:
        yes, no = BOOLEAN_WORDS[knob.key]
        return yes if value else no
    if knob.key in LEVEL_KEYS:
        return level_name(value)
    if knob.key == "extra_attributes":
        return ", ".join(f"{name}: {level_name(d)}" for name, d in value) or "none"
    if value is None:
        return "no limit" if knob.key != "damage_capacity_attribute" else "none"
    if isinstance(value, str):
        return value
    return str(json_number(value))


def _count_field():
    # No lower bound here: "cannot be negative" is the rules engine's message to give.
    return forms.IntegerField(required=False, max_value=COUNT_MAX)


def _amount_field():
    return AmountField(required=False, max_digits=5, decimal_places=2)


def _yes_no_field(yes: str = "Allowed", no: str = "Not allowed"):
    return forms.ChoiceField(
        required=False, choices=[("", "As the base"), ("yes", yes), ("no", no)]
    )


def _level_field():
    levels = range(SUPERB, ABYSMAL - 1, -1)
    return forms.TypedChoiceField(
        required=False,
        coerce=int,
        empty_value=None,
        choices=[("", "As the base"), *((lv, level_name(lv)) for lv in levels)],
    )


def _attribute_field():
    return forms.CharField(required=False, max_length=100, strip=True)


class HouseRulesForm(forms.Form):
    """Every knob of rules.house_rules.HOUSE_RULE_KEYS; an empty field keeps the base value."""

    attribute_levels = _count_field()
    skill_levels = _count_field()
    free_gifts = _amount_field()
    tokens = _count_field()
    tokens_carried = _count_field()
    attribute_cap_legendary = _count_field()
    attribute_cap_superb = _count_field()
    attribute_cap_great = _count_field()
    attribute_cap_good = _count_field()
    skill_cap_legendary = _count_field()
    skill_cap_superb = _count_field()
    skill_cap_great = _count_field()
    skill_cap_good = _count_field()
    trade_attribute = _amount_field()
    trade_gift = _amount_field()
    trade_fault = _amount_field()
    cap_trading = _yes_no_field()
    legendary_at_creation = _yes_no_field()
    creation_min = _level_field()
    creation_max = _level_field()
    max_lowered_skills = _count_field()
    max_skills = _count_field()
    min_faults = _count_field()
    meta_points_start = _count_field()
    meta_points_max = _count_field()
    superpower_cost = _amount_field()
    uncommitted_traits = _count_field()
    negative_scale_refund = _yes_no_field("Refunds", "No refund")
    damage_capacity_attribute = _attribute_field()
    muscle_attribute = _attribute_field()
    advancement_attribute_multiplier = _count_field()
    advancement_gift = _count_field()
    advancement_power = _count_field()
    advancement_meta_point = _count_field()
    advancement_buy_off_fault = _count_field()
    extra_attributes = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "Sanity: Fair\nLuck: Mediocre"}),
        help_text='One a line, as "Name: Default level"; the default is Fair if left out.',
    )

    def __init__(self, *args, base: Ruleset, overrides: dict | None = None, **kwargs):
        super().__init__(*args, initial=initial_from_overrides(base, overrides or {}), **kwargs)
        self.base = base
        for name, knob in KNOBS.items():
            field = self.fields[name]
            field.label = knob.label
            field.base_value = base_value(base, knob)
            if knob.note:
                field.help_text = knob.note
            if isinstance(field, forms.IntegerField | forms.DecimalField) or (
                knob.key in ATTRIBUTE_KEYS
            ):
                field.widget.attrs["placeholder"] = field.base_value

    def sections(self) -> list[Section]:
        """The form's sections, titled in the base ruleset's words ("How many abilities
        may stand at a level")."""
        terms = self.base.terms
        words = {"attributes": terms.plural("attributes"), "skills": terms.plural("skills")}
        return [
            Section(
                title.format(**words),
                system in (None, self.base.system),
                [self[name] for name in names],
            )
            for title, system, names in SECTIONS
        ]

    def overrides(self) -> dict:
        """What the GM typed, as house rules: filled fields only. Caps are whole tables in
        house rules, so a changed level is merged into the base ruleset's table."""
        data, base, out = self.cleaned_data, self.base, {}
        for name, knob in KNOBS.items():
            value = data.get(name)
            if value is None or value == "":
                continue
            if knob.key in ("attribute_caps", "skill_caps"):
                caps = out.setdefault(knob.key, {level_name(lv): n for lv, n in _caps(base, knob)})
                caps[level_name(knob.part)] = value
            elif knob.key == "trade_values":
                out.setdefault("trade_values", {})[knob.part] = _number(value)
            elif knob.key == "advancement_costs":
                out.setdefault("advancement_costs", {})[knob.part] = value
            elif knob.key in BOOLEAN_KEYS:
                out[knob.key] = value == "yes"
            elif knob.key in LEVEL_KEYS:
                out[knob.key] = level_name(value)
            elif knob.key == "extra_attributes":
                out[knob.key] = _parse_extra_attributes(value)
            else:
                out[knob.key] = _number(value)
        return out

    def add_refusal(self, error: HouseRulesRefused) -> None:
        """Put each of the rules engine's refusals on the field it is about."""
        for key, message in error.problems:
            field, message = field_for_key(key), self._labelled(message)
            message = message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")
            line = re.search(r"\[(\d+)\]", key)
            if line:
                message = f"Line {int(line.group(1)) + 1}: {message}"
            self.add_error(field if field in self.fields else None, message)

    def _labelled(self, message: str) -> str:
        """The engine names the other keys a rule ties together as a file does
        ("meta_points_max"); on this form they are the labels the GM sees."""

        def label(match):
            field = self.fields.get(field_for_key(match.group()))
            return f"“{field.label}”" if field is not None else match.group()

        return re.sub(r"\b[a-z]+(?:_[a-z]+)+\b", label, message)


def field_for_key(key: str) -> str:
    """The form field a house-rule key names: "skill_levels" -> skill_levels,
    "attribute_caps.Superb" -> attribute_cap_superb, "trade_values.gift" -> trade_gift,
    "extra_attributes[1]" -> extra_attributes."""
    match = re.fullmatch(r"(\w+)(?:\.(\w+))?(?:\[\d+\])?", key)
    if match is None:
        return ""
    top, part = match.groups()
    if part and top in ("attribute_caps", "skill_caps"):
        return f"{top.removesuffix('_caps')}_cap_{part.lower()}"
    if part and top == "trade_values":
        return f"trade_{part}"
    if part and top == "advancement_costs":
        return f"advancement_{part}"
    return top


def initial_from_overrides(base: Ruleset, overrides: dict) -> dict:
    """The saved house rules as the form's initial values: only what differs from the base."""
    initial = {}
    for name, knob in KNOBS.items():
        if knob.key not in overrides:
            continue
        value = overrides[knob.key]
        if knob.key in ("attribute_caps", "skill_caps"):
            word = level_name(knob.part)
            if word in value and dict(_caps(base, knob)).get(knob.part) != value[word]:
                initial[name] = value[word]
        elif knob.key == "trade_values":
            if knob.part in value and value[knob.part] != json_number(base.trade_values[knob.part]):
                initial[name] = value[knob.part]
        elif knob.key == "advancement_costs":
            if knob.part in value:
                initial[name] = value[knob.part]
        elif knob.key in BOOLEAN_KEYS:
            initial[name] = "yes" if value else "no"
        elif knob.key in LEVEL_KEYS:
            initial[name] = parse_level(value)
        elif knob.key == "extra_attributes":
            initial[name] = "\n".join(f"{e['name']}: {e.get('default', 'Fair')}" for e in value)
        else:
            initial[name] = value
    return initial


def _caps(base: Ruleset, knob: Knob):
    return sorted(getattr(base, knob.key).items(), reverse=True)


def _number(value):
    """A form's Decimal as the JSON number house rules use: 2, 0.5."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _parse_extra_attributes(text: str) -> list[dict]:
    extras = []
    for line in text.splitlines():
        if not line.strip():
            continue
        name, colon, default = line.rpartition(":")
        if not colon:
            name, default = line, "Fair"
        extras.append({"name": name.strip(), "default": default.strip() or "Fair"})
    return extras


class CatalogEntryForm(forms.Form):
    """One catalogue entry; only the fields that mean something for its kind are kept."""

    name = NameField(max_length=CATALOG_NAME_MAX)
    difficulty = forms.ChoiceField(choices=DIFFICULTY_CHOICES, initial="average")
    cost = AmountField(
        min_value=0, max_value=999, max_digits=5, decimal_places=2, initial=1, label="Cost"
    )
    damage = forms.IntegerField(
        required=False, min_value=FACTOR_RANGE[0], max_value=FACTOR_RANGE[-1], label="Weapon"
    )
    armour = forms.IntegerField(
        required=False, min_value=FACTOR_RANGE[0], max_value=FACTOR_RANGE[-1], label="Armour"
    )
    equipment_kind = forms.ChoiceField(choices=Equipment.Kind.choices, initial="gear", label="Kind")
    power_kind = forms.ChoiceField(choices=POWER_KIND_CHOICES, initial="spell", label="Kind")
    note = forms.CharField(max_length=CATALOG_NOTE_MAX, required=False)

    def __init__(self, *args, kind: str, uses_difficulty: bool, **kwargs):
        super().__init__(*args, **kwargs)
        self.kind = kind
        keep = {"name", "note", *ENTRY_FIELDS[kind]}
        if not uses_difficulty:
            keep.discard("difficulty")
        for name in list(self.fields):
            if name not in keep:
                del self.fields[name]
        if kind == CatalogEntry.Kind.FAULT:
            self.fields["cost"].label = "Value"

    @classmethod
    def for_entry(cls, entry: CatalogEntry, *, uses_difficulty: bool, data=None):
        """The form of an existing entry, with ids unique on a page that lists them all."""
        initial = {
            "name": entry.name,
            "difficulty": entry.difficulty,
            "cost": entry.cost,
            "damage": entry.damage,
            "armour": entry.armour,
            "equipment_kind": entry.equipment_kind or "gear",
            "power_kind": entry.power_kind,
            "note": entry.note,
        }
        form = cls(
            data,
            initial=initial,
            kind=entry.kind,
            uses_difficulty=uses_difficulty,
            auto_id=f"entry-{entry.pk}-%s",
        )
        form.entry_pk = entry.pk
        return form


class HouseRulesChangeForm(forms.Form):
    """Beside the house-rules form on the campaign's own page: why the GM changes them,
    kept in the campaign's history (not on a new campaign, whose rules are its first)."""

    reason = forms.CharField(
        required=False,
        max_length=500,
        label="Why (for the campaign's history)",
        widget=forms.TextInput(attrs={"placeholder": "e.g. a higher-powered game"}),
    )


class CampaignSettingsForm(forms.Form):
    spends_need_approval = forms.BooleanField(
        required=False,
        label="Experience spends wait for the GM",
        help_text="A player's spend applies once you accept it.",
    )


class JoinForm(forms.Form):
    code = forms.CharField(
        max_length=Campaign._meta.get_field("invite_code").max_length,
        label=_("Invite code"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
