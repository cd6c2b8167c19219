"""Attributes, skills and powers: what they are, what they cost, their defaults."""

import re

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from characters.forms.designer.base import Group, RowForm, Rows, Section, _declare
from characters.forms.designer.fields import (
    DIFFICULTY_WORDS,
    POWER_KINDS,
    POWER_KINDS_USED,
    PRICING_CHOICES,
    _number_of,
    _numbers_in,
    _whole_number,
    choice,
    knob_field,
    level,
    number,
    text,
    yes,
)
from characters.forms.designer.words import RULES_NAME, RULES_TEXT
from rules.rulesets import DIFFICULTIES


class NameRow(RowForm):
    words = {"name": RULES_NAME}
    name = text(_("Name"))


class ExtraRow(RowForm):
    words = {"name": RULES_NAME}
    name = text(_("Name"))
    default = level(_("Default"))


class OpenedRow(RowForm):
    words = {"gift": RULES_NAME, "attribute": RULES_NAME}
    gift = text(_("Gift"))
    attribute = text(_("Attribute it opens"))


WHO_NAMES = [
    ("fixed", _("Every character has the attributes below")),
    ("own", _("Each player names their own: the list below is a suggestion")),
]


class AttributesSection(Section):
    key = "attributes"
    title = gettext_noop("Attributes")
    intro = gettext_noop(
        "The traits every character has, what they cost, and which ones damage reads."
    )
    words = {"damage_capacity_attribute": RULES_NAME, "muscle_attribute": RULES_NAME}
    who = choice(_("Who names them"), "", WHO_NAMES)
    default = level(_("Default level"), _("The level an attribute costs nothing at."))
    cost = number(
        _("Cost a level"),
        _("Each level above the default: attribute levels, or tokens in the tokens system."),
        required=True,
    )
    uncommitted_max = level(
        _("Uncommitted traits up to"), _("The highest an uncommitted trait is defined at in play.")
    )
    damage_capacity_attribute = knob_field("damage_capacity_attribute")
    muscle_attribute = knob_field("muscle_attribute")
    parts = (
        Rows(
            "names",
            _("The attributes"),
            _("Each once."),
            NameRow,
            "attributes.names",
            {"name": ""},
            _("Add an attribute"),
            _("Attribute {n}"),
            also=("catalogue.attributes",),
        ),
        Group("", ("who", "default", "cost", "uncommitted_max")),
        Group(
            _("Damage factors"),
            ("damage_capacity_attribute", "muscle_attribute"),
            _("The attributes the wound track's damage factors read."),
        ),
        Rows(
            "extra",
            _("Attributes added beside the list"),
            _("Each with its own default level (a house rule's extra attributes)."),
            ExtraRow,
            "attributes.extra",
            {"name": "name", "default": "default"},
            _("Add an extra attribute"),
            _("Extra attribute {n}"),
        ),
        Rows(
            "opened",
            _("Attributes a gift opens"),
            _("A character with the gift has the attribute too (Mudge: Magery opens Mana)."),
            OpenedRow,
            "attributes.opened_by_gifts",
            {"gift": None, "attribute": ""},
            _("Add a gift that opens an attribute"),
            _("Gift {key}"),
            key="gift",
        ),
    )
    paths = {
        "default": "attributes.default",
        "cost": "attributes.cost",
        "uncommitted_max": "attributes.uncommitted_max",
        "damage_capacity_attribute": "harm.damage_capacity_attribute",
        "muscle_attribute": "harm.muscle_attribute",
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.source.get("harm") is None:  # no wound track: nothing reads damage
            del self.fields["damage_capacity_attribute"], self.fields["muscle_attribute"]

    def read(self, file):
        attributes, harm = file["attributes"], file.get("harm") or {}
        names = attributes.get("names")
        listed = names if names is not None else file.get("catalogue", {}).get("attributes", [])
        values = {
            "who": "own" if names is None else "fixed",
            "default": attributes.get("default"),
            "cost": attributes.get("cost"),
            "uncommitted_max": attributes.get("uncommitted_max"),
            "damage_capacity_attribute": harm.get("damage_capacity_attribute") or "",
            "muscle_attribute": harm.get("muscle_attribute") or "",
        }
        rows = {
            "names": [{"name": n} for n in listed],
            "extra": [dict(e) for e in attributes.get("extra", [])],
            "opened": [
                {"gift": g, "attribute": a}
                for g, a in attributes.get("opened_by_gifts", {}).items()
            ],
        }
        return values, rows

    def write(self, file, v, rows):
        attributes = file["attributes"]
        names = [row["name"].strip() for row in rows["names"]]
        attributes["names"] = None if v["who"] == "own" else names
        file.setdefault("catalogue", {})["attributes"] = names
        for key in ("default", "uncommitted_max"):
            attributes[key] = v[key] or attributes.get(key)
        attributes["cost"] = v["cost"]
        attributes["extra"] = [
            {"name": row["name"].strip(), "default": row["default"] or self.ladder.name(0)}
            for row in rows["extra"]
        ]
        attributes["opened_by_gifts"] = _mapping(rows["opened"], "gift", "attribute")
        if file.get("harm") is not None:
            for key in ("damage_capacity_attribute", "muscle_attribute"):
                file["harm"][key] = (v[key] or "").strip() or None
        return file


def _mapping(rows: list[dict], key: str, value: str) -> dict:
    """Rows of a name and its value as the file's mapping; a row with neither is left out."""
    return {
        str(row[key] or "").strip(): row[value]
        for row in rows
        if str(row[key] or "").strip() or row[value] not in ("", None)
    }


class NamedDefaultRow(RowForm):
    words = {"skill": RULES_NAME}
    skill = text(_("Skill"))
    level = level(_("Default"))


class SkillsSection(Section):
    key = "skills"
    title = gettext_noop("Skills")
    intro = gettext_noop(
        "How skills are priced, and where a skill stands when a character has not taken it."
    )
    pricing = choice(
        _("How skills are priced"),
        _(
            "Flat: each level above the default costs a skill level (Fudge). By difficulty: the "
            "table below (Mudge 1.62). Tokens a rank: the tokens system."
        ),
        PRICING_CHOICES,
    )
    default = level(
        _("Default level"), _("Where a skill stands when not taken (a difficulty's default first).")
    )
    cost = number(
        _("Tokens a rank"),
        _("What each rank above the default costs, in tokens. 1 in the levels system."),
        required=True,
    )
    parts = (
        Group("", ("pricing", "default", "cost")),
        Group(
            _("By difficulty"),
            tuple(f"{d}_{k}" for d in DIFFICULTIES for k in ("default", "cost")),
            _(
                "Each difficulty's default, and its cost at Fair; each level up or down costs one "
                "more or less. The costs must rise with the difficulty."
            ),
        ),
        Rows(
            "named",
            _("Skills with a default of their own"),
            _("Streamlined MicroFudged: Science and Medicine start at Terrible."),
            NamedDefaultRow,
            "skills.named_defaults",
            {"skill": None, "level": ""},
            _("Add a skill with its own default"),
            _("Skill {key}"),
            key="skill",
        ),
    )
    paths = {"pricing": "skills.pricing", "default": "skills.default", "cost": "skills.cost"}

    def read(self, file):
        skills = file["skills"]
        values = {k: skills.get(k) for k in ("pricing", "default", "cost")}
        for d, row in skills["difficulties"].items():
            values[f"{d}_default"] = row.get("default") or ""
            values[f"{d}_cost"] = row.get("cost_at_fair")
        named = [{"skill": n, "level": lv} for n, lv in skills.get("named_defaults", {}).items()]
        return values, {"named": named}

    def write(self, file, v, rows):
        skills = file["skills"]
        skills.update(
            pricing=v["pricing"] or skills["pricing"],
            default=v["default"] or skills["default"],
            cost=v["cost"],
            named_defaults=_mapping(rows["named"], "skill", "level"),
            difficulties={
                d: {"default": v[f"{d}_default"] or None, "cost_at_fair": v[f"{d}_cost"]}
                for d in DIFFICULTIES
            },
        )
        return file


_declare(
    SkillsSection,
    {
        f"{d}_{k}": field
        for d in DIFFICULTIES
        for k, field in (
            (
                "default",
                level(
                    format_lazy(_("{difficulty}: default"), difficulty=DIFFICULTY_WORDS[d]),
                    none=_("No default"),
                ),
            ),
            (
                "cost",
                number(
                    format_lazy(_("{difficulty}: cost at Fair"), difficulty=DIFFICULTY_WORDS[d]),
                    required=True,
                ),
            ),
        )
    },
)
SkillsSection.paths = {
    **SkillsSection.paths,
    **{f"{d}_default": f"skills.difficulties.{d}.default" for d in DIFFICULTIES},
    **{f"{d}_cost": f"skills.difficulties.{d}.cost_at_fair" for d in DIFFICULTIES},
}


class PowersSection(Section):
    key = "powers"
    title = gettext_noop("Powers")
    intro = gettext_noop(
        "The kinds of power characters may have, the gift each needs first, and what they cost."
    )
    words = {
        **{f"{kind}_gift": RULES_NAME for kind in POWER_KINDS},
        **{f"{kind}_note": RULES_TEXT for kind in POWER_KINDS},
    }
    superpower_cost = knob_field("superpower_cost")
    power_default = level(_("Power default"), _("The level a power costs nothing at."))
    power_levels = text(
        _("Token steps"),
        _(
            "MicroFudged DIP: the tokens each power level costs in all, rising, e.g. 6, 11, 16, "
            "21. Empty: none."
        ),
    )
    power_levels.item = _("Number")
    parts = (
        *(
            Group(title, (f"{kind}_used", f"{kind}_gift", f"{kind}_note"))
            for kind, title in POWER_KINDS.items()
        ),
        Group(_("Costs"), ("superpower_cost", "power_default", "power_levels")),
    )
    paths = {
        "superpower_cost": "numbers.superpower_cost",
        "power_default": "numbers.power_default",
        "power_levels": "numbers.power_levels",
        "spell_used": "powers.kinds",
        **{f"{kind}_gift": f"powers.need_gifts.{kind}" for kind in POWER_KINDS},
        **{f"{kind}_note": f"catalogue.power_kind_notes.{kind}" for kind in POWER_KINDS},
    }

    def read(self, file):
        powers, numbers = file.get("powers") or {}, file["numbers"]
        notes = file.get("catalogue", {}).get("power_kind_notes", {})
        values = {
            "superpower_cost": numbers.get("superpower_cost"),
            "power_default": numbers.get("power_default"),
            "power_levels": ", ".join(map(str, numbers.get("power_levels") or [])),
        }
        for kind in POWER_KINDS:
            values[f"{kind}_used"] = kind in powers.get("kinds", [])
            values[f"{kind}_gift"] = powers.get("need_gifts", {}).get(kind, "")
            values[f"{kind}_note"] = notes.get(kind, "")
        return values, {}

    def clean_power_levels(self):
        value = self.cleaned_data["power_levels"]
        for index, part in enumerate(p for p in re.split(r"[,\s]+", value) if p):
            if not _whole_number(part):
                raise forms.ValidationError(
                    gettext("Number {number}: “{value}” is not a whole number.").format(
                        number=index + 1, value=part
                    )
                )
        return value

    def write(self, file, v, rows):
        kinds = [kind for kind in POWER_KINDS if v[f"{kind}_used"]]
        gifts = {k: v[f"{k}_gift"].strip() for k in POWER_KINDS if v[f"{k}_gift"].strip()}
        file["powers"] = {"kinds": kinds, "need_gifts": gifts}
        catalogue = file.setdefault("catalogue", {})
        catalogue["power_kinds"] = kinds
        catalogue["power_kind_notes"] = {
            k: v[f"{k}_note"].strip() for k in kinds if v[f"{k}_note"].strip()
        }
        numbers = file["numbers"]
        numbers["superpower_cost"] = _number_of(v["superpower_cost"])
        numbers["power_default"] = v["power_default"] or numbers.get("power_default")
        numbers["power_levels"] = _numbers_in(v["power_levels"])
        return file


_declare(
    PowersSection,
    {
        name: field
        for kind, title in POWER_KINDS.items()
        for name, field in (
            (f"{kind}_used", yes(POWER_KINDS_USED[kind])),
            (
                f"{kind}_gift",
                text(_("Gift needed first"), _("Empty: none (Mudge: Magery for spells).")),
            ),
            (
                f"{kind}_note",
                text(
                    _("Note in the catalogue"),
                    _("What the campaign's list says of them."),
                    limit=2000,
                ),
            ),
        )
    },
)
