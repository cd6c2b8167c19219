"""The account page's forms: a new API token, the address notifications go to."""

from django import forms


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        label="What will use it",
        help_text="A name to tell your tokens apart, e.g. “folder checker”.",
    )


class NotificationEmailForm(forms.Form):
    email = forms.EmailField(
        required=False,
        label="E-mail for notifications",
        help_text="When your GM approves a build, sends one back or awards experience. "
        "Leave it empty for none.",
    )
