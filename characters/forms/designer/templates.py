"""Class and race templates."""

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from characters.forms.designer.base import RowForm, Rows, Section
from characters.forms.designer.fields import (
    TEMPLATE_KIND_CHOICES,
    _name_lines,
    _pair_lines,
    _signed,
    lines,
    number,
    text,
    yes,
)
from characters.forms.designer.words import (
    NAMED_LEVELS,
    RULES_NAME,
    RULES_NAMES,
    RULES_TEXT,
    RULES_TEXTS,
)


def _pairs(value: str, field: str, convert=str) -> dict:
    """ "Name: value" lines as a dict; a line that is not one is a form error."""
    out = {}
    for number_, line in enumerate((value or "").splitlines(), start=1):
        if not line.strip():
            continue
        name, colon, rest = line.rpartition(":")
        if not colon or not name.strip() or not rest.strip():
            raise forms.ValidationError(
                gettext("Line {number}: write it as “Name: {value}”.").format(
                    number=number_, value=field
                )
            )
        try:
            out[name.strip()] = convert(rest.strip())
        except ValueError:
            raise forms.ValidationError(
                gettext("Line {number}: “{value}” is not a whole number.").format(
                    number=number_, value=rest.strip()
                )
            ) from None
    return out


class TemplateRow(RowForm):
    words = {
        "name": RULES_NAME,
        "description": RULES_TEXT,
        "minimum_attributes": NAMED_LEVELS,
        "minimum_skills": NAMED_LEVELS,
        "recommended_gifts": RULES_NAMES,
        "required_gifts": RULES_NAMES,
        "required_faults": RULES_NAMES,
        "racial_bonuses": NAMED_LEVELS,
        "notes": RULES_TEXTS,
    }
    name = text(_("Name"))
    kind = forms.ChoiceField(label=_("Kind"), choices=TEMPLATE_KIND_CHOICES, initial="class")
    section = text(_("Rule section"), limit=2000)
    description = text(_("Description"), long=True, limit=2000)
    minimum_attributes = lines(_("Least attributes"), _("One a line: Strength: Good."))
    minimum_skills = lines(_("Least skills"), _("One a line: Bow: Good."))
    recommended_gifts = lines(_("Gifts it suggests"), _("One a line."))
    required_gifts = lines(_("Gifts it needs"), _("One a line."))
    required_faults = lines(_("Faults it needs"), _("One a line."))
    scale_strength = number(_("Strength scale"), _("Races: 0 is human."))
    scale_mass = number(_("Mass scale"), _("Races: 0 is human."))
    racial_bonuses = lines(_("Racial bonuses"), _("One a line: Dexterity: +1."))
    notes = lines(_("Notes"), _("One a line."))
    broad = yes(_("Broad groups"), _("The least skills are groups, for a loose game (Mudge 6.42)."))
    slug = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_minimum_attributes(self):
        _pairs(self.cleaned_data["minimum_attributes"], gettext("level"))
        return self.cleaned_data["minimum_attributes"]

    def clean_minimum_skills(self):
        _pairs(self.cleaned_data["minimum_skills"], gettext("level"))
        return self.cleaned_data["minimum_skills"]

    def clean_racial_bonuses(self):
        _pairs(self.cleaned_data["racial_bonuses"], "+1", int)
        return self.cleaned_data["racial_bonuses"]


TEMPLATE_LINES = ("recommended_gifts", "required_gifts", "required_faults", "notes")
TEMPLATE_PAIRS = ("minimum_attributes", "minimum_skills")


class TemplatesSection(Section):
    key = "templates"
    title = gettext_noop("Templates")
    intro = gettext_noop(
        "Class and race templates (Mudge 6.4): the least a character of the kind has, and "
        "what a race brings."
    )
    parts = (
        Rows(
            "templates",
            _("Templates"),
            _("Each name once. Levels are words of the game's ladder."),
            TemplateRow,
            "templates",
            {name: name for name in TemplateRow.base_fields if name != "slug"} | {"slug": "slug"},
            _("Add a template"),
            _("Template {n}"),
        ),
    )

    def read(self, file):
        rows = []
        for template in file.get("templates", []):
            row = dict(template)
            for key in TEMPLATE_LINES:
                row[key] = "\n".join(template.get(key, []))
            for key in TEMPLATE_PAIRS:
                row[key] = _pair_lines(template.get(key))
            row["racial_bonuses"] = "\n".join(
                f"{name}: {_signed(shift)}"
                for name, shift in template.get("racial_bonuses", {}).items()
            )
            rows.append(row)
        return {}, {"templates": rows}

    def write(self, file, v, rows):
        templates, taken = [], set()
        for index, row in enumerate(rows["templates"]):
            slug = (
                row.get("slug") or slugify(row["name"])[:40].strip("-") or f"template-{index + 1}"
            )
            while slug in taken:
                slug = f"{slug[:36]}-{index + 1}"
            taken.add(slug)
            templates.append(
                {
                    "slug": slug,
                    "name": row["name"].strip(),
                    "kind": row["kind"] or "class",
                    "section": row["section"].strip(),
                    "description": row["description"].strip(),
                    **{key: _lenient_pairs(row[key]) for key in TEMPLATE_PAIRS},
                    **{key: _name_lines(row[key]) for key in TEMPLATE_LINES},
                    "scale_strength": row["scale_strength"] or 0,
                    "scale_mass": row["scale_mass"] or 0,
                    "racial_bonuses": {
                        name: _whole(shift)
                        for name, shift in _lenient_pairs(row["racial_bonuses"]).items()
                    },
                    "broad": bool(row["broad"]),
                }
            )
        file["templates"] = templates
        return file


def _lenient_pairs(value: str) -> dict:
    """ "Name: value" lines (already checked by the row's form)."""
    out = {}
    for line in (value or "").splitlines():
        name, colon, rest = line.rpartition(":")
        if colon and name.strip() and rest.strip():
            out[name.strip()] = rest.strip()
    return out


def _whole(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        return 0
