"""The ruleset designer's forms: where a design starts (a built-in ruleset, a file, or
nothing), and the design itself, one field per section of the ruleset file
(docs/ruleset-file.md), each explained. A section is JSON; the file they make is checked by
rules.ruleset_file, which names every problem at once, and each problem is shown on the
section it is in."""

import json

from django import forms

from characters.forms.fields import NameField
from rules.ruleset_file import TOP_KEYS
from rules.rulesets import ruleset_choices

BLANK = "blank"
# The top-level values the "about" section holds; every other top key is a section.
ABOUT_KEYS = ("slug", "name", "description", "system")
SECTIONS = ("about", *(k for k in TOP_KEYS if k not in ("format", *ABOUT_KEYS)))
# Each section: its title and what its fields mean (docs/ruleset-file.md says the same).
SECTION_HELP = {
    "about": (
        "The game",
        "slug: lowercase letters, digits and hyphens, what character files name the game by "
        '(not a built-in\'s). name, description: what players see. system: "levels" (free '
        'attribute and skill levels, gifts and faults, traded: Fudge, Mudge) or "tokens" '
        "(one pool: MicroFudged).",
    ),
    "ladder": (
        "Trait ladder",
        "words: from lowest to highest, each once. fair: the word that is 0, with a word "
        "below and above it. creation_min, creation_max: where a trait may start (below the "
        "top word). legendary_at_creation: whether the top word is allowed at creation.",
    ),
    "numbers": (
        "Budgets and limits",
        "The house-rule keys: attribute_levels, skill_levels, free_gifts (levels system), "
        'tokens (tokens system), attribute_caps and skill_caps ({"Superb": 1}: how many '
        "traits may stand at a level), trade_values, max_lowered_skills, meta_points_start, "
        "meta_points_max, max_skills, min_faults, uncommitted_traits and the rest; none "
        "negative. has_scale, power_levels, must_spend_and_save, power_default are set here "
        "only.",
    ),
    "attributes": (
        "Attributes",
        "names: the fixed list, or null for each character's own. default: the level an "
        "attribute costs nothing at. cost: per level above it. extra: attributes added "
        "beside the list. opened_by_gifts: a gift that opens an attribute (Magery: Mana).",
    ),
    "skills": (
        "Skills and how they are priced",
        'pricing: "flat" (a skill level a level above default), "by_difficulty" (Mudge '
        '1.62\'s table below) or "per_rank" (tokens). default: where an unlisted skill '
        "stands. difficulties: each one's default and cost at Fair; the costs must rise with "
        "difficulty.",
    ),
    "powers": (
        "Powers",
        "kinds: spell, psi, superpower (or field, MicroFudged). need_gifts: the gift a kind "
        "needs first (spell: Magery).",
    ),
    "terms": (
        "Names of things",
        'lists: each list\'s title and one of them (["Knacks", "knack"]); attributes and '
        "skills are required, a game without gifts leaves them out. points: what meta points "
        'are called ("" for none). gm: what the GM is called.',
    ),
    "harm": (
        "Wound track",
        'track: the rows lightest first, each a name, the damage that inflicts it ("1-2", '
        '"3+"), a penalty of 0 or less and 1 to 20 boxes. damage_capacity_attribute, '
        "muscle_attribute: attributes of the game. null for no track.",
    ),
    "advancement": (
        "Advancement",
        "unit (XP, EP, token). skill_steps: the cost of raising a skill from each level, "
        "never falling as the level rises. attribute_multiplier, gift, power, meta_point, "
        "buy_off_fault: flat costs. null for no advancement.",
    ),
    "catalogue": (
        "Seed catalogue",
        "The lists a campaign starts from: attributes, skills (name, difficulty, note), "
        "gifts (name, cost in gifts), faults (name, value), equipment (name, kind, damage, "
        "armour). Names are unique in each list.",
    ),
    "templates": (
        "Templates",
        "Class and race templates (Mudge 6.4): slug, name, kind (class or race), minimum "
        "attributes and skills (level words of this ladder), gifts and faults.",
    ),
    "sections": (
        "Rule sections",
        'Topic -> the rule a check cites ("creation" is required, and the fallback).',
    ),
}


class DesignStartForm(forms.Form):
    """Where a new design starts: a built-in ruleset, nothing, or an uploaded file."""

    start = forms.ChoiceField(
        label="Start from",
        choices=lambda: [*ruleset_choices(), (BLANK, "Nothing: a blank game")],
        help_text="A built-in ruleset gives every number of it to change.",
    )
    name = NameField(max_length=100, label="Your game's name")


class DesignImportForm(forms.Form):
    file = forms.FileField(
        label="Ruleset file",
        help_text="A .json ruleset file (format fairsheet.ruleset/1), e.g. exported here.",
    )


class DesignForm(forms.Form):
    """The design, section by section. `file()` is the ruleset file the sections make, once
    each is JSON of the right kind; the file's own problems come from the service."""

    note = forms.CharField(
        required=False,
        max_length=500,
        label="What changed",
        help_text="Kept with the new version, for you and your campaigns' history.",
    )

    def __init__(self, *args, initial_file: dict | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        for section in SECTIONS:
            title, help_text = SECTION_HELP[section]
            self.fields[section] = forms.CharField(
                label=title,
                help_text=help_text,
                required=False,
                max_length=500_000,
                widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
            )
        if initial_file is not None:
            for section, value in split_file(initial_file).items():
                self.initial[section] = json.dumps(value, indent=2, ensure_ascii=False)
        self.order_fields([*SECTIONS, "note"])

    def clean(self):
        data = super().clean()
        for section in SECTIONS:
            text = (data.get(section) or "").strip() or "null"
            try:
                value = json.loads(text)
            except json.JSONDecodeError as error:
                self.add_error(
                    section, f"not JSON at line {error.lineno} column {error.colno}: {error.msg}"
                )
                continue
            if section == "about" and not isinstance(value, dict):
                self.add_error(section, 'must be an object: {"slug": ..., "name": ...}')
            data[f"{section}_value"] = value
        return data

    def file(self) -> dict:
        data = self.cleaned_data
        out = {"format": "fairsheet.ruleset/1", **data["about_value"]}
        out.update({s: data[f"{s}_value"] for s in SECTIONS if s != "about"})
        return out

    def add_problems(self, problems: list[tuple[str, str]]) -> None:
        """The file's problems, each on the section it is in, with the field it names."""
        for where, message in problems:
            top = where.split(".")[0].split("[")[0]
            section = top if top in SECTIONS else "about"
            self.add_error(section, f"{where}: {message}" if where else message)


def split_file(file: dict) -> dict:
    """A ruleset file as the designer's sections."""
    about = {k: file[k] for k in ABOUT_KEYS if k in file}
    return {"about": about, **{s: file.get(s) for s in SECTIONS if s != "about"}}
