"""The wound track and what a blow does."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from characters.forms.designer.base import Group, RowForm, Rows, Section
from characters.forms.designer.fields import _name_lines, choice, lines, number, text, yes
from rules.ruleset_file import ruleset_to_json
from rules.rulesets import FUDGE_BASICS


class TrackRow(RowForm):
    words = {"name": "wound"}
    name = text(_("Name"))
    damage = text(_("Damage"))
    penalty = number(_("Penalty"))
    boxes = number(_("Boxes"))


class GrazeRow(RowForm):
    words = {"wound": "wound"}
    start = number(_("From damage"))
    wound = text(_("Worst row"))


class HarmSection(Section):
    key = "harm"
    title = gettext_noop("Wound track")
    intro = gettext_noop(
        "The track a character marks when hurt (or set back), lightest row first, and what "
        "a blow does."
    )
    words = {"track_title": "harm", "caused_by": "harm", "track_note": "ruleset note"}
    has_track = yes(_("The game has a wound track"), _("Untick for a game without one."))
    track_title = text(_("Title"), _("What the sheet calls it: Wounds, Setbacks."))
    caused_by = text(_("Its first column"), _("What inflicts a row: Damage, Successes."))
    penalty_unit = choice(
        _("The penalty applies to"),
        "",
        [("", _("Every action")), ("card", _("Every card drawn (MicroFudged)"))],
    )
    damage_factors = yes(
        _("The sheet prints damage factors"), _("Offensive and defensive (Mudge 4.54).")
    )
    damage_die = yes(
        _("A damage die"), _("The odd-coloured fourth die adds to damage (Mudge 4.61).")
    )
    unarmed = number(
        _("Bare hands"), _("The damage of a blow with bare hands (Mudge: -1)."), required=True
    )
    unarmed_trained = number(
        _("Bare hands, trained"),
        _("With a martial art among the skills (Mudge: 0)."),
        required=True,
    )
    martial_arts = lines(_("Martial arts"), _("Skills that train bare hands, one a line."))
    more_scratch = lines(
        _("One more light box"), _("Gifts that add a box to the first row, one a line.")
    )
    fewer_scratch = lines(_("One light box fewer"), _("Faults that take one away, one a line."))
    track_note = text(_("A line under the track"), _("How it heals, say."), limit=2000)
    parts = (
        Group("", ("has_track", "track_title", "caused_by", "penalty_unit")),
        Rows(
            "track",
            _("Rows"),
            _(
                "Lightest first. Damage: what inflicts it (1,2 or 3-4 or 9+). Penalty: 0 or less, "
                "to every action while it is the worst. Boxes: 1 to 20."
            ),
            TrackRow,
            "harm.track",
            {"name": "name", "damage": "damage", "penalty": "penalty", "boxes": "boxes"},
            _("Add a row"),
            _("Row {n}"),
        ),
        Group(
            _("Damage"),
            (
                "damage_factors",
                "damage_die",
                "unarmed",
                "unarmed_trained",
                "martial_arts",
                "more_scratch",
                "fewer_scratch",
                "track_note",
            ),
        ),
        Rows(
            "grazes",
            _("Grazes"),
            _(
                "The worst row a graze reaches, from a total damage up (Mudge 4.56). Empty: no "
                "limit."
            ),
            GrazeRow,
            "harm.graze_limits",
            {"start": "from", "wound": "wound"},
            _("Add a graze limit"),
            _("Graze limit {n}"),
        ),
    )
    paths = {
        "has_track": "harm",
        "track_title": "harm.title",
        "caused_by": "harm.caused_by",
        "penalty_unit": "harm.penalty_unit",
        "damage_factors": "harm.damage_factors",
        "damage_die": "harm.damage_die",
        "unarmed": "harm.unarmed",
        "unarmed_trained": "harm.unarmed_trained",
        "martial_arts": "harm.martial_arts",
        "more_scratch": "harm.more_scratch",
        "fewer_scratch": "harm.fewer_scratch",
        "track_note": "harm.note",
    }
    LISTED = ("martial_arts", "more_scratch", "fewer_scratch")

    def read(self, file):
        harm = file.get("harm") or ruleset_to_json(FUDGE_BASICS)["harm"]
        values = {name: harm.get(path.split(".")[-1]) for name, path in self.paths.items()}
        values.update(
            has_track=file.get("harm") is not None,
            track_title=harm["title"],
            track_note=harm.get("note", ""),
            **{key: "\n".join(harm.get(key, [])) for key in self.LISTED},
        )
        rows = {
            "track": [dict(row) for row in harm["track"]],
            "grazes": [
                {"start": g["from"], "wound": g["wound"]} for g in harm.get("graze_limits", [])
            ],
        }
        return values, rows

    def write(self, file, v, rows):
        if not v["has_track"]:
            file["harm"] = None
            return file
        harm = file.get("harm") or {}
        harm.update(
            title=v["track_title"].strip(),
            caused_by=v["caused_by"].strip(),
            track=[
                {
                    "name": r["name"].strip(),
                    "damage": r["damage"].strip(),
                    "penalty": r["penalty"],
                    "boxes": r["boxes"],
                }
                for r in rows["track"]
            ],
            penalty_unit=v["penalty_unit"] or "",
            damage_factors=v["damage_factors"],
            damage_die=v["damage_die"],
            unarmed=v["unarmed"],
            unarmed_trained=v["unarmed_trained"],
            note=v["track_note"].strip(),
            graze_limits=[
                {"from": r["start"], "wound": r["wound"].strip()} for r in rows["grazes"]
            ],
            **{key: _name_lines(v[key]) for key in self.LISTED},
        )
        file["harm"] = harm
        return file
