"""Forms for campaigns: the campaign itself, its house rules, its catalogue, joining one.

The house-rules form only reads what the GM typed; whether a number makes sense is the rules
engine's call (rules.house_rules, through services.campaigns), so the form, the character
file and the check command refuse the same things with the same words.
"""

import re
from dataclasses import dataclass
from decimal import Decimal

from django import forms
from django.conf import settings
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from characters import vocabulary, wording
from characters.errors import HouseRulesRefused
from characters.forms.fields import AmountField, NameField
from characters.knobs import (
    AMOUNT,
    ATTRIBUTE,
    BY_KEY,
    CAPS,
    COUNT,
    EXTRAS,
    KNOBS,
    LEVEL,
    PARTS,
    YES_NO,
    level_word,
    parts_of,
    rule_words,
    said,
)
from characters.models import (
    CATALOG_NAME_MAX,
    CATALOG_NOTE_MAX,
    DIFFICULTY_CHOICES,
    ENTRY_FIELDS,
    FACTOR_RANGE,
    Campaign,
    CatalogEntry,
    Equipment,
    NpcRollMethod,
    PowerKind,
)
from characters.rules_content import rules_name, typed_key
from characters.wording import SPEAKER
from rules.house_rules import ATTRIBUTE_KEYS, BOOLEAN_KEYS, LEVEL_KEYS, json_number
from rules.ladder import ABYSMAL, GOOD, STANDARD, LevelError
from rules.rulesets import DEFAULT, LEVELS, TOKENS, Ruleset, ruleset_choices
from rules.words import Level

COUNT_MAX = 999
# The trade values and experience costs a GM may change here (the rest, e.g. skill_steps, in
# a file), by part.
TRADE_PARTS = [k.part for k in parts_of("trade_values")]
ADVANCEMENT_PARTS = [k.part for k in parts_of("advancement_costs") if k.house_rule]


class CampaignForm(forms.Form):
    name = NameField(max_length=Campaign._meta.get_field("name").max_length)
    base_ruleset = forms.ChoiceField(
        choices=ruleset_choices,
        initial=DEFAULT.slug,
        label=_("Base ruleset"),
        help_text=_("Every number below starts from this ruleset. It cannot change later."),
    )


@dataclass(frozen=True)
class Knob:
    """One field of the house-rules form: which house rule it sets and how to show the base
    ruleset's value next to it. `label` and `note` are said in the base ruleset's words
    (rule_words: "Free {skill} levels" is "Free skill levels" in Mudge); `note` says what
    the rule checks, after the section of `topic` where the base ruleset's text has one."""

    field: str
    key: str
    kind: str
    label: str
    part: str | int | None = None  # a level for caps, a trade key for trade_values
    note: str = ""
    topic: str = ""
    joiner: str = ": "  # between the section and the note


def difficulty_word(difficulty: str) -> str:
    """A skill's difficulty as a form and the catalogue show it: "Very hard", "Très
    difficile"."""
    word = vocabulary.term(difficulty.replace("_", " "), "difficulty")
    return word[:1].upper() + word[1:]


def cap_levels(ruleset: Ruleset) -> range:
    """The levels a GM may cap, from the top word of the ruleset's ladder down to Good."""
    return range(ruleset.ladder.top_word_level, GOOD - 1, -1)


def cap_field(kind: str, level: int) -> str:
    """A cap's form field, named by the level's standard word (names are for programs; the
    label says the ruleset's own word): attribute_cap_superb, skill_cap_legendary_plus_1."""
    return f"{kind}_cap_{STANDARD.name(level).lower().replace('+', '_plus_')}"


def _knobs(ruleset: Ruleset):
    """The form's fields, a knob of the table each (a cap a level of the ruleset's ladder)."""
    for entry in KNOBS:
        if not entry.house_rule:
            continue
        if entry.kind == CAPS:
            kind = entry.key.removesuffix("_caps")
            for level in cap_levels(ruleset):
                yield Knob(
                    cap_field(kind, level), entry.key, COUNT, level_word(ruleset, level), level
                )
        elif entry.part:
            prefix = "trade" if entry.key == "trade_values" else "advancement"
            yield Knob(f"{prefix}_{entry.part}", entry.key, entry.kind, entry.label, entry.part)
        elif entry.kind != PARTS:
            yield Knob(
                entry.key,
                entry.key,
                entry.kind,
                entry.label,
                note=entry.note,
                topic=entry.topic,
                joiner=entry.joiner,
            )


