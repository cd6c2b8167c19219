"""Forms of the builder: one per row kind, all posting a `version` so stale writes are caught.

Levels travel as ladder offsets (ints) in <select>s; anything off the ladder is a form error,
never a 500.
"""

from django import forms

from characters.models import DIFFICULTY_CHOICES, RULESET_CHOICES, Equipment, Trait
from rules.ladder import ABYSMAL, LEGENDARY, level_name

LEVEL_CHOICES = [(lv, level_name(lv)) for lv in range(LEGENDARY + 3, ABYSMAL - 1, -1)]
NAME_MAX = 100


class VersionedForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class TraitForm(VersionedForm):
    """A trait row. Which fields show depends on the kind (and ruleset), see for_kind()."""

    name = forms.CharField(max_length=NAME_MAX, strip=True)
    level = forms.TypedChoiceField(choices=LEVEL_CHOICES, coerce=int, required=False)
    difficulty = forms.ChoiceField(choices=[("", "—"), *DIFFICULTY_CHOICES], required=False)
    cost = forms.DecimalField(min_value=0, max_value=20, decimal_places=2, required=False)
    power_kind = forms.ChoiceField(choices=[], required=False)

    def __init__(self, *args, kind: str, ruleset, **kwargs):
        super().__init__(*args, **kwargs)
        self.kind = kind
        self.fields["power_kind"].choices = [(k, k) for k in ruleset.power_kinds]
        keep = {"version", "name"}
        if kind in (Trait.ATTRIBUTE, Trait.SKILL, Trait.POWER):
            keep.add("level")
            self.fields["level"].required = kind != Trait.POWER
        if ruleset.skill_difficulties and kind in (Trait.SKILL, Trait.POWER):
            keep.add("difficulty")
        if kind in (Trait.GIFT, Trait.FAULT, Trait.POWER):
            keep.add("cost")
        if kind == Trait.POWER and len(ruleset.power_kinds) > 1:
            keep.add("power_kind")
        for name in set(self.fields) - keep:
            del self.fields[name]
        if "cost" in self.fields:
            self.fields["cost"].label = "Value" if kind == Trait.FAULT else "Cost"

    def clean_name(self):
        name = self.cleaned_data["name"]
        if not name:
            raise forms.ValidationError("Give the trait a name.")
        return name

    def trait_fields(self) -> dict:
        data = {k: v for k, v in self.cleaned_data.items() if k != "version"}
        if self.kind in (Trait.GIFT, Trait.FAULT) and data.get("cost") is None:
            data.pop("cost", None)  # keep the catalogue's or the current value
        if "level" in data and data["level"] == "":
            data["level"] = None
        return data


class EquipmentForm(VersionedForm):
    name = forms.CharField(max_length=NAME_MAX, strip=True)
    kind = forms.ChoiceField(choices=Equipment.KINDS)
    damage = forms.IntegerField(
        min_value=-10, max_value=50, required=False, help_text="Weapon value (Mudge 4.54)"
    )
    armour = forms.IntegerField(
        min_value=-10, max_value=50, required=False, help_text="Armour value (Mudge 4.54)"
    )
    notes = forms.CharField(max_length=1000, required=False, strip=True)

    def item_fields(self) -> dict:
        return {k: v for k, v in self.cleaned_data.items() if k != "version"}


class DetailsForm(VersionedForm):
    name = forms.CharField(max_length=200, strip=True)
    concept = forms.CharField(max_length=1000, required=False, strip=True)
    race = forms.CharField(max_length=200, required=False, strip=True)
    scale_strength = forms.IntegerField(min_value=-50, max_value=50, label="Strength Scale")
    scale_mass = forms.IntegerField(min_value=-50, max_value=50, label="Mass Scale")
    meta_points = forms.IntegerField(
        min_value=0, max_value=100, required=False, label="Meta points"
    )

    def detail_fields(self) -> dict:
        return {k: v for k, v in self.cleaned_data.items() if k != "version"}


# Mudge 1.35: the questionnaire's four numbered questions, plus the summary fields a sheet
# prints under personality and history.
PERSONALITY_QUESTIONS = (
    ("values", "What really matters to you? Anything you would give your life for?"),
    ("desires", "What do you want? Which one thing do you desire most?"),
    ("reasons", "For each thing desired, why?"),
    ("change", "How might getting what you want change you?"),
    ("personality", "Personality summary"),
    ("history", "History and background"),
)


class PersonalityForm(VersionedForm):
    notes = forms.CharField(
        max_length=20_000, required=False, widget=forms.Textarea(attrs={"rows": 3}), label="Notes"
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key, question in PERSONALITY_QUESTIONS:
            self.fields[f"q_{key}"] = forms.CharField(
                max_length=5000,
                required=False,
                label=question,
                widget=forms.Textarea(attrs={"rows": 2}),
            )

    def personality(self) -> dict:
        return {
            key: self.cleaned_data[f"q_{key}"]
            for key, _ in PERSONALITY_QUESTIONS
            if self.cleaned_data.get(f"q_{key}")
        }


class NewCharacterForm(forms.Form):
    name = forms.CharField(max_length=200, strip=True)
    concept = forms.CharField(max_length=1000, required=False, strip=True)
    campaign = forms.ModelChoiceField(queryset=None, required=False, empty_label="No campaign")
    ruleset = forms.ChoiceField(
        choices=RULESET_CHOICES,
        required=False,
        help_text="Used when the character is not in a campaign.",
    )

    def __init__(self, *args, campaigns, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["campaign"].queryset = campaigns

    def clean(self):
        data = super().clean()
        if not data.get("campaign") and not data.get("ruleset"):
            raise forms.ValidationError("Choose a campaign, or a ruleset to build alone.")
        return data


class ImportForm(forms.Form):
    file = forms.FileField(required=False, help_text="A Fairsheet character file (.json)")
    text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        label="…or paste the file",
        max_length=1_000_000,
    )
    campaign = forms.ModelChoiceField(queryset=None, required=False, empty_label="No campaign")

    def __init__(self, *args, campaigns, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["campaign"].queryset = campaigns

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload:
            if upload.size > 1_000_000:
                raise forms.ValidationError("The file is larger than 1 MB: is it a character file?")
            data["content"] = upload.read()
        elif data.get("text"):
            data["content"] = data["text"]
        else:
            raise forms.ValidationError("Choose a character file or paste one.")
        return data
