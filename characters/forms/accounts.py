"""The language form, in the header and on the account page."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _


class LanguageForm(forms.Form):
    # Each language in its own words, so a reader finds theirs whatever the page is in.
    language = forms.ChoiceField(choices=lambda: settings.LANGUAGES, label=_("Language"))
    next = forms.CharField(required=False, widget=forms.HiddenInput)
