"""The game itself, its trait ladder, and its budgets and limits."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from characters.forms.designer.base import Group, RowForm, Rows, Section, _count, _declare
from characters.forms.designer.fields import (
    SYSTEM_CHOICES,
    _number_of,
    choice,
    knob_field,
    knob_label,
    number,
    text,
)
from characters.knobs import BY_KEY, knob
from characters.vocabulary import ladder_said, ladder_typed
from rules.ruleset_file import move_to_ladder
from rules.rulesets import LEVELS, TOKENS


class GameSection(Section):
    key = "game"
    title = gettext_noop("The game")
    intro = gettext_noop(
        "What players see when they pick your game, and how characters are built in it."
    )
    name = text(_("Name"), _("What players and campaigns call the game."))
    description = text(
        _("Description"), _("One short paragraph: what the game is about."), long=True, limit=2000
    )
    system = choice(
        _("How characters are built"),
        _(
            "Free levels (Fudge, Mudge) or one pool of tokens (MicroFudged). Skills are priced to "
            "fit: tokens a rank in the tokens system."
        ),
        SYSTEM_CHOICES,
    )
    parts = (Group("", ("name", "description", "system")),)
    paths = {"name": "name", "description": "description", "system": "system"}

    def read(self, file):
        return {k: file.get(k) for k in ("name", "description", "system")}, {}

    def write(self, file, v, rows):
        file.update(name=v["name"], description=v["description"])
        system = v["system"] or file.get("system")
        skills = file.get("skills")
        if system != file.get("system") and isinstance(skills, dict):
            # The pricing the new system takes (the reader would refuse the old one).
            if system == TOKENS:
                skills["pricing"] = "per_rank"
            else:
                skills["cost"] = 1
                if skills.get("pricing") == "per_rank":
                    skills["pricing"] = "flat"
        file["system"] = system
        return file


class WordRow(RowForm):
    word = text(_("Word"))


class LadderSection(Section):
    key = "ladder"
    title = gettext_noop("Trait ladder")
    intro = gettext_noop(
        "The words a trait is rated in, from lowest to highest. One of them is Fair: the level "
        "everything is counted from. Renaming a word, or adding one at the top or the bottom, "
        "keeps every default, bound, cap and cost at the level it was."
    )
    fair = forms.IntegerField(
        label=_("Which word is Fair"),
        required=False,
        widget=forms.HiddenInput,
    )
    creation_min = forms.TypedChoiceField(
        label=knob_label("creation_min", ""),
        help_text=knob("creation_min").help,
        coerce=int,
        error_messages={"required": _("Choose a level.")},
    )
    creation_max = forms.TypedChoiceField(
        label=knob_label("creation_max", ""),
        help_text=knob("creation_max").help,
        coerce=int,
        error_messages={"required": _("Choose a level.")},
    )
    legendary_at_creation = knob_field("legendary_at_creation")
    parts = (
        Rows(
            "words",
            _("Words"),
            _(
                "From lowest to highest, each once, each ending in a letter. Choose the one that "
                "is Fair: it needs a word below it and one above it."
            ),
            WordRow,
            "ladder.words",
            {"word": ""},
            _("Add a word at the top"),
            _("Word {n}"),
            add_bottom=_("Add a word at the bottom"),
            choice="fair",
        ),
        Group(
            _("At character creation"), ("creation_min", "creation_max", "legendary_at_creation")
        ),
    )
    paths = {
        "fair": "ladder.fair",
        "creation_min": "ladder.creation_min",
        "creation_max": "ladder.creation_max",
        "legendary_at_creation": "ladder.legendary_at_creation",
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        levels = range(self.ladder.bottom, self.ladder.top_word_level + 1)
        said = ladder_said(self.ladder.words)
        for name in ("creation_min", "creation_max"):
            self.fields[name].choices = [(lv, said[lv - self.ladder.bottom]) for lv in levels]

    def read(self, file):
        ladder = file["ladder"]
        values = {
            "fair": self.ladder.fair,
            "creation_min": self.ladder.parse(ladder["creation_min"]),
            "creation_max": self.ladder.parse(ladder["creation_max"]),
            "legendary_at_creation": ladder.get("legendary_at_creation", False),
        }
        # Shown as the GM reads them: the standard ladder in the GM's language (ladder_typed
        # keeps it standard when written back).
        return values, {"words": [{"word": w} for w in ladder_said(ladder["words"])]}

    def write(self, file, v, rows):
        ladder = file["ladder"]
        for name in ("creation_min", "creation_max"):
            # In the old ladder's words: move_to_ladder puts them in the new one's.
            ladder[name] = self.ladder.name(v[name])
        ladder["legendary_at_creation"] = v["legendary_at_creation"]
        words = ladder_typed([row["word"].strip() for row in rows["words"]])
        fair = v["fair"] if v["fair"] is not None else -1
        return move_to_ladder(file, words, fair)

    def clean_fair(self):
        fair = self.cleaned_data.get("fair")
        if fair is None:
            raise forms.ValidationError(_("Choose the word that is Fair."))
        return fair

    @classmethod
    def row_added(cls, data, index):
        fair = _count(data.get("fair"))
        if index <= fair and "fair" in data:
            data["fair"] = str(fair + 1)

    @classmethod
    def row_removed(cls, data, index):
        fair = _count(data.get("fair"))
        if "fair" not in data:
            return
        if index < fair:
            data["fair"] = str(fair - 1)
        elif index == fair:
            data.pop("fair")


def _caps_fields(section: Section, prefix: str) -> None:
    """One count for each word above Fair: how many traits may stand there."""
    ladder = section.ladder
    said = ladder_said(ladder.words)
    for index in range(ladder.fair + 1, len(ladder.words)):
        word = ladder.words[index]
        name = f"{prefix}{index}"
        section.made[name] = number(said[index])
        section.by_key[(prefix, word)] = name


class NumbersSection(Section):
    key = "numbers"
    title = gettext_noop("Budgets and limits")
    intro = gettext_noop(
        "What a new character has to spend, and the limits on spending it. A campaign's house "
        "rules change these numbers as they change a built-in ruleset's."
    )
    parts = (
        # Titled as the house rules title them (forms.campaigns.SECTIONS): the same knobs.
        Group(
            _("Budgets"),
            (
                "attribute_levels",
                "skill_levels",
                "free_gifts",
                "trade_attribute",
                "trade_gift",
                "trade_fault",
            ),
            system=LEVELS,
        ),
        Group(
            _("Tokens"),
            ("tokens", "tokens_carried", "must_spend_and_save"),
            system=TOKENS,
        ),
        Group(
            _("How many attributes may stand at a level"),
            ("attribute_cap_*",),
            _("Empty: no limit at that level."),
        ),
        Group(
            _("How many skills may stand at a level"),
            ("skill_cap_*",),
            _("Empty: no limit at that level."),
        ),
        Group(
            _("Other limits"),
            ("cap_trading", "max_lowered_skills", "max_skills", "min_faults", "uncommitted_traits"),
        ),
        Group(_("Points"), ("meta_points_start", "meta_points_max")),
        Group(_("Scale"), ("has_scale", "negative_scale_refund"), system=LEVELS),
    )
    TRADES = {"trade_attribute": "attribute", "trade_gift": "gift", "trade_fault": "fault"}
    # Its fields that are knobs of characters.knobs, as its groups order them.
    KNOBS = tuple(name for group in parts for name in group.fields if (name, "") in BY_KEY)
    paths = {
        **{name: knob(name).path for name in KNOBS},
        **{name: knob("trade_values", part).path for name, part in TRADES.items()},
    }
    keyed = {
        "attribute_cap_": ("numbers.attribute_caps.*", _("Attributes at {key}")),
        "skill_cap_": ("numbers.skill_caps.*", _("Skills at {key}")),
    }

    def add_fields(self):
        super().add_fields()
        _caps_fields(self, "attribute_cap_")
        _caps_fields(self, "skill_cap_")

    def read(self, file):
        numbers = file["numbers"]
        values = {name: numbers.get(path.split(".")[-1]) for name, path in self.paths.items()}
        values.update({name: numbers["trade_values"].get(key) for name, key in self.TRADES.items()})
        for (prefix, word), name in self.by_key.items():
            values[name] = numbers.get(f"{prefix[:-1]}s", {}).get(word)
        return values, {}

    def write(self, file, v, rows):
        numbers = file["numbers"]
        for name, path in self.paths.items():
            if name not in self.TRADES:
                numbers[path.split(".")[-1]] = _number_of(v[name])
        numbers["trade_values"] = {key: _number_of(v[name]) for name, key in self.TRADES.items()}
        for prefix in ("attribute_cap_", "skill_cap_"):
            caps = {
                word: v[name]
                for (p, word), name in reversed(self.by_key.items())
                if p == prefix and v.get(name) is not None
            }
            numbers[f"{prefix[:-1]}s"] = caps
        return file


_declare(
    NumbersSection,
    {
        **{name: knob_field(name) for name in NumbersSection.KNOBS},
        **{name: knob_field("trade_values", part) for name, part in NumbersSection.TRADES.items()},
    },
)
