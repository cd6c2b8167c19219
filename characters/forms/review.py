"""Forms of the review, audit and advancement pages. Writes that depend on what the page
showed post the character's `version` (VersionedForm), so a stale page is refused."""

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.adapters import trait_target
from characters.errors import ServiceError
from characters.forms.builder import VersionedForm
from characters.forms.fields import NameField
from characters.models import DIFFICULTY_CHOICES, LEVEL_MAX, LEVEL_MIN
from characters.selectors.advancement import LEARN_LISTS, MAX_AWARD, SPENDS
from characters.selectors.review_rows import equipment_target
from rules import plan

APPROVE, REQUEST_CHANGES = "approve", "request_changes"
COMMENT_MAX = 5000


class ReviewForm(VersionedForm):
    """The GM's decision on a submitted build: a comment on the whole build, one box per
    trait, and an override reason for a build that breaks a rule. The button pressed
    (name="decision") says which way it goes."""

    decision = forms.ChoiceField(
        choices=[
            (APPROVE, gettext_lazy("Approve")),
            (REQUEST_CHANGES, gettext_lazy("Request changes")),
        ]
    )
    comment = forms.CharField(
        label=gettext_lazy("Comment on the build"),
        required=False,
        max_length=COMMENT_MAX,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    override_reason = forms.CharField(
        label=gettext_lazy("Why approve it over the rules"),
        required=False,
        max_length=2000,
        help_text=gettext_lazy("Stays on the record and is printed on the sheet."),
        widget=forms.Textarea(attrs={"rows": 2}),
    )

    def __init__(self, *args, traits, equipment=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.traits = list(traits)
        self.equipment = list(equipment)
        for name, what in [(self.trait_field(t), t.name) for t in self.traits] + [
            (f"equipment_{item.pk}", item.name) for item in self.equipment
        ]:
            self.fields[name] = forms.CharField(
                label=_("Your comment on {name}").format(name=what),
                required=False,
                max_length=COMMENT_MAX,
                widget=forms.Textarea(attrs={"rows": 2}),
            )

    def rows(self, review_rows):
        """(row, its comment box) for each of the review's rows (selectors.review_rows)."""
        return [(row, self[row.field]) for row in review_rows if row.field in self.fields]

    @staticmethod
    def trait_field(trait) -> str:
        return f"trait_{trait.pk}"

    def refuse(self, error: ServiceError) -> None:
        """The service's refusal, under the box it is about (focused, so the eye lands
        there after the swap), else above the form."""
        field = error.field if error.field in self.fields else None
        self.add_error(field, str(error))
        if field:
            self.fields[field].widget.attrs["autofocus"] = True

    def comments(self) -> list[tuple[str, str]]:
        """(target, text) for the services: "" is the whole build, else "kind:Name"."""
        data = self.cleaned_data
        return (
            [("", data["comment"])]
            + [(trait_target(trait), data[self.trait_field(trait)]) for trait in self.traits]
            + [(equipment_target(item), data[f"equipment_{item.pk}"]) for item in self.equipment]
        )


class AwardForm(forms.Form):
    PARTY, CHARACTER = "party", "character"
    amount = forms.IntegerField(min_value=1, max_value=MAX_AWARD, initial=1)
    reason = forms.CharField(max_length=500, strip=True)
    to = forms.ChoiceField(
        choices=[
            (CHARACTER, gettext_lazy("This character")),
            (PARTY, gettext_lazy("The whole party")),
        ],
        initial=CHARACTER,
        widget=forms.RadioSelect,
    )


class SpendForm(VersionedForm):
    """A spend, asked once: posted without `confirmed` it comes back priced with a button to
    confirm (the page's confirmation step, which needs no script); with it, it is made."""

    what = forms.ChoiceField(choices=[(s, s) for s in SPENDS])
    trait = forms.IntegerField(required=False, widget=forms.HiddenInput)
    name = NameField(max_length=100, required=False)
    kind = forms.ChoiceField(choices=[(k, k) for k in LEARN_LISTS], required=False)
    difficulty = forms.ChoiceField(choices=[("", ""), *DIFFICULTY_CHOICES], required=False)
    confirmed = forms.BooleanField(required=False)

    def spend(self) -> dict:
        """The service's arguments, but the trait (the view finds it among the character's)."""
        data = self.cleaned_data
        return {k: data[k] for k in ("what", "name", "kind", "difficulty")}


class PointsForm(VersionedForm):
    count = forms.IntegerField(min_value=1, max_value=10, initial=1)
    reason = forms.CharField(max_length=300, required=False, strip=True)


class RefuseForm(forms.Form):
    reason = forms.CharField(max_length=500, strip=True)


class PlanStepForm(VersionedForm):
    """A step added to the experience plan (rules.plan.Step). Each kind of step has its own
    small form on the page; they all post here, `what` saying which."""

    what = forms.ChoiceField(choices=[(w, w) for w in plan.WHATS])
    trait = forms.CharField(max_length=120, required=False)  # "skills:Climbing"
    name = NameField(max_length=plan.MAX_NAME, required=False)
    list = forms.ChoiceField(choices=[(n, n) for n in plan.LEARN_LISTS], required=False)
    to = forms.IntegerField(min_value=LEVEL_MIN, max_value=LEVEL_MAX, required=False)
    difficulty = forms.ChoiceField(choices=[("", ""), *DIFFICULTY_CHOICES], required=False)
    count = forms.IntegerField(min_value=1, max_value=100, required=False)

    def clean(self):
        data = super().clean()
        what = data.get("what")
        if what == plan.META_POINT:
            if not data.get("count"):
                self.add_error("count", _("Say how many points the character should hold."))
        elif what == plan.RAISE:
            list_name, _sep, name = (data.get("trait") or "").partition(":")
            if list_name not in plan.RAISE_LISTS or not name.strip():
                self.add_error("trait", _("Choose the trait to raise."))
            data["list"], data["name"] = list_name, name.strip()
        elif what and not data.get("name"):
            self.add_error("name", _("Name what the step adds or buys off."))
        if what in (plan.RAISE, plan.LEARN) and data.get("to") is None:
            self.add_error("to", _("Choose the level to reach."))
        if what == plan.LEARN and not data.get("list"):
            data["list"] = "skills"
        return data

    def step(self) -> plan.Step:
        data = self.cleaned_data
        what = data["what"]
        if what == plan.META_POINT:
            return plan.Step(what, level=data["count"])
        if what in (plan.GIFT, plan.POWER, plan.BUY_OFF_FAULT):
            return plan.Step(what, data["name"])
        difficulty = (data.get("difficulty") or None) if what == plan.LEARN else None
        return plan.Step(what, data["name"], data["list"], data["to"], difficulty)


class PlanMoveForm(VersionedForm):
    index = forms.IntegerField(min_value=0, max_value=plan.MAX_STEPS)
    offset = forms.TypedChoiceField(choices=[("-1", "-1"), ("1", "1")], coerce=int, required=False)