def knobs(ruleset: Ruleset) -> dict[str, Knob]:
    return {knob.field: knob for knob in _knobs(ruleset)}


def house_rule_label(ruleset: Ruleset, key: str) -> str:
    """A house-rule key as the form labels it, in the ruleset's words ("Free field of
    expertise levels"); a key with a field a part ("Trade values")."""
    entry = BY_KEY.get((key, ""))
    if entry is None:
        return key.replace("_", " ").capitalize()
    return said(entry.label, rule_words(ruleset))


# The form's sections, in order: a title, the system they matter for (None: both) and
# their fields (a function of the ruleset: the caps follow its ladder). A section for the
# other system is folded away, not hidden: a GM may still want it.
SECTIONS = (
    (_("Budgets"), LEVELS, lambda r: ("attribute_levels", "skill_levels", "free_gifts")),
    (_("Tokens"), TOKENS, lambda r: ("tokens", "tokens_carried")),
    (
        _("How many {attributes} may stand at a level"),
        None,
        lambda r: tuple(cap_field("attribute", lv) for lv in cap_levels(r)),
    ),
    (
        _("How many {skills} may stand at a level"),
        None,
        lambda r: tuple(cap_field("skill", lv) for lv in cap_levels(r)),
    ),
    (
        _("Trade values, in {skill} levels"),
        LEVELS,
        lambda r: tuple(f"trade_{p}" for p in TRADE_PARTS),
    ),
    (
        _("Limits at creation"),
        None,
        lambda r: (
            "cap_trading",
            "legendary_at_creation",
            "creation_min",
            "creation_max",
            "max_lowered_skills",
            "max_skills",
        ),
    ),
    (
        _("{faults}, {points}, {powers} and uncommitted traits"),
        LEVELS,
        lambda r: (
            "min_faults",
            "meta_points_start",
            "meta_points_max",
            "superpower_cost",
            "uncommitted_traits",
        ),
    ),
    (
        _("Scale and combat"),
        LEVELS,
        lambda r: ("negative_scale_refund", "damage_capacity_attribute", "muscle_attribute"),
    ),
    (_("Extra {attributes}"), None, lambda r: ("extra_attributes",)),
    (
        _("Experience costs"),
        None,
        lambda r: tuple(f"advancement_{part}" for part in ADVANCEMENT_PARTS),
    ),
)
ALLOWED = pgettext_lazy("house rule value", "allowed")
NOT_ALLOWED = pgettext_lazy("house rule value", "not allowed")
BOOLEAN_WORDS = {
    "legendary_at_creation": (ALLOWED, NOT_ALLOWED),
    "cap_trading": (ALLOWED, NOT_ALLOWED),
    "negative_scale_refund": (
        pgettext_lazy("house rule value", "refunds"),
        pgettext_lazy("house rule value", "no refund"),
    ),
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
    """The base ruleset's value for a knob, as the form shows it beside the field, its
    levels in the ruleset's ladder words. Numbers and extra attributes are written as the
    field takes them (0.5, "Luck: Poor"): a placeholder shows what to type."""
    if knob.key == "advancement_costs":
        value = getattr(ruleset.advancement, knob.part, None) if ruleset.advancement else None
        return pgettext("house rule value", "not given") if value is None else str(value)
    value = getattr(ruleset, knob.key)
    if knob.key in ("attribute_caps", "skill_caps"):
        return (
            str(value[knob.part]) if knob.part in value else pgettext("house rule value", "no cap")
        )
    if knob.key == "trade_values":
        return str(json_number(value[knob.part]))
    if knob.key in BOOLEAN_KEYS:
        yes, no = BOOLEAN_WORDS[knob.key]
        return str(yes if value else no)
    if knob.key in LEVEL_KEYS:
        return level_word(ruleset, value)
    if knob.key == "extra_attributes":
        described = ", ".join(f"{name}: {ladder_said(ruleset, d)}" for name, d in value)
        return described or pgettext("house rule value", "none")
    if value is None:
        if knob.key in ATTRIBUTE_KEYS:
            return pgettext("house rule value", "none")
        return pgettext("house rule value", "no limit")
    if knob.key in ATTRIBUTE_KEYS:  # as the builder's rows name it: "Konstitution"
        return rules_name(value)
    if isinstance(value, str):
        return value
    return str(json_number(value))


def _count_field(key=""):
    # No lower bound here: "cannot be negative" is the rules engine's message to give.
    return forms.IntegerField(required=False, max_value=COUNT_MAX)


def _amount_field(key=""):
    return AmountField(required=False, max_digits=5, decimal_places=2)


AS_THE_BASE, YES, NO = _("As the base"), _("Allowed"), _("Not allowed")
# A switch's two choices where "Allowed" and "Not allowed" do not say it.
YES_NO_WORDS = {"negative_scale_refund": (_("Refunds"), _("No refund"))}


def _yes_no_field(key=""):
    yes, no = YES_NO_WORDS.get(key, (YES, NO))
    return forms.ChoiceField(required=False, choices=[("", AS_THE_BASE), ("yes", yes), ("no", no)])


def _level_field(key=""):
    # The choices are the base ruleset's ladder words (HouseRulesForm.__init__).
    return forms.TypedChoiceField(required=False, coerce=int, empty_value=None)


def _attribute_field(key=""):
    return forms.CharField(required=False, max_length=100, strip=True)


def _extras_field(key=""):
    return forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )


