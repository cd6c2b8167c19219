"""Forms of the threads between the GM and the player (services.threads). The service says
what a message must be (not empty, not too long); these only carry it."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.adapters import TRAIT_LISTS, traits_by_kind
from characters.models import THREAD_MESSAGE_MAX, Character
from characters.selectors.review_rows import target_said
from characters.selectors.threads import row_key, thread_target
from rules.rulesets import Ruleset

WHOLE_BUILD = ""


def _message_field(label: str) -> forms.CharField:
    return forms.CharField(
        label=label,
        required=False,  # an empty message is the service's refusal, in its words
        max_length=THREAD_MESSAGE_MAX,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


class ThreadStartForm(forms.Form):
    """The GM's new thread: what it is about (the whole build, or one of the character's
    traits or pieces of equipment, in the sheet's order, each named in the character's
    `ruleset`'s words) and its first message."""

    about = forms.ChoiceField(label=gettext_lazy("About"), required=False)
    body = _message_field(gettext_lazy("Message"))

    def __init__(self, *args, character: Character, ruleset: Ruleset, **kwargs):
        kwargs.setdefault("auto_id", "thread-start-%s")  # one per page, on the review page
        super().__init__(*args, **kwargs)
        by_kind = traits_by_kind(character)
        self.rows = {row_key(t): t for kind in TRAIT_LISTS for t in by_kind[kind]}
        self.rows |= {row_key(item): item for item in character.equipment.all()}
        self.fields["about"].choices = [(WHOLE_BUILD, _("The whole build"))] + [
            (key, target_said(thread_target(row), ruleset)) for key, row in self.rows.items()
        ]

    def about_row(self):
        """The trait or piece of equipment chosen, or None for the whole build."""
        return self.rows.get(self.cleaned_data["about"])


class ThreadReplyForm(forms.Form):
    body = _message_field(gettext_lazy("Your answer"))


def first_problem(form: forms.Form) -> str:
    """A form's first error, in words, for the answer beside it."""
    for errors in form.errors.values():
        return errors[0]
    return _("Reload the page and try again.")
