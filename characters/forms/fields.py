"""Form fields several forms share."""

from decimal import Decimal

from django import forms
from django.core.exceptions import ValidationError

from rules.text import name_problem


def validate_name(value: str) -> None:
    """Names are refused as a character file refuses them (rules/text.py)."""
    problem = name_problem(value)
    if problem:
        raise ValidationError(f"This name {problem}.", code="name")


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
