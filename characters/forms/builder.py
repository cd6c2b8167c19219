"""Forms of the builder: one per row kind, all posting a `version` so stale writes are caught.

Levels travel as ladder offsets (ints) in <select>s; anything off the ladder is a form error,
never a 500.
"""

import copy
from functools import lru_cache
from typing import NamedTuple

from django import forms
from django.forms.models import ModelChoiceIteratorValue
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from characters import vocabulary
from characters.adapters import TRAIT_LISTS
from characters.forms.fields import AmountField, NameField
from characters.forms.row_controls import ID, RowControls
from characters.models import TRAIT_NAME_MAX, Equipment, Trait
from characters.rules_content import typed_key
from characters.wording import SPEAKER
from rules.character import PERSONALITY_QUESTIONS
from rules.house_rules import json_number
from rules.ladder import ABYSMAL, STANDARD, TERRIBLE, Ladder
from rules.report import POWER_DIFFICULTY
from rules.rulesets import DIFFICULTIES, LEVELS, SKILL_DIFFICULTY, ruleset_choices
from rules.tables import creation_choices
from rules.words import Level


def level_choices(
    system: str, top: int | None = None, ladder: Ladder = STANDARD, bottom: int | None = None
) -> list[tuple[int, str]]:
    """The ladder from `top` (three past its top word) down to `bottom` (the bottom of the
    ruleset's `system`: Abysmal in MicroFudged, DIP I; Terrible elsewhere, Mudge 1.2), in
    the ladder's words, in the reader's language."""
    floor = max(TERRIBLE if system == LEVELS else ABYSMAL, ladder.bottom)
    bottom = floor if bottom is None else max(bottom, floor)
    top = ladder.top_word_level + 3 if top is None else top
    return [(lv, SPEAKER.level(Level(lv, ladder))) for lv in range(top, bottom - 1, -1)]


def difficulty_choices(kind: str) -> list[tuple[str, str]]:
    """Difficulties, the empty one saying what it is priced as (spec: average for a skill,
    hard for a spell or psi power), in the reader's language."""
    unset = POWER_DIFFICULTY if kind == Trait.Kind.POWER else SKILL_DIFFICULTY
    difficulty = vocabulary.label(unset.replace("_", " "), "difficulty")
    return [
        ("", _("{difficulty} (the default)").format(difficulty=difficulty)),
        *(
            (value, vocabulary.label(value.replace("_", " "), "difficulty"))
            for value in DIFFICULTIES
        ),
    ]


class VersionedForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class TraitShape(NamedTuple):
    """What of a ruleset a trait row's form depends on, named as the ruleset names it."""

    system: str
    power_kinds: tuple[str, ...]
    skill_difficulties: bool
    superpower_cost: object
    ladder: Ladder
    # The levels each kind of trait may start at (rules.tables.creation_choices), by kind:
    # (kind, highest, lowest). A level list offers those and no other.
    creation: tuple[tuple[str, int, int], ...] = ()


def trait_shape(ruleset) -> TraitShape:
    return TraitShape(
        ruleset.system,
        ruleset.power_kinds,
        ruleset.skill_difficulties,
        ruleset.superpower_cost,
        ruleset.ladder,
        tuple(
            (kind, levels[0], levels[-1])
            for kind, levels in (
                (kind, creation_choices(ruleset, TRAIT_LISTS[kind]))
                for kind in (Trait.Kind.ATTRIBUTE, Trait.Kind.SKILL, Trait.Kind.POWER)
            )
        ),
    )


