"""What experience buys, and what it costs."""

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from characters.forms.designer.base import Group, Section, _declare
from characters.forms.designer.fields import knob_field, level, number, text, yes
from characters.knobs import parts_of
from characters.vocabulary import ladder_said
from rules.ruleset_file import ruleset_to_json
from rules.rulesets import FUDGE_BASICS

# The costs besides the skill steps, each a knob of characters.knobs (by its part of the costs).
ADVANCEMENT_COSTS = {k.part: knob_field(k.key, k.part) for k in parts_of("advancement_costs")}


class AdvancementSection(Section):
    key = "advancement"
    title = gettext_noop("Advancement")
    intro = gettext_noop("What experience buys after approval, and what it costs.")
    has_advancement = yes(_("Characters advance"), _("Untick for a game without experience."))
    words = {"unit": "experience unit"}
    unit = text(_("Unit"), _("What experience is counted in: XP, EP, token."))
    section = text(
        _("Rule section"), _("Where the costs come from, e.g. My game, p. 4."), limit=2000
    )
    gm_permission_from = level(
        _("The GM's permission from"),
        _("Raising a skill from this level on needs the GM."),
        none=_("Never"),
    )
    approve_gift = yes(_("A new gift needs the GM's approval"))
    approve_power = yes(_("A new power needs the GM's approval"))
    parts = (
        Group("", ("has_advancement", "unit", "section")),
        Group(
            _("Raising a skill one level"),
            ("step_*",),
            _(
                "From each level, in the unit; the costs must not fall as the level rises. All "
                "empty: one unit a rank."
            ),
        ),
        Group(
            _("Other costs"),
            (*ADVANCEMENT_COSTS, "gm_permission_from", "approve_gift", "approve_power"),
        ),
    )
    paths = {
        "has_advancement": "advancement",
        "unit": "advancement.unit",
        "section": "advancement.section",
        "gm_permission_from": "advancement.gm_permission_from",
        "approve_gift": "advancement.gm_approval",
        **{key: f"advancement.{key}" for key in ADVANCEMENT_COSTS},
    }
    keyed = {"step_": ("advancement.skill_steps.*", _("From {key}"))}

    def add_fields(self):
        super().add_fields()
        said = ladder_said(self.ladder.words)
        for index, word in enumerate(self.ladder.words):
            self.made[f"step_{index}"] = number(gettext("From {key}").format(key=said[index]))
            self.by_key[("step_", word)] = f"step_{index}"

    def read(self, file):
        advancement = file.get("advancement") or ruleset_to_json(FUDGE_BASICS)["advancement"]
        values = {key: advancement.get(key) for key in ADVANCEMENT_COSTS}
        steps = advancement.get("skill_steps") or {}
        values.update(
            has_advancement=file.get("advancement") is not None,
            unit=advancement["unit"],
            section=advancement.get("section", ""),
            gm_permission_from=advancement.get("gm_permission_from") or "",
            approve_gift="gift" in advancement.get("gm_approval", []),
            approve_power="power" in advancement.get("gm_approval", []),
            **{name: steps.get(word) for (_, word), name in self.by_key.items()},
        )
        return values, {}

    def write(self, file, v, rows):
        if not v["has_advancement"]:
            file["advancement"] = None
            return file
        steps = {
            word: v[name] for (_, word), name in self.by_key.items() if v.get(name) is not None
        }
        advancement = {
            "unit": v["unit"].strip(),
            "section": v["section"].strip(),
            "skill_steps": steps or None,
            **{key: v[key] for key in ADVANCEMENT_COSTS},
            "gm_approval": [k for k in ("gift", "power") if v[f"approve_{k}"]],
        }
        if v["gm_permission_from"]:
            advancement["gm_permission_from"] = v["gm_permission_from"]
        file["advancement"] = advancement
        return file


_declare(AdvancementSection, ADVANCEMENT_COSTS)
