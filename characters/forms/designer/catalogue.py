"""The seed catalogue: a section a list."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from characters.forms.designer.base import RowForm, Rows, Section
from characters.forms.designer.fields import (
    DIFFICULTY_CHOICES,
    TranslationsField,
    _number_of,
    amount,
    number,
    power_kind_choices,
    text,
)
from characters.forms.designer.words import RULES_NAME, RULES_TEXT
from characters.models import Equipment
from rules.catalog import POWER_DETAILS

# A catalogue entry's name and note: the rules content's, in the GM's language (words.py).
NAMED_ENTRY = {"name": RULES_NAME, "note": RULES_TEXT}


class CatalogueSection(Section):
    """One of the lists a campaign's catalogue starts from."""

    list_key = ""

    def read(self, file):
        entries = file.get("catalogue", {}).get(self.list_key, [])
        return {}, {self.list_key: [dict(entry) for entry in entries]}

    def write(self, file, v, rows):
        fields = self.rows_named(self.list_key).fields
        entries = []
        for row in rows[self.list_key]:
            entry = {}
            for name, key in fields.items():
                value = _number_of(row.get(name))
                value = value.strip() if isinstance(value, str) else value
                if key == "name" or value not in ("", None, {}):
                    entry[key] = value
            entries.append(entry)
        file.setdefault("catalogue", {})[self.list_key] = entries
        return file


def _catalogue_rows(list_key, title, help_text, form, add, row) -> Rows:
    fields = {name: name for name in form.base_fields}
    return Rows(list_key, title, help_text, form, f"catalogue.{list_key}", fields, add, row)


class SkillRow(RowForm):
    words = NAMED_ENTRY
    name = text(_("Name"))
    difficulty = forms.ChoiceField(
        label=_("Difficulty"), choices=DIFFICULTY_CHOICES, initial="average"
    )
    note = text(_("Note"), limit=2000)
    translations = TranslationsField()


class GiftRow(RowForm):
    words = NAMED_ENTRY
    name = text(_("Name"))
    cost = amount(_("Cost"))
    note = text(_("Note"), limit=2000)
    translations = TranslationsField()


class FaultRow(RowForm):
    words = NAMED_ENTRY
    name = text(_("Name"))
    value = amount(_("Value"))
    note = text(_("Note"), limit=2000)
    translations = TranslationsField()


class EquipmentRow(RowForm):
    words = NAMED_ENTRY
    name = text(_("Name"))
    kind = forms.ChoiceField(
        label=_("Kind"), choices=Equipment.Kind.choices, initial=Equipment.Kind.GEAR
    )
    damage = number(_("Weapon value"))
    armour = number(_("Armour value"))
    note = text(_("Note"), limit=2000)
    translations = TranslationsField()


POWER_DETAIL_LABELS = {
    "section": _("Rule section"),
    "cost": _("Cost of a use"),
    "target": _("Target"),
    "damage_factor": _("Damage factor"),
    "range": _("Range"),
    "duration": _("Duration"),
    "effect": _("Effect"),
    "group": _("Group"),
}


class PowerRow(RowForm):
    words = {"name": RULES_NAME, **dict.fromkeys(POWER_DETAILS, RULES_TEXT)}
    name = text(_("Name"))
    kind = forms.ChoiceField(label=_("Kind"), choices=power_kind_choices)
    difficulty = forms.ChoiceField(
        label=_("Difficulty"), choices=[("", _("None")), *DIFFICULTY_CHOICES], required=False
    )


PowerRow.base_fields.update(
    {key: text(POWER_DETAIL_LABELS[key], long=key == "effect", limit=2000) for key in POWER_DETAILS}
)


class SkillListSection(CatalogueSection):
    list_key = "skills"
    key = "skill-list"
    title = gettext_noop("Skill list")
    intro = gettext_noop("The skills a campaign's catalogue starts with, for players to pick from.")
    parts = (
        _catalogue_rows(
            "skills",
            _("Skills"),
            _("Each name once. Difficulty: what the skill costs when priced by difficulty."),
            SkillRow,
            _("Add a skill"),
            _("Skill {n}"),
        ),
    )


class GiftListSection(CatalogueSection):
    list_key = "gifts"
    key = "gift-list"
    title = gettext_noop("Gift list")
    intro = gettext_noop("The gifts a campaign's catalogue starts with.")
    parts = (
        _catalogue_rows(
            "gifts",
            _("Gifts"),
            _("Each name once. Cost: in gifts (2 for a costly one)."),
            GiftRow,
            _("Add a gift"),
            _("Gift {n}"),
        ),
    )


class FaultListSection(CatalogueSection):
    list_key = "faults"
    key = "fault-list"
    title = gettext_noop("Fault list")
    intro = gettext_noop("The faults a campaign's catalogue starts with.")
    parts = (
        _catalogue_rows(
            "faults",
            _("Faults"),
            _("Each name once. Value: in gifts (2 for a grave one)."),
            FaultRow,
            _("Add a fault"),
            _("Fault {n}"),
        ),
    )


class EquipmentListSection(CatalogueSection):
    list_key = "equipment"
    key = "equipment"
    title = gettext_noop("Equipment")
    intro = gettext_noop("The weapons, armour and gear a campaign's catalogue starts with.")
    parts = (
        _catalogue_rows(
            "equipment",
            _("Equipment"),
            _("Each name once. Weapon value: what it adds to damage; armour: what it takes off."),
            EquipmentRow,
            _("Add an item"),
            _("Item {n}"),
        ),
    )


class PowerListSection(CatalogueSection):
    list_key = "powers"
    key = "power-list"
    title = gettext_noop("Sample powers")
    intro = gettext_noop(
        "Spells, psionic powers and superpowers written out, for players to pick from."
    )
    parts = (
        _catalogue_rows(
            "powers",
            _("Powers"),
            _(
                "Each name once, of a kind the game has. Cost of a use: what one use lowers "
                "(Mudge 2.51), as the rules word it."
            ),
            PowerRow,
            _("Add a power"),
            _("Power {n}"),
        ),
    )