# Each kind of knob's field (a cap is a count a level).
FIELD_KINDS = {
    COUNT: _count_field,
    AMOUNT: _amount_field,
    YES_NO: _yes_no_field,
    LEVEL: _level_field,
    ATTRIBUTE: _attribute_field,
    EXTRAS: _extras_field,
}


class HouseRulesForm(forms.Form):
    """Every knob of rules.house_rules.HOUSE_RULE_KEYS; an empty field keeps the base value.
    Labelled, explained and levelled in the base ruleset's own words: its lists ("fields of
    expertise"), its points, its GM and its ladder ("Heroic" in a GM's extended ladder)."""

    def __init__(self, *args, base: Ruleset, overrides: dict | None = None, **kwargs):
        super().__init__(*args, initial=initial_from_overrides(base, overrides or {}), **kwargs)
        self.base = base
        self.knobs = knobs(base)
        words = rule_words(base)
        for name, knob in self.knobs.items():
            self.fields[name] = field = FIELD_KINDS[knob.kind](knob.key)
            field.label = said(knob.label, words)
            field.base_value = base_value(base, knob)
            field.help_text = self._note(knob, words)
            if isinstance(field, forms.IntegerField | forms.DecimalField) or (
                knob.key in ATTRIBUTE_KEYS
            ):
                field.widget.attrs["placeholder"] = field.base_value
        ladder, levels = base.ladder, range(base.ladder.top_word_level - 1, ABYSMAL - 1, -1)
        for name in LEVEL_KEYS:
            self.fields[name].choices = [
                ("", AS_THE_BASE),
                *((lv, level_word(base, lv)) for lv in levels if lv >= ladder.bottom),
            ]
        # Typed levels are read in the reader's ladder words or the base ruleset's own (the
        # house rules keep the ruleset's): the example and the default say the reader's.
        fair, below = ladder_said(base, 0), ladder_said(base, -1)
        extras = self.fields["extra_attributes"]
        extras.widget.attrs["placeholder"] = gettext("Sanity: {fair}\nLuck: {below}").format(
            fair=fair, below=below
        )
        extras.help_text = gettext(
            'One a line, as "Name: Default level"; the default is {fair} if left out.'
        ).format(fair=fair)

    def _note(self, knob: Knob, words: dict[str, str]) -> str:
        """What a knob checks, after where the base ruleset's text says it (nothing of
        another ruleset's text: a Fudge Basics campaign is never told of Mudge)."""
        note = str(knob.note).format(**words)
        cited = self.base.cites(knob.topic) if knob.topic else ""
        if cited and note:
            if knob.joiner == "; ":
                return gettext("{section}; {note}").format(section=cited, note=note)
            return gettext("{section}: {note}").format(section=cited, note=note)
        return cited or (note[:1].upper() + note[1:])

    def sections(self) -> list[Section]:
        """The form's sections, titled in the base ruleset's words ("How many abilities
        may stand at a level")."""
        words = rule_words(self.base)
        return [
            Section(
                said(title, words),
                system in (None, self.base.system),
                [self[name] for name in names(self.base)],
            )
            for title, system, names in SECTIONS
        ]

    def overrides(self) -> dict:
        """What the GM typed, as house rules: filled fields only. Caps are whole tables in
        house rules, so a changed level is merged into the base ruleset's table. Levels are
        written in the base ruleset's ladder words."""
        data, base, out = self.cleaned_data, self.base, {}
        for name, knob in self.knobs.items():
            value = data.get(name)
            if value is None or value == "":
                continue
            if knob.key in ("attribute_caps", "skill_caps"):
                caps = out.setdefault(knob.key, {base.word(lv): n for lv, n in _caps(base, knob)})
                caps[base.word(knob.part)] = value
            elif knob.key == "trade_values":
                out.setdefault("trade_values", {})[knob.part] = _number(value)
            elif knob.key == "advancement_costs":
                out.setdefault("advancement_costs", {})[knob.part] = value
            elif knob.key in BOOLEAN_KEYS:
                out[knob.key] = value == "yes"
            elif knob.key in LEVEL_KEYS:
                out[knob.key] = base.word(value)
            elif knob.key == "extra_attributes":
                out[knob.key] = [
                    {**extra, "default": ladder_word_of(base, extra["default"])}
                    for extra in _parse_extra_attributes(value, base.word(0))
                ]
            elif knob.key in ATTRIBUTE_KEYS:  # typed as the rows name it, kept by its key
                out[knob.key] = typed_key(value)
            else:
                out[knob.key] = _number(value)
        return out

    def add_refusal(self, error: HouseRulesRefused) -> None:
        """Put each of the rules engine's refusals on the field it is about."""
        for key, message in error.problems:
            field, message = self.field_for_key(key), self._labelled(wording.said(message))
            message = message[:1].upper() + message[1:] + ("" if message.endswith(".") else ".")
            line = re.search(r"\[(\d+)\]", key)
            if line:
                message = gettext("Line {number}: {message}").format(
                    number=int(line.group(1)) + 1, message=message
                )
            self.add_error(field if field in self.fields else None, message)

    def _labelled(self, message: str) -> str:
        """The engine names the other keys a rule ties together as a file does
        ("meta_points_max"); on this form they are the labels the GM sees."""

        def label(match):
            field = self.fields.get(self.field_for_key(match.group()))
            return f"“{field.label}”" if field is not None else match.group()

        return re.sub(r"\b[a-z]+(?:_[a-z]+)+\b", label, message)

    def field_for_key(self, key: str) -> str:
        """The form field a house-rule key names: "skill_levels" -> skill_levels,
        "attribute_caps.Superb" -> attribute_cap_superb (the word on the base ruleset's
        ladder), "trade_values.gift" -> trade_gift, "extra_attributes[1]" ->
        extra_attributes."""
        match = re.fullmatch(r"(\w+)(?:\.([^.\[]+))?(?:\[\d+\])?", key)
        if match is None:
            return ""
        top, part = match.groups()
        if part and top in ("attribute_caps", "skill_caps"):
            level = self.base.ladder.levels.get(part.casefold())
            return "" if level is None else cap_field(top.removesuffix("_caps"), level)
        if part and top == "trade_values":
            return f"trade_{part}"
        if part and top == "advancement_costs":
            return f"advancement_{part}"
        return top