class TraitForm(VersionedForm):
    """A trait row. Which fields show depends on the kind and on a few of the ruleset's
    numbers (trait_fields)."""

    name = NameField(max_length=TRAIT_NAME_MAX, label=gettext_lazy("Name"))
    level = forms.TypedChoiceField(
        choices=[], coerce=int, required=False, label=gettext_lazy("Level")
    )
    difficulty = forms.TypedChoiceField(
        choices=[], required=False, label=gettext_lazy("Difficulty")
    )
    cost = AmountField(min_value=0, max_value=20, decimal_places=2, required=False)
    power_kind = forms.TypedChoiceField(choices=[], required=False, label=gettext_lazy("Kind"))

    def __init__(self, *args, kind: str, ruleset, keep_level: int | None = None, **kwargs):
        # Configured once per combination and language, and shared by every form
        # (SharedFields).
        shape = ruleset if isinstance(ruleset, TraitShape) else trait_shape(ruleset)
        self.base_fields = trait_fields(kind, *shape, language=get_language())
        super().__init__(*args, **kwargs)
        self.kind = kind
        if keep_level is not None and "level" in self.fields:
            self._keep(keep_level, shape.ladder)

    def _keep(self, level: int, ladder: Ladder) -> None:
        """A row already at a level creation does not offer (raised with experience, or
        imported so) keeps it among its choices: an edit of its name leaves it there."""
        field = self.fields["level"]
        if level in dict(field.choices):
            return
        field = self.fields["level"] = copy.deepcopy(field)  # not the shared one
        above = [(lv, word) for lv, word in field.choices if lv != "" and lv > level]
        field.choices = [
            *[(lv, word) for lv, word in field.choices if lv == ""],
            *above,
            (level, SPEAKER.level(Level(level, ladder))),
            *[(lv, word) for lv, word in field.choices if lv != "" and lv < level],
        ]

    def clean_name(self):
        name = self.cleaned_data["name"]
        if not name:
            raise forms.ValidationError(_("Give the trait a name."))
        # The row shows a built-in name in the reader's language: saved, it is its key again.
        return typed_key(name)

    def trait_fields(self) -> dict:
        data = {k: v for k, v in self.cleaned_data.items() if k != "version"}
        if self.kind in (Trait.Kind.GIFT, Trait.Kind.FAULT) and data.get("cost") is None:
            data.pop("cost", None)  # keep the catalogue's or the current value
        if "level" in data and data["level"] == "":
            data["level"] = None
        return data


@lru_cache(maxsize=64)
def trait_fields(
    kind,
    system,
    power_kinds,
    skill_difficulties,
    superpower_cost,
    ladder=STANDARD,
    creation=(),
    *,
    language,
) -> dict:
    """TraitForm's fields for one kind of trait under a ruleset's numbers and ladder, their
    words in `language` (the active one, which they are drawn in: a key of the cache)."""
    fields = copy.deepcopy(TraitForm.base_fields)
    # Empty: the catalogue's kind for a power it lists (Mudge 2.53's Fireball: a spell).
    fields["power_kind"].choices = [
        ("", _("As the catalogue lists it")),
        *((k, vocabulary.label(k, "power kind")) for k in power_kinds),
    ]
    top, bottom = next(((t, b) for k, t, b in creation if k == kind), (None, None))
    levels = level_choices(system, top, ladder, bottom)
    if kind == Trait.Kind.POWER and system == LEVELS:
        levels = [("", _("No level")), *levels]  # a superpower has none
    fields["level"].choices = levels
    fields["difficulty"].choices = difficulty_choices(kind)
    keep = {"version", "name"}
    if kind in (Trait.Kind.ATTRIBUTE, Trait.Kind.SKILL, Trait.Kind.POWER):
        keep.add("level")
        fields["level"].required = kind != Trait.Kind.POWER
    if skill_difficulties and kind in (Trait.Kind.SKILL, Trait.Kind.POWER):
        keep.add("difficulty")
    # A gift's or fault's worth, a superpower's cost in gifts; fields of power cost tokens.
    if kind in (Trait.Kind.GIFT, Trait.Kind.FAULT) or (
        kind == Trait.Kind.POWER and system == LEVELS
    ):
        keep.add("cost")
        fields["cost"].label = {
            Trait.Kind.FAULT: _("Value"),
            Trait.Kind.POWER: _("Superpower cost in gifts"),
        }.get(kind, _("Cost"))
        # Left empty: a gift's or fault's value from the catalogue (Mudge 1.33: 2 if
        # starred, else 1); a superpower's from the ruleset (Mudge 2.8: 2 gifts).
        unset = json_number(superpower_cost) if kind == Trait.Kind.POWER else _("catalogue")
        fields["cost"].widget.attrs["placeholder"] = unset
    if kind == Trait.Kind.POWER and len(power_kinds) > 1:
        keep.add("power_kind")
    return SharedFields((name, field) for name, field in fields.items() if name in keep)


