"""Forms of the play page and the party view. A change that depends on what the page showed
posts the play state's `revision` (RevisionForm), so a stale click is refused."""

from django import forms
from django.utils.translation import gettext_lazy as _

from characters.models import CONDITION_LENGTH
from characters.selectors.npc_table import REACTION_ROWS
from rules.game_parts import MAX_TRACKER_SIZE

MODIFIER_MAX = 10  # a situational modifier beyond this is a different roll
FACTOR_MAX = 30  # damage factors past Scale 20 giants and Impervious armour (Mudge 4.54)
LEVEL_BOUNDS = (-4, 12)  # Abysmal .. Legendary+8: what a roll may be against


class RevisionForm(forms.Form):
    revision = forms.IntegerField(label=_("Revision"), widget=forms.HiddenInput, min_value=0)


class WoundForm(RevisionForm):
    """One button per box: "mark:2" ticks a box at level 2, "clear:2" clears one."""

    box = forms.RegexField(label=_("Box"), regex=r"^(mark|clear):\d{1,2}$")
    # Which member of a group NPC (services.play.play_wound_box): the first when absent.
    member = forms.IntegerField(label=_("Member"), min_value=1, max_value=50, required=False)

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


class TrackerForm(RevisionForm):
    """A designed game's tracker changed: a step (+1 or -1, a count's buttons) or a value
    (the box or segment clicked: up to it, or, ticked already, back to the one before)."""

    tracker = forms.SlugField(label=_("Tracker"), max_length=100)
    step = forms.TypedChoiceField(
        label=_("Step"),
        choices=[("1", "+1"), ("-1", "-1")],
        coerce=int,
        required=False,
        empty_value=0,
    )
    value = forms.IntegerField(
        label=_("Value"), min_value=0, max_value=MAX_TRACKER_SIZE, required=False
    )

    def clean(self):
        data = super().clean()
        if not data.get("step") and data.get("value") is None:
            raise forms.ValidationError(_("Choose a step or a value."))
        return data


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


# -- the GM's NPC roller on the party view (selectors.npc_table) --------------------------------


class NpcRollForm(forms.Form):
    """One NPC's trait, rolled by the campaign's method; options are grouped by NPC, each
    valued "<pk>|<trait>" (selectors.npc_table)."""

    npc_trait = forms.ChoiceField(label=_("NPC and trait"))
    modifier = forms.IntegerField(
        label=_("Modifier"), min_value=-MODIFIER_MAX, max_value=MODIFIER_MAX, required=False
    )
    against = forms.IntegerField(
        label=_("Against"), min_value=LEVEL_BOUNDS[0], max_value=LEVEL_BOUNDS[1], required=False
    )
    secret = forms.BooleanField(label=_("Only I see it"), required=False)

    def __init__(self, *args, npc_traits, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["npc_trait"].choices = npc_traits.groups


class GroupRollForm(forms.Form):
    """Fudge 1995 4.64: several NPCs, each with the trait it fights with, against one PC."""

    foes = forms.MultipleChoiceField(
        label=_("The NPCs, each with the trait it fights with"),
        widget=forms.CheckboxSelectMultiple,
    )
    pc_trait = forms.ChoiceField(label=_("The lone PC and the trait"))
    pc_result = forms.IntegerField(
        label=_("The PC's rolled result, if known"),
        min_value=LEVEL_BOUNDS[0],
        max_value=LEVEL_BOUNDS[1],
        required=False,
    )
    secret = forms.BooleanField(label=_("Only I see it"), required=False)

    def __init__(self, *args, npc_traits, pc_traits, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["foes"].choices = npc_traits.groups
        self.fields["pc_trait"].choices = pc_traits.groups


class ReactionForm(forms.Form):
    """Fudge 1995 4.9: a secret reaction roll with up to three modifiers, each with why."""

    npc = forms.ChoiceField(label=_("NPC"), required=False)

    def __init__(self, *args, npcs, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["npc"].choices = [("", _("A stranger"))] + [(str(c.pk), c.name) for c in npcs]
        for row in range(1, REACTION_ROWS + 1):
            self.fields[f"why_{row}"] = forms.CharField(
                label=_("Why (modifier {row})").format(row=row), max_length=60, required=False
            )
            self.fields[f"value_{row}"] = forms.IntegerField(
                label=_("Modifier {row}").format(row=row),
                min_value=-MODIFIER_MAX,
                max_value=MODIFIER_MAX,
                required=False,
            )

    def rows(self):
        return [(self[f"why_{row}"], self[f"value_{row}"]) for row in range(1, REACTION_ROWS + 1)]

    def modifiers(self) -> list[tuple[str, int]]:
        data = self.cleaned_data
        return [
            (data[f"why_{row}"], data[f"value_{row}"])
            for row in range(1, REACTION_ROWS + 1)
            if data[f"value_{row}"]
        ]