def initial_from_overrides(base: Ruleset, overrides: dict) -> dict:
    """The saved house rules as the form's initial values: only what differs from the base."""
    initial = {}
    for name, knob in knobs(base).items():
        if knob.key not in overrides:
            continue
        value = overrides[knob.key]
        if knob.key in ("attribute_caps", "skill_caps"):
            saved = {base.ladder.levels.get(word.casefold()): n for word, n in value.items()}
            if knob.part in saved and dict(_caps(base, knob)).get(knob.part) != saved[knob.part]:
                initial[name] = saved[knob.part]
        elif knob.key == "trade_values":
            if knob.part in value and value[knob.part] != json_number(base.trade_values[knob.part]):
                initial[name] = value[knob.part]
        elif knob.key == "advancement_costs":
            if knob.part in value:
                initial[name] = value[knob.part]
        elif knob.key in BOOLEAN_KEYS:
            initial[name] = "yes" if value else "no"
        elif knob.key in LEVEL_KEYS:
            initial[name] = base.ladder.parse(value)
        elif knob.key == "extra_attributes":
            initial[name] = "\n".join(
                f"{e['name']}: {_default_said(base, e.get('default'))}" for e in value
            )
        elif knob.key in ATTRIBUTE_KEYS:
            initial[name] = rules_name(value)
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