def trait_controls(kind: str, ruleset) -> RowControls:
    """TraitForm's controls for a row of `kind` under `ruleset`, drawn without a form: the
    builder page draws sixty rows."""
    return _trait_controls(kind, trait_shape(ruleset), get_language())


@lru_cache(maxsize=64)
def _trait_controls(kind: str, shape: TraitShape, language: str) -> RowControls:
    """Drawn in `language`, the active one: a key of the cache, the drawing its words."""
    return RowControls(TraitForm(kind=kind, ruleset=shape, auto_id=f"{ID}%s"))


class SharedFields(dict):
    """A form's fields that no form changes once trait_fields has configured them: each form
    takes the same ones where Django would deep-copy its own, which the builder page, with
    a form for every row, pays for some sixty times."""

    def __deepcopy__(self, memo):
        return dict(self)


class EquipmentForm(VersionedForm):
    """A piece of equipment; its values are named in the ruleset's words (a weapon's damage
    and an armour's value in Mudge 4.54, cards in MicroFudged DIP VII.2): equipment_words."""

    name = NameField(
        max_length=Equipment._meta.get_field("name").max_length, label=gettext_lazy("Name")
    )
    # Empty on a new row: the catalogue's kind for a name it lists, else gear.
    kind = forms.ChoiceField(choices=[], required=False, label=gettext_lazy("Kind"))
    damage = forms.IntegerField(min_value=-10, max_value=50, required=False)
    armour = forms.IntegerField(min_value=-10, max_value=50, required=False)
    notes = forms.CharField(
        max_length=1000, required=False, strip=True, label=gettext_lazy("Notes")
    )

    def __init__(self, *args, words: "EquipmentWords", **kwargs):
        super().__init__(*args, **kwargs)
        # Said now, as plain text: the row controls draw them once per language.
        self.fields["kind"].choices = [
            ("", _("As the catalogue lists it")),
            *((value, str(label)) for value, label in Equipment.Kind.choices),
        ]
        self.fields["damage"].label = vocabulary.term(words.weapon_value, "equipment value")
        self.fields["damage"].help_text = _("Weapon value ({section})").format(
            section=words.section
        )
        self.fields["armour"].label = vocabulary.term(words.armour_value, "equipment value")
        self.fields["armour"].help_text = _("Armour value ({section})").format(
            section=words.section
        )

    def clean_name(self):
        # A built-in item's name shown in the reader's language is saved as its key.
        return typed_key(self.cleaned_data["name"])

    def item_fields(self) -> dict:
        """What was posted; an empty kind is left out (a new row takes the catalogue's, a
        row keeps its own)."""
        data = {k: v for k, v in self.cleaned_data.items() if k != "version"}
        if not data.get("kind"):
            data.pop("kind", None)
        return data


class EquipmentWords(NamedTuple):
    """What of a ruleset an equipment form says: its weapon and armour values' names and
    where its rules give them (EquipmentForm's `words`)."""

    weapon_value: str
    armour_value: str
    section: str


def equipment_words(ruleset) -> EquipmentWords:
    terms = ruleset.terms
    return EquipmentWords(terms.weapon_value, terms.armour_value, ruleset.section("equipment"))


def equipment_controls(ruleset) -> RowControls:
    """EquipmentForm's controls for a row under `ruleset`, drawn without a form."""
    return _equipment_controls(equipment_words(ruleset), get_language())


@lru_cache(maxsize=64)
def _equipment_controls(words: EquipmentWords, language: str) -> RowControls:
    """Drawn in `language`, the active one: a key of the cache, the drawing its words."""
    return RowControls(EquipmentForm(words=words, auto_id=f"{ID}%s"))


