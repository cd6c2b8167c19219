"""The table's sort and filter: a GET form, so a filtered table is a link like any other."""

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.models import Character
from characters.selectors.keeping import NO_CAMPAIGN, SORTS


class TableForm(forms.Form):
    q = forms.CharField(label=_("Name"), required=False, max_length=100)
    state = forms.ChoiceField(
        label=_("State"), required=False, choices=[("", _("Any state")), *Character.State.choices]
    )
    campaign = forms.ChoiceField(label=_("Campaign"), required=False)
    sort = forms.ChoiceField(
        label=_("Sort by"),
        required=False,
        choices=[(key, label) for key, (label, _ordering) in SORTS.items()],
    )

    def __init__(self, *args, campaigns, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["campaign"].choices = [
            ("", _("Any campaign")),
            (NO_CAMPAIGN, _("No campaign")),
            *((str(c.pk), c.name) for c in campaigns),
        ]

    def filters(self) -> dict:
        """What the table selector takes; a value that does not fit is left out."""
        data = self.cleaned_data if self.is_valid() else {}
        return {key: data.get(key) or "" for key in ("q", "state", "campaign", "sort")}
