"""Forms for the GM's NPCs (services.npcs): make one four ways, show it, copy it N times."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from characters.forms.fields import NameField
from characters.models import MAX_COPIES, NpcShown
from rules.charfile import MAX_GROUP

MAX_FILE = 1_000_000  # as the import page's

BLANK, TEMPLATE, COPY, FILE = "blank", "template", "copy", "file"


class NpcForm(forms.Form):
    """One form for the four ways: the fields a way does not read are left alone."""

    how = forms.ChoiceField(
        label=_("Made from"),
        choices=[
            (BLANK, pgettext_lazy("NPC made from", "A blank")),
            (TEMPLATE, pgettext_lazy("NPC made from", "A template")),
            (COPY, pgettext_lazy("NPC made from", "A copy of a character")),
            (FILE, pgettext_lazy("NPC made from", "A character file")),
        ],
        initial=BLANK,
        widget=forms.RadioSelect,
    )
    name = NameField(label=_("Name"), max_length=200, required=False)
    group_size = forms.IntegerField(
        label=_("How many in the group"),
        min_value=1,
        max_value=MAX_GROUP,
        initial=1,
        help_text=_("More than 1: a crew made as one NPC, with a wound track for each."),
    )
    budget = forms.BooleanField(
        label=_("Price it against the creation budget"),
        required=False,
        help_text=_("Left unticked, the NPC has only the traits that matter: no budget."),
    )
    template = forms.ChoiceField(label=_("Template"), required=False)
    source = forms.ModelChoiceField(
        label=_("Character to copy"), queryset=None, required=False, empty_label="—"
    )
    file = forms.FileField(label=_("Character file"), required=False)

    def __init__(self, *args, templates, characters, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["template"].choices = [("", "—"), *templates]
        self.fields["source"].queryset = characters

    def clean(self):
        data = super().clean()
        how = data.get("how")
        if how in (BLANK, TEMPLATE) and not data.get("name"):
            self.add_error("name", _("Give the NPC a name."))
        if how == TEMPLATE and not data.get("template"):
            self.add_error("template", _("Choose a template."))
        if how == COPY and not data.get("source"):
            self.add_error("source", _("Choose the character to copy."))
        if how == FILE:
            upload = data.get("file")
            if not upload:
                self.add_error("file", _("Choose a character file."))
            elif upload.size > MAX_FILE:
                self.add_error("file", _("The file is larger than 1 MB: is it a character file?"))
            else:
                data["content"] = upload.read()
        return data


class NpcShownForm(forms.Form):
    shown = forms.ChoiceField(label=_("Shown to the players"), choices=NpcShown.choices)


class NpcCopiesForm(forms.Form):
    count = forms.IntegerField(label=_("Copies"), min_value=1, max_value=MAX_COPIES, initial=2)