def ladder_said(base: Ruleset, level: int) -> str:
    """A level of the base ruleset's ladder in the reader's words ("Moyen"); a GM's own
    ladder as written."""
    return SPEAKER.level(Level(level, base.ladder))


def _default_said(base: Ruleset, word) -> str:
    """An extra attribute's default as the form shows it: in the reader's words."""
    if word is None:
        return ladder_said(base, 0)
    try:
        return ladder_said(base, base.ladder.parse(word))
    except LevelError:
        return str(word)


def ladder_word_of(base: Ruleset, typed: str) -> str:
    """A level typed in the reader's words ("Moyen", "Légendaire+1") as the base ruleset's
    ladder writes it ("Fair", "Legendary+1"); any other text as typed, for the house rules
    to check."""
    word, sign, steps = typed.strip().partition("+")
    for level in range(base.ladder.bottom, base.ladder.top_word_level + 1):
        if ladder_said(base, level).casefold() == word.strip().casefold():
            return base.word(level) + sign + steps.strip()
    return typed


def _parse_extra_attributes(text: str, fair: str) -> list[dict]:
    extras = []
    for line in text.splitlines():
        if not line.strip():
            continue
        name, colon, default = line.rpartition(":")
        if not colon:
            name, default = line, fair
        extras.append({"name": name.strip(), "default": default.strip() or fair})
    return extras


def translated_languages() -> list[tuple[str, str]]:
    """The site's languages other than English, the one names and notes are written in."""
    return [(code, name) for code, name in settings.LANGUAGES if not code.startswith("en")]


