"""The account page's forms: a new API token, the address notifications go to."""

from django import forms
from django.utils.translation import gettext_lazy as _


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        label=_("What will use it"),
        help_text=_("A name to tell your tokens apart, e.g. “folder checker”."),
    )


class NotificationEmailForm(forms.Form):
    email = forms.EmailField(
        required=False,
        label=_("E-mail for notifications"),
        help_text=_(
            "When your GM approves a build, sends one back or awards experience. Leave it "
            "empty for none."
        ),
    )
