"""A form's controls for the rows of a long list (the builder's traits and equipment), drawn
by Django once per form shape and then for each row by putting the row's id and value in
place. A row drawn through a form of its own costs a form, a bound field per control and a
widget's context per option, sixty times on a builder page (bench.web); here a row costs a
few string replacements, and what it writes is byte for byte what the form writes
(tests/app/test_form_renderer.py), since Django drew it."""

from collections.abc import Mapping

from django import forms
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString

# Where a row's id prefix ("trait-12-") and a text control's value go in a drawn control:
# characters no id, value or label of Django's drawing carries.
ID = "\x00"
VALUE = "\x01"


class DrawnControl(SafeString):
    """One control's HTML, with its label and value as its bound field has them."""

    label: str
    initial: object  # as the field prepares it for its widget

    def value(self):
        return self.initial


class DrawnControls:
    """A row's controls, read as its unbound form's are: controls["level"] (the control,
    with .label and .value), .fields, and .errors (none: a refused form is shown itself)."""

    errors: Mapping = {}

    def __init__(self, fields: Mapping, drawn: dict[str, DrawnControl]):
        self.fields = fields
        self._drawn = drawn

    def __getitem__(self, name: str) -> DrawnControl:
        return self._drawn[name]


class RowControls:
    """The controls of `form` (unbound, its auto_id "<ID>%s", every field an input or a
    select) ready to draw for any row: draw(prefix, values)."""

    def __init__(self, form: forms.Form):
        self.fields = form.fields
        self._draw = {name: _drawer(form[name]) for name in form.fields}

    def draw(self, prefix: str, values: Mapping) -> DrawnControls:
        """The controls with `values` (by field name, as a form's initial) and the ids
        "<prefix><name>", as the form with that initial and auto_id "<prefix>%s" draws them."""
        drawn = {}
        for name, draw in self._draw.items():
            value = values.get(name)
            field = self.fields[name]
            control = drawn[name] = DrawnControl(draw(prefix, value))
            control.label, control.initial = field.label, field.prepare_value(value)
        return DrawnControls(self.fields, drawn)


def _drawer(field: forms.BoundField):
    widget = field.field.widget

    def shown(value):  # what the widget shows of a value, as BoundField.value() gives it
        return widget.format_value(field.field.prepare_value(value))

    if isinstance(widget, forms.Select) and not widget.allow_multiple_selected:
        # One drawing per option selected; a value no option has selects none.
        by_value = {str(value): _drawn(field, value) for value, _ in _options(widget.choices)}
        unknown = _drawn(field, VALUE)

        def draw_select(prefix: str, value) -> str:
            return by_value.get(shown(value)[0], unknown).replace(ID, prefix)

        return draw_select
    if type(widget) in (forms.TextInput, forms.NumberInput, forms.HiddenInput):
        with_value, without = _drawn(field, VALUE), _drawn(field, None)

        def draw_input(prefix: str, value) -> str:
            text = shown(value)
            if text is None:
                return without.replace(ID, prefix)
            # The id first: a value is the player's text, and stays as typed.
            return with_value.replace(ID, prefix).replace(VALUE, conditional_escape(text))

        return draw_input
    raise TypeError(f"RowControls draws inputs and selects, not {type(widget).__name__}")


def _drawn(field: forms.BoundField, value) -> str:
    """The control as the form draws it with `value` as its initial."""
    field.form.initial[field.name] = value
    field.__dict__.pop("initial", None)  # BoundField keeps the initial it read
    return str(field)


def _options(choices):
    for value, label in choices:
        if isinstance(label, (list, tuple)):  # a group of options
            yield from label
        else:
            yield value, label
