"""The rule sections a check cites."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from characters.forms.designer.base import Group, Section, _declare
from characters.forms.designer.fields import POWER_KINDS, text
from characters.models import PowerKind

# The rule sections a check may cite, each in words (a game's file may name others: kept).
TOPICS = {
    "creation": _("Character creation"),
    "attributes": _("Attributes"),
    "attribute_names": _("The attributes' names"),
    "skills": _("Skills"),
    "gifts": _("Gifts and faults"),
    "trading": _("Trading"),
    "limits": _("Limits"),
    "uncommitted": _("Uncommitted traits"),
    "legendary": _("Legendary"),
    "scale": _("Scale"),
    **{kind: POWER_KINDS[kind] for kind in (PowerKind.SPELL, PowerKind.PSI, PowerKind.SUPERPOWER)},
    "powers": _("Powers"),
    "meta_points": _("Meta points"),
    "points_in_play": _("Points in play"),
    "advancement": _("Advancement"),
    "harm": _("Wounds"),
    "healing": _("Healing"),
    "equipment": _("Equipment"),
}


# -- fields ----------------------------------------------------------------------------------
# Few checks here: a field only turns what was typed into the file's kind of value (a number,
# a word of the ladder). What the value may be is rules.ruleset_file's to say, so the designer,
# the import and the check command give the same reasons.


class SourcesSection(Section):
    key = "sources"
    title = gettext_noop("Rule sections")
    intro = gettext_noop(
        "What a check cites for each topic: your game's own text (My game, p. 3). Character "
        "creation is required: every check falls back to it."
    )
    catalogue_section = text(
        _("Where the lists come from"), _("The source of the seed catalogue."), limit=2000
    )
    parts = (
        Group(_("Topics"), tuple(f"topic_{t}" for t in TOPICS)),
        Group(_("The lists"), ("catalogue_section",)),
    )
    paths = {
        **{f"topic_{t}": f"sections.{t}" for t in TOPICS},
        "catalogue_section": "catalogue.section",
    }

    def read(self, file):
        sections = file.get("sections", {})
        values = {f"topic_{t}": sections.get(t, "") for t in TOPICS}
        values["catalogue_section"] = file.get("catalogue", {}).get("section", "")
        return values, {}

    def write(self, file, v, rows):
        kept = {t: text for t, text in file.get("sections", {}).items() if t not in TOPICS}
        chosen = {t: v[f"topic_{t}"].strip() for t in TOPICS if v[f"topic_{t}"].strip()}
        if "creation" not in chosen:
            chosen = {"creation": "", **chosen}  # for the reader to say it is required
        file["sections"] = {**chosen, **kept}
        file.setdefault("catalogue", {})["section"] = v["catalogue_section"].strip()
        return file


_declare(
    SourcesSection,
    {f"topic_{t}": text(label, limit=2000) for t, label in TOPICS.items()},
)
