"""The instance's library of games: what a GM says when publishing a version of their game,
and how other GMs look for one."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from characters.forms.fields import NameField
from characters.models import Campaign, Licence, PublishedGame


class PublishForm(forms.Form):
    """A version of the GM's game put in the library: which version, what it is, the
    languages it is written in and what others may do with it."""

    version = forms.TypedChoiceField(label=_("Version"), coerce=int)
    description = forms.CharField(
        label=_("Description"),
        max_length=PublishedGame._meta.get_field("description").max_length,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("What the game is, for a GM deciding whether to play it."),
    )
    languages = forms.MultipleChoiceField(
        label=_("Languages"),
        choices=settings.LANGUAGES,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("The languages the game is written in."),
    )
    licence = forms.ChoiceField(
        label=_("Licence"),
        choices=Licence.choices,
        widget=forms.RadioSelect,
        help_text=_("What other GMs may do with the copies they take."),
    )
    licence_own_words = forms.CharField(
        label=_("Your licence, in your own words"),
        max_length=PublishedGame._meta.get_field("licence_own_words").max_length,
        required=False,
    )

    def __init__(self, *args, versions, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["version"].choices = [
            (version.number, _("Version {number}").format(number=version.number))
            for version in versions
        ]

    def clean(self):
        data = super().clean()
        if data.get("licence") == Licence.OWN and not data.get("licence_own_words", "").strip():
            self.add_error(
                "licence_own_words", _("Say what others may do with it, or choose a licence.")
            )
        return data


class LibrarySearchForm(forms.Form):
    """The library's plain GET form: a language and words of a game's name."""

    language = forms.ChoiceField(
        label=_("Language"),
        choices=[("", _("Any language")), *settings.LANGUAGES],
        required=False,
    )
    name = forms.CharField(label=_("Name"), max_length=100, required=False)


class LibraryCampaignForm(forms.Form):
    """A campaign started on a copy of a game from the library."""

    name = NameField(
        label=_("Campaign name"), max_length=Campaign._meta.get_field("name").max_length
    )