class DetailsForm(VersionedForm):
    """Who the character is. Scale (Mudge 2.3) and meta points (1.36) or Fudge points only
    where the ruleset has them: MicroFudged has neither."""

    name = NameField(max_length=200, label=gettext_lazy("Name"))
    # Who plays it, as the sheet prints it: the owner's user name to start with, a file's
    # own when imported ("sample character"), whatever the table calls its player.
    player = NameField(max_length=200, required=False, label=gettext_lazy("Player"))
    concept = forms.CharField(
        max_length=1000, required=False, strip=True, label=gettext_lazy("Concept")
    )
    race = NameField(max_length=200, required=False, label=gettext_lazy("Race"))
    scale_strength = forms.IntegerField(
        min_value=-50, max_value=50, label=gettext_lazy("Strength Scale")
    )
    scale_mass = forms.IntegerField(min_value=-50, max_value=50, label=gettext_lazy("Mass Scale"))
    meta_points = forms.IntegerField(min_value=0, max_value=100, required=False)

    def __init__(self, *args, ruleset, **kwargs):
        super().__init__(*args, **kwargs)
        if not ruleset.has_scale:
            del self.fields["scale_strength"], self.fields["scale_mass"]
        if ruleset.terms.points:
            points = ruleset.terms.points
            said = vocabulary.term(points, "points")
            # A GM's own word as the English page has always shown it; a translated one
            # keeps its capitals ("Points Fudge").
            field = self.fields["meta_points"]
            field.label = points.capitalize() if said == points else said[:1].upper() + said[1:]
            # Empty is the rules' starting number (rules.character.Character.meta_points):
            # the field says which, rather than looking unfilled.
            start, section = ruleset.meta_points_start, ruleset.cites("meta_points")
            field.help_text = (
                _(
                    "Left empty, it counts as the {count} every new character starts with "
                    "({section})."
                )
                if section
                else _("Left empty, it counts as the {count} every new character starts with.")
            ).format(count=start, section=section)
            # The bound field after its help text: it copies the text when made.
            hint = f"{self['meta_points'].auto_id}-hint"  # the page's hint under the field
            field.widget.attrs.update({"placeholder": str(start), "aria-describedby": hint})
        else:
            del self.fields["meta_points"]

    def clean_race(self) -> str:
        """A built-in race typed as the page says it ("Halfelin") is kept by its key, as a
        Mudge template sets it ("Halfling"); a race of the player's own as typed."""
        return typed_key(self.cleaned_data["race"])

    def detail_fields(self) -> dict:
        return {k: v for k, v in self.cleaned_data.items() if k != "version"}


