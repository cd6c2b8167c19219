"""Form fields several forms share."""

from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from rules.text import BIDI_CONTROLS, name_problem, unstorable_problem


def validate_name(value: str) -> None:
    """Names are refused as a character file refuses them (rules/text.py), saying why in
    the reader's language."""
    if not name_problem(value):
        return
    if "\x00" in value:
        message = _(
            "This name contains a NUL character (U+0000), which cannot be stored: remove it."
        )
    elif unstorable_problem(value):
        message = _(
            "This name contains a lone surrogate (half of a UTF-16 pair), which is not text: "
            "remove it."
        )
    else:
        control = next(c for c in value if c in BIDI_CONTROLS)
        message = _(
            "This name contains a text-direction control ({code}), which can make a name read "
            "backwards: remove it."
        ).format(code=f"U+{ord(control):04X}")
    raise ValidationError(message, code="name")


class NameField(forms.CharField):
    """A one-line name: a character's, a trait's, a campaign's, an item's."""

    default_validators = [validate_name]


class AmountField(forms.DecimalField):
    """A gift's or fault's worth, a house-rule amount: shown as 1 or 0.5, not as the
    database column's 1.00."""

    def prepare_value(self, value):
        if isinstance(value, Decimal) and value.is_finite():
            return format(value.normalize(), "f")
        return value
