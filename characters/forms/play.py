"""Forms of the play page and the party view. A change that depends on what the page showed
posts the play state's `revision` (RevisionForm), so a stale click is refused."""

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.models import CONDITION_LENGTH

MODIFIER_MAX = 10  # a situational modifier beyond this is a different roll
FACTOR_MAX = 30  # damage factors past Scale 20 giants and Impervious armour (Mudge 4.54)
LEVEL_BOUNDS = (-4, 12)  # Abysmal .. Legendary+8: what a roll may be against


class RevisionForm(forms.Form):
    revision = forms.IntegerField(label=_("Revision"), widget=forms.HiddenInput, min_value=0)


class WoundForm(RevisionForm):
    """One button per box: "mark:2" ticks a box at level 2, "clear:2" clears one."""

    box = forms.RegexField(label=_("Box"), regex=r"^(mark|clear):\d{1,2}$")

    def action(self) -> tuple[str, int]:
        what, level = self.cleaned_data["box"].split(":")
        return what, int(level)


class BlowForm(forms.Form):
    damage = forms.IntegerField(label=_("Damage"), min_value=-FACTOR_MAX, max_value=FACTOR_MAX * 2)


class PointsForm(RevisionForm):
    action = forms.ChoiceField(
        label=_("Action"), choices=[("spend", "spend"), ("regain", "regain")]
    )


class PotentialForm(RevisionForm):
    power = forms.CharField(label=_("Power"), max_length=100)
    action = forms.ChoiceField(label=_("Action"), choices=[("use", "use"), ("return", "return")])


class ConditionForm(forms.Form):
    """Adding or removing a condition composes with any other change: no revision."""

    text = forms.CharField(label=_("Text"), max_length=CONDITION_LENGTH, strip=True)


class RestForm(RevisionForm):
    rest = forms.SlugField(label=_("Rest"), max_length=20)


class RollForm(forms.Form):
    """The roller. A trait's own Roll button sends its name as `quick`, which wins over the
    trait chosen in the list; the rest of the roller (modifier, against, weapon) applies."""

    trait = forms.CharField(label=_("Trait"), max_length=100, required=False)
    quick = forms.CharField(label=_("Quick"), max_length=100, required=False)
    modifier = forms.IntegerField(
        label=_("Modifier"),
        min_value=-MODIFIER_MAX,
        max_value=MODIFIER_MAX,
        required=False,
        initial=0,
    )
    against = forms.IntegerField(
        label=_("Against"), min_value=LEVEL_BOUNDS[0], max_value=LEVEL_BOUNDS[1], required=False
    )
    weapon = forms.CharField(label=_("Weapon"), max_length=100, required=False)
    defence = forms.IntegerField(
        label=_("Defence"), min_value=-FACTOR_MAX, max_value=FACTOR_MAX, required=False
    )

    def roll(self) -> dict:
        data = self.cleaned_data
        return {
            "trait": data["quick"] or data["trait"],
            "modifier": data["modifier"] or 0,
            "against": data["against"],
            "weapon": data["weapon"],
            "defence": data["defence"],
        }
