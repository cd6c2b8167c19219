"""Where a design starts: a built-in ruleset, a file, or nothing. The design itself is
edited section by section: characters.forms.designer."""

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.forms.fields import NameField
from characters.vocabulary import term
from rules.rulesets import ruleset_choices

BLANK = "blank"


class DesignStartForm(forms.Form):
    """Where a new design starts: a built-in ruleset, nothing, or an uploaded file."""

    start = forms.ChoiceField(
        label=_("Start from"),
        choices=lambda: [
            *((slug, term(name, "ruleset")) for slug, name in ruleset_choices()),
            (BLANK, _("Nothing: a blank game")),
        ],
        help_text=_("A built-in ruleset gives every number of it to change."),
        initial=lambda: ruleset_choices()[0][0],  # as the select it was chose its first
        # Radios: a ruleset's whole name shows on a phone, where a select cut it short.
        widget=forms.RadioSelect,
    )
    name = NameField(max_length=100, label=_("Your game's name"))


class DesignImportForm(forms.Form):
    file = forms.FileField(
        label=_("Ruleset file"),
        help_text=_("A ruleset file, e.g. one exported here or by another Fairsheet."),
    )