class CatalogEntryForm(forms.Form):
    """One catalogue entry; only the fields that mean something for its kind are kept."""

    name = NameField(max_length=CATALOG_NAME_MAX, label=_("Name"))
    difficulty = forms.ChoiceField(
        choices=DIFFICULTY_CHOICES, initial="average", label=_("Difficulty")
    )
    cost = AmountField(
        min_value=0, max_value=999, max_digits=5, decimal_places=2, initial=1, label=_("Cost")
    )
    damage = forms.IntegerField(
        required=False,
        min_value=FACTOR_RANGE[0],
        max_value=FACTOR_RANGE[-1],
        label=pgettext_lazy("catalogue field", "Weapon"),
    )
    armour = forms.IntegerField(
        required=False,
        min_value=FACTOR_RANGE[0],
        max_value=FACTOR_RANGE[-1],
        label=pgettext_lazy("catalogue field", "Armour"),
    )
    equipment_kind = forms.ChoiceField(
        choices=Equipment.Kind.choices,
        initial=Equipment.Kind.GEAR,
        label=pgettext_lazy("catalogue field", "Kind"),
    )
    power_kind = forms.ChoiceField(
        choices=PowerKind.choices,
        initial=PowerKind.SPELL,
        label=pgettext_lazy("catalogue field", "Kind"),
    )
    note = forms.CharField(max_length=CATALOG_NOTE_MAX, required=False, label=_("Note"))

    def __init__(self, *args, kind: str, uses_difficulty: bool, power_kinds=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.kind = kind
        self._add_translation_fields()
        keep = {"name", "note", *ENTRY_FIELDS[kind], *self.translation_fields}
        if not uses_difficulty:
            keep.discard("difficulty")
        for name in list(self.fields):
            if name not in keep:
                del self.fields[name]
        if kind == CatalogEntry.Kind.FAULT:
            self.fields["cost"].label = _("Value")
        # The choices in the reader's language; the values stay the file's keys.
        if "difficulty" in self.fields:
            self.fields["difficulty"].choices = [
                (d, difficulty_word(d)) for d, _l in DIFFICULTY_CHOICES
            ]
        if "power_kind" in self.fields and power_kinds:
            # The base ruleset's kinds (MicroFudged: fields of power only), and the entry's
            # own if the GM gave it another.
            kinds = list(power_kinds)
            own = self.initial.get("power_kind")
            if own and own not in kinds:
                kinds.append(own)
            self.fields["power_kind"].choices = [
                (k, vocabulary.label(k, "power kind")) for k in kinds
            ]
            self.fields["power_kind"].initial = kinds[0]

    def _add_translation_fields(self) -> None:
        """The GM's own words for the name and note in each other language the site speaks:
        optional, a player reading that language sees them (characters.rules_content)."""
        self.translation_fields = {}
        for code, language in translated_languages():
            name, note = f"name_{code}", f"note_{code}"
            self.fields[name] = NameField(
                max_length=CATALOG_NAME_MAX,
                required=False,
                label=_("Name in {language}").format(language=language),
            )
            self.fields[note] = forms.CharField(
                max_length=CATALOG_NOTE_MAX,
                required=False,
                label=_("Note in {language}").format(language=language),
            )
            self.translation_fields.update({name: (code, "name"), note: (code, "note")})

    @property
    def has_translations(self) -> bool:
        return any(self.initial.get(name) for name in self.translation_fields)

    def own_fields(self):
        """The entry's own fields, in the order the form lists them, without translations."""
        return [field for field in self if field.name not in self.translation_fields]

    def translation_rows(self):
        """The translation fields, a language's name and note together, for the template."""
        fields = [self[name] for name in self.translation_fields]
        return list(zip(fields[::2], fields[1::2], strict=True))

    def clean(self):
        cleaned = super().clean()
        translations = {}
        for name, (code, key) in self.translation_fields.items():
            value = cleaned.pop(name, "") or ""
            if value.strip():
                translations.setdefault(code, {})[key] = value.strip()
        cleaned["translations"] = translations
        return cleaned

    @classmethod
    def for_entry(cls, entry: CatalogEntry, *, uses_difficulty: bool, power_kinds=(), data=None):
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
        for code, words in (entry.translations or {}).items():
            initial[f"name_{code}"] = words.get("name", "")
            initial[f"note_{code}"] = words.get("note", "")
        form = cls(
            data,
            initial=initial,
            kind=entry.kind,
            uses_difficulty=uses_difficulty,
            power_kinds=power_kinds,
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
        label=_("Why (for the campaign's history)"),
        widget=forms.TextInput(attrs={"placeholder": _("e.g. a higher-powered game")}),
    )


class CampaignSettingsForm(forms.Form):
    spends_need_approval = forms.BooleanField(
        required=False,
        label=_("Experience spends wait for the GM"),
        help_text=_("A player's spend applies once you accept it."),
    )
    npc_roll_method = forms.ChoiceField(
        label=_("How the dice log rolls for your NPCs"),
        choices=NpcRollMethod.choices,
        required=False,  # left out (an older form): as it is
        help_text=_(
            "1d6 (Fudge 4.5): the listed level on 2 to 5, worse on 1, better on 6. 1dF or "
            "2dF: added to the listed level. No roll: the NPC's level is the difficulty."
        ),
    )
    npc_damage_thresholds = forms.BooleanField(
        required=False,
        label=_("Use damage thresholds for NPCs"),
        help_text=_(
            "Fudge 4.73: at most three wound levels in one blow. Untick to let a blow take "
            "an NPC as far as its damage goes."
        ),
    )


class WebhookForm(forms.Form):
    url = forms.CharField(
        max_length=2000,
        label=_("Webhook address"),
        help_text=_(
            "A Discord channel's webhook (the channel's settings, Integrations, Webhooks) or "
            "any https address on a public host: each roll of the dice log is posted there."
        ),
        widget=forms.URLInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )


class JoinForm(forms.Form):
    code = forms.CharField(
        max_length=Campaign._meta.get_field("invite_code").max_length,
        label=_("Invite code"),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
