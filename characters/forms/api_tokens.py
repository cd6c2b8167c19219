"""The account page's form for a new API token."""

from django import forms


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        label="What will use it",
        help_text="A name to tell your tokens apart, e.g. “folder checker”.",
    )
