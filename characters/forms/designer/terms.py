"""What the game calls its lists and things."""

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from characters.forms.designer.base import Group, Section, _declare
from characters.forms.designer.fields import text
from characters.forms.designer.words import ONE_OF_A_LIST
from characters.vocabulary import TERMS
from rules.rulesets import LISTS

LIST_NAMES = {
    "attributes": TERMS["list title"]["Attributes"],
    "skills": TERMS["list title"]["Skills"],
    "gifts": TERMS["list title"]["Gifts"],
    "faults": TERMS["list title"]["Faults"],
    "powers": TERMS["list title"]["Powers"],
}
TERM_FIELDS = {
    "points": text(
        _("Points"),
        _("What meta points are called (Fudge points, luck). Empty: the game has none."),
    ),
    "gm": text(_("The GM"), _("What the game master is called (MicroFudged: Narrator).")),
    "cost_unit": text(
        _("A skill's cost"), _("What the reference table prices skills in: skill level, token.")
    ),
    "weapon_value": text(_("A weapon's value"), _("What the sheet calls it: Damage.")),
    "armour_value": text(_("An armour's value"), _("What the sheet calls it: Armour.")),
    "equipment_hint": text(
        _("About equipment"), _("A line the builder shows beside equipment."), long=True, limit=2000
    ),
    "personality_hint": text(
        _("About personality"),
        _("A line the builder shows beside personality."),
        long=True,
        limit=2000,
    ),
    "dice_note": text(
        _("About the dice"),
        _("What the dice roller adds (Mudge's damage die)."),
        long=True,
        limit=2000,
    ),
}


class TermsSection(Section):
    key = "terms"
    title = gettext_noop("Names of things")
    intro = gettext_noop("What your game calls its lists and things, on every page and sheet.")
    parts = (
        Group(
            _("The lists"),
            tuple(f"{name}_{k}" for name in LISTS for k in ("title", "one")),
            _(
                "Each list's title and what one of them is called (Knacks, knack). Gifts, faults "
                "and powers: leave both empty for a game without them."
            ),
        ),
        Group(_("Other words"), tuple(TERM_FIELDS)),
    )
    words = {
        **{f"{name}_title": "list title" for name in LISTS},
        **{f"{name}_one": ONE_OF_A_LIST for name in LISTS},
        "points": "points",
        "gm": "game master",
        "cost_unit": "cost unit",
        "weapon_value": "equipment value",
        "armour_value": "equipment value",
        "equipment_hint": "ruleset note",
        "personality_hint": "ruleset note",
        "dice_note": "ruleset note",
    }
    paths = {
        **{
            f"{name}_title": (f"terms.lists.{name}", f"terms.lists.{name}[0]")
            for name in LISTS
            if name != "attributes"
        },
        # A list missing altogether: beside the first.
        "attributes_title": ("terms.lists", "terms.lists.attributes", "terms.lists.attributes[0]"),
        **{f"{name}_one": f"terms.lists.{name}[1]" for name in LISTS},
        **{key: f"terms.{key}" for key in TERM_FIELDS},
    }

    def read(self, file):
        terms = file["terms"]
        values = {key: terms.get(key, "") for key in TERM_FIELDS}
        for name in LISTS:
            title, one = terms["lists"].get(name, ("", ""))
            values.update({f"{name}_title": title, f"{name}_one": one})
        return values, {}

    def write(self, file, v, rows):
        terms = file["terms"]
        terms["lists"] = {
            name: [v[f"{name}_title"].strip(), v[f"{name}_one"].strip()]
            for name in LISTS
            if name in ("attributes", "skills")
            or v[f"{name}_title"].strip()
            or v[f"{name}_one"].strip()
        }
        terms.update({key: v[key].strip() for key in TERM_FIELDS})
        return file


_declare(
    TermsSection,
    {
        **{
            name: field
            for list_name, title in LIST_NAMES.items()
            for name, field in (
                (f"{list_name}_title", text(format_lazy(_("{list}: title"), list=title))),
                (f"{list_name}_one", text(format_lazy(_("{list}: one of them"), list=title))),
            )
        },
        **TERM_FIELDS,
    },
)
