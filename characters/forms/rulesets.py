"""Where a design starts: a built-in ruleset, a file, or nothing. The design itself is
edited section by section: characters.forms.designer."""

from django import forms

from characters.forms.fields import NameField
from rules.rulesets import ruleset_choices

BLANK = "blank"


class DesignStartForm(forms.Form):
    """Where a new design starts: a built-in ruleset, nothing, or an uploaded file."""

    start = forms.ChoiceField(
        label="Start from",
        choices=lambda: [*ruleset_choices(), (BLANK, "Nothing: a blank game")],
        help_text="A built-in ruleset gives every number of it to change.",
    )
    name = NameField(max_length=100, label="Your game's name")


class DesignImportForm(forms.Form):
    file = forms.FileField(
        label="Ruleset file",
        help_text="A ruleset file, e.g. one exported here or by another Fairsheet.",
    )
