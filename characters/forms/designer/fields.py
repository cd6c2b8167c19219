"""The designer's fields: a label and a line of help each, turning what was typed into the
file's kind of value; and the small conversions between form values and the file's."""

import re
from decimal import Decimal

from django import forms
from django.utils.functional import lazy
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from characters import knobs, vocabulary
from characters.forms.fields import AmountField
from characters.models import PowerKind
from characters.vocabulary import TERMS
from rules.ruleset_file.file_format import DIFFICULTY_NAMES, MAX_ENTRIES
from rules.ruleset_file.lists import LANGUAGE_CODE
from rules.rulesets import DEFAULT, DIFFICULTIES, LEVELS, TOKENS

MAX_ROWS = MAX_ENTRIES
NAME_LENGTH = 100
POWER_KINDS = {
    PowerKind.SPELL: _("Spells"),
    PowerKind.PSI: _("Psionic powers"),
    PowerKind.SUPERPOWER: _("Superpowers"),
    PowerKind.FIELD: _("Fields of power"),
}


def power_kind_choices() -> list[tuple[str, str]]:
    """A power's kind in a row of the sample powers, as the builder says it ("Sort")."""
    return [(kind, vocabulary.label(kind, "power kind")) for kind in PowerKind.values]


# Each kind's checkbox, a sentence of its own (a language may not lower-case a title).
POWER_KINDS_USED = {
    PowerKind.SPELL: _("The game has spells"),
    PowerKind.PSI: _("The game has psionic powers"),
    PowerKind.SUPERPOWER: _("The game has superpowers"),
    PowerKind.FIELD: _("The game has fields of power"),
}
SYSTEM_CHOICES = [
    (LEVELS, _("Levels: free attribute and skill levels, gifts and faults, traded (Fudge, Mudge)")),
    (TOKENS, _("Tokens: one pool of tokens for everything (MicroFudged)")),
]
# A difficulty in words, "Very hard", in the reader's language (the rules vocabulary's).
DIFFICULTY_WORDS = {d: capfirst(TERMS["difficulty"][DIFFICULTY_NAMES[d]]) for d in DIFFICULTIES}
DIFFICULTY_CHOICES = list(DIFFICULTY_WORDS.items())
PRICING_CHOICES = [
    ("flat", _("Flat from a default")),
    ("by_difficulty", _("By difficulty")),
    ("per_rank", _("Tokens a rank")),
]
TEMPLATE_KIND_CHOICES = [("class", _("Class")), ("race", _("Race"))]


def text(label, help_text="", *, long=False, limit=NAME_LENGTH):
    widget = forms.Textarea(attrs={"rows": 3}) if long else forms.TextInput()
    widget.attrs["maxlength"] = limit
    return forms.CharField(label=label, help_text=help_text, required=False, widget=widget)


class TranslationsField(forms.CharField):
    """A catalogue entry's own words in other languages, one language a line, "fr: name |
    note": the file's {"fr": {"name": ..., "note": ...}}."""

    widget = forms.Textarea(attrs={"rows": 2})

    def __init__(self):
        super().__init__(
            label=_("In other languages"),
            help_text=_("Optional, one a line: fr: Savoir des lanternes | its note"),
            required=False,
        )

    def prepare_value(self, value):
        if not isinstance(value, dict):
            return value
        return "\n".join(
            f"{code}: {words.get('name', '')}"
            + (f" | {words['note']}" if words.get("note") else "")
            for code, words in value.items()
            if isinstance(words, dict)
        )

    def to_python(self, value):
        translations = {}
        for number, line in enumerate((value or "").splitlines(), start=1):
            if not line.strip():
                continue
            code, colon, words = line.partition(":")
            if not colon or not LANGUAGE_CODE.fullmatch(code.strip()):
                raise forms.ValidationError(
                    _("Line {number}: start with a language code and a colon, as fr: ...").format(
                        number=number
                    )
                )
            name, _bar, note = words.partition("|")
            said = {"name": name.strip()} if name.strip() else {}
            if note.strip():
                said["note"] = note.strip()
            translations[code.strip()] = said
        return translations


LINE = _("Line")


def lines(label, help_text="", *, item=LINE):
    """Names or text, one a line: a list in the file."""
    field = forms.CharField(
        label=label,
        help_text=help_text,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    field.item = item
    return field


def number(label, help_text="", *, required=False):
    return forms.IntegerField(
        label=label,
        help_text=help_text,
        required=required,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={"required": _("Give a whole number.")},
    )


def amount(label, help_text=""):
    return AmountField(
        label=label,
        help_text=help_text,
        required=False,
        max_digits=12,
        decimal_places=4,
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}),
        error_messages={"required": _("Give a number.")},
    )


def yes(label, help_text=""):
    return forms.BooleanField(label=label, help_text=help_text, required=False)


def choice(label, help_text, choices):
    """One of a few choices, each a sentence: radios, which wrap on a phone where a select's
    chosen words were cut short ("Levels: free attribute and skill levels, g…")."""
    return forms.ChoiceField(
        label=label,
        help_text=help_text,
        choices=choices,
        required=False,
        widget=forms.RadioSelect,
    )


def _knob_label(key: str, part: str) -> str:
    return knobs.said(knobs.knob(key, part).label, knobs.rule_words(DEFAULT))


# A knob's label as the house rules say it, in the words of no game in particular (the
# default ruleset's: "Free skill levels"), said in the reader's language when shown.
knob_label = lazy(_knob_label, str)


def knob_field(key: str, part: str = ""):
    """A knob of characters.knobs as the designer's field, labelled and explained by it."""
    entry = knobs.knob(key, part)
    label = knob_label(key, part)
    if entry.kind == knobs.COUNT:
        return number(label, entry.help, required=entry.required)
    if entry.kind == knobs.AMOUNT:
        return amount(label, entry.help)
    if entry.kind == knobs.YES_NO:
        return yes(label, entry.help)
    return text(label, entry.help)  # an attribute's name


def level(label, help_text="", *, none=""):
    """A word of the game's ladder; its choices are set by the section (`none`: the label of
    the empty choice, for a level that may be left out)."""
    field = forms.ChoiceField(label=label, help_text=help_text, required=False)
    field.none = none
    return field


def _name_lines(value: str) -> list[str]:
    return [line.strip() for line in (value or "").splitlines() if line.strip()]


def _number_of(value):
    """A form's Decimal as the file's number (2, 0.5); other values as they are."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _numbers_in(text: str) -> list[int]:
    """ "6, 11, 16" as numbers (the form has refused what is not one)."""
    return [int(part) for part in re.split(r"[,\s]+", text or "") if _whole_number(part)]


def _whole_number(part: str) -> bool:
    return part.isascii() and part.isdigit() and len(part) <= 9


def _pair_lines(mapping: dict) -> str:
    return "\n".join(f"{name}: {value}" for name, value in (mapping or {}).items())


def _signed(value) -> str:
    return f"{value:+d}" if isinstance(value, int) and value else str(value)