class UncommittedForm(VersionedForm):
    """Mudge 1.7: an uncommitted trait defined in play, as a skill at Good or lower."""

    name = forms.CharField(max_length=TRAIT_NAME_MAX, strip=True, label=gettext_lazy("Skill"))
    level = forms.TypedChoiceField(choices=[], coerce=int, label=gettext_lazy("Level"))
    difficulty = forms.ChoiceField(choices=[], required=False, label=gettext_lazy("Difficulty"))

    def __init__(self, *args, ruleset, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["level"].choices = level_choices(
            ruleset.system, top=ruleset.uncommitted_max, ladder=ruleset.ladder
        )
        self.fields["level"].initial = ruleset.uncommitted_max
        if ruleset.skill_difficulties:
            self.fields["difficulty"].choices = difficulty_choices(Trait.Kind.SKILL)
        else:
            del self.fields["difficulty"]


# rules.character.PERSONALITY_QUESTIONS (Mudge 1.35) in the reader's language, by key.
PERSONALITY_LABELS = {
    "values": gettext_lazy("What really matters to you? Anything you would give your life for?"),
    "desires": gettext_lazy("What do you want? Which one thing do you desire most?"),
    "reasons": gettext_lazy("For each thing desired, why?"),
    "change": gettext_lazy("How might getting what you want change you?"),
    "personality": gettext_lazy("Personality summary"),
    "history": gettext_lazy("History and background"),
}


class PersonalityForm(VersionedForm):
    notes = forms.CharField(
        max_length=20_000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=gettext_lazy("Notes"),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key, question in PERSONALITY_QUESTIONS:
            self.fields[f"q_{key}"] = forms.CharField(
                max_length=5000,
                required=False,
                label=PERSONALITY_LABELS.get(key, question),
                widget=forms.Textarea(attrs={"rows": 2}),
            )

    def personality(self) -> dict:
        return {
            key: self.cleaned_data[f"q_{key}"]
            for key, _ in PERSONALITY_QUESTIONS
            if self.cleaned_data.get(f"q_{key}")
        }


class CampaignSelect(forms.Select):
    """Each campaign option names its ruleset (data-ruleset), so the page can show the
    ruleset a campaign plays as soon as it is chosen."""

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        campaign = getattr(value, "instance", None)
        if campaign is not None:
            option["attrs"]["data-ruleset"] = campaign.base_ruleset
        return option


def said_ruleset_choices() -> list[tuple[str, str]]:
    """The built-in rulesets, named in the reader's language."""
    return [(slug, vocabulary.term(name, "ruleset")) for slug, name in ruleset_choices()]


def _by_game(campaigns, empty_label) -> list:
    """The campaigns as options named by the campaign alone, each under its game's name: a
    phone's select shows a name whole, where "campaign — game" was cut short."""
    games: dict[str, list] = {}
    for campaign in campaigns:
        game = vocabulary.term(campaign.get_base_ruleset_display(), "ruleset")
        value = ModelChoiceIteratorValue(campaign.pk, campaign)
        games.setdefault(game, []).append((value, campaign.name))
    return [("", empty_label), *games.items()]


class NewCharacterForm(forms.Form):
    name = NameField(max_length=200, label=gettext_lazy("Name"))
    concept = forms.CharField(
        max_length=1000, required=False, strip=True, label=gettext_lazy("Concept")
    )
    campaign = forms.ModelChoiceField(
        queryset=None,
        required=False,
        empty_label=gettext_lazy("No campaign"),
        widget=CampaignSelect,
        label=gettext_lazy("Campaign"),
    )
    ruleset = forms.ChoiceField(
        choices=said_ruleset_choices,
        required=False,
        help_text=gettext_lazy("A character in a campaign uses the campaign's ruleset."),
        # Radios: a ruleset's whole name shows on a phone, where a select cut it short.
        widget=forms.RadioSelect(attrs={"data-follows-campaign": ""}),
        label=gettext_lazy("Ruleset"),
    )

    def __init__(self, *args, campaigns, **kwargs):
        super().__init__(*args, **kwargs)
        campaigns = campaigns.with_game()  # grouped under the game each plays
        field = self.fields["campaign"]
        field.queryset = campaigns
        field.widget.choices = _by_game(campaigns, field.empty_label)
        # A player in one campaign is most likely building for it.
        chosen = self.initial.get("campaign")
        if chosen is None and len(campaigns) == 1:
            self.initial["campaign"] = chosen = campaigns[0].pk
        campaign = next((c for c in campaigns if str(c.pk) == str(chosen)), None)
        if campaign is not None:
            self.initial["ruleset"] = campaign.base_ruleset
        else:  # as the select it was chose its first
            self.initial.setdefault("ruleset", ruleset_choices()[0][0])

    def clean(self):
        data = super().clean()
        if not data.get("campaign") and not data.get("ruleset"):
            raise forms.ValidationError(_("Choose a campaign, or a ruleset to build alone."))
        return data


class ImportForm(forms.Form):
    file = forms.FileField(
        required=False,
        help_text=gettext_lazy("A Fairsheet character file or a Foundry actor (.json)"),
        label=gettext_lazy("File"),
    )
    text = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        label=gettext_lazy("…or paste the file"),
        max_length=1_000_000,
    )
    campaign = forms.ModelChoiceField(
        queryset=None,
        required=False,
        empty_label=gettext_lazy("No campaign"),
        label=gettext_lazy("Campaign"),
    )

    def __init__(self, *args, campaigns, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["campaign"].queryset = campaigns

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload:
            if upload.size > 1_000_000:
                raise forms.ValidationError(
                    _("The file is larger than 1 MB: is it a character file?")
                )
            data["content"] = upload.read()
        elif data.get("text"):
            data["content"] = data["text"]
        else:
            raise forms.ValidationError(_("Choose a character file or paste one."))
        return data
