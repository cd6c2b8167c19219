"""The print options, on the sheet's PDF link (a GET form) and on the campaign pack's page.
The same choices as `render_sheet`'s --paper, --flat, --reference and --pencil."""

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.pdf import PrintOptions

FILLABLE, FLAT = "fillable", "flat"


class PrintForm(forms.Form):
    paper = forms.ChoiceField(
        label=_("Paper"),
        choices=[("a4", "A4"), ("letter", _("US Letter"))],
        initial="a4",
        required=False,
        widget=forms.RadioSelect,
    )
    output = forms.ChoiceField(
        label="PDF",
        choices=[
            (FILLABLE, _("Fillable: tick wounds and type points in a PDF viewer")),
            (FLAT, _("Flat: for the printer")),
        ],
        initial=FILLABLE,
        required=False,
        widget=forms.RadioSelect,
    )
    reference = forms.BooleanField(
        label=_("Add the trait ladder and cost tables, on a page of their own"), required=False
    )
    pencil = forms.BooleanField(
        label=_("Pencil play: leave experience, points and wounds blank"), required=False
    )

    def options(self) -> PrintOptions:
        data = self.cleaned_data
        return PrintOptions(
            paper=data["paper"] or "a4",
            fillable=data["output"] != FLAT,
            reference=data["reference"],
            pencil=data["pencil"],
        )

    def problem(self) -> str:
        """What was wrong, in one line: "paper: Select a valid choice. a3 is not one of the
        available choices." """
        return " ".join(f"{field}: {' '.join(errors)}" for field, errors in self.errors.items())


class NpcCardsForm(forms.Form):
    """The NPC cards' link (a GET form on the party view): the paper, and the NPCs ticked
    (none ticked: every NPC of the campaign)."""

    paper = PrintForm.base_fields["paper"]
    npc = forms.ModelMultipleChoiceField(
        label=_("NPCs"), queryset=None, required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, npcs, **kwargs):
        super().__init__(*args, **kwargs)
        self.npcs = npcs
        self.fields["npc"].queryset = npcs

    def chosen(self):
        return list(self.cleaned_data["npc"] or self.npcs)

    def paper_size(self) -> str:
        return self.cleaned_data["paper"] or "a4"

    problem = PrintForm.problem
