"""Reads: what pages show, assembled with a fixed number of queries, and who may see what."""

from dataclasses import dataclass
from functools import cache

from django.db.models import Q
from django.shortcuts import get_object_or_404

from characters.models import Campaign, Character
from rules import tables
from rules.house_rules import json_number
from rules.ladder import level_name
from rules.rulesets import BUILTIN, LEVELS, Ruleset


@dataclass(frozen=True)
class RulesetSummary:
    slug: str
    name: str
    summary: str
    ruleset: Ruleset
    budgets: list[tuple[str, str]]
    caps: list[tuple[str, str]]
    skill_header: tuple[str, ...]
    skill_rows: list
    attribute_rows: list
    experience_rows: list
    experience_unit: str


def describe_budgets(r: Ruleset) -> list[tuple[str, str]]:
    if r.system == LEVELS:
        tv = r.trade_values
        return [
            ("Attribute levels", str(r.attribute_levels)),
            ("Skill levels", str(r.skill_levels)),
            ("Free gifts", str(json_number(r.free_gifts))),
            (
                "Trade values",
                f"1 attribute level = {json_number(tv['attribute'])} skill levels; "
                f"1 gift = {json_number(tv['gift'])}; "
                f"1 fault = {json_number(tv['fault'])}",
            ),
            ("Meta points at start", str(r.meta_points_start)),
        ]
    rows = [("Tokens", str(r.tokens))]
    if r.power_levels:
        rows.append(("Power levels", " / ".join(map(str, r.power_levels))))
    if r.tokens_carried is not None:
        rows.append(("Tokens carried into play", f"at most {r.tokens_carried}"))
    if r.must_spend_and_save:
        rows.append(("At creation", "spend at least 1 token, save at least 1"))
    return rows


def describe_caps(r: Ruleset) -> list[tuple[str, str]]:
    def caps(c):
        return ", ".join(f"{n} {level_name(lv)}" for lv, n in sorted(c.items(), reverse=True))

    rows = []
    if r.attribute_caps:
        rows.append(("Attributes", f"at most {caps(r.attribute_caps)}"))
    if r.skill_caps:
        rows.append(("Skills", f"at most {caps(r.skill_caps)}"))
    if r.max_lowered_skills is not None:
        rows.append(("Lowered skills", f"at most {r.max_lowered_skills}, one level each"))
    rows.append(
        (
            "Levels at creation",
            f"{level_name(r.creation_min)} to {level_name(r.creation_max)}"
            + ("" if not r.legendary_at_creation else ", Legendary allowed"),
        )
    )
    return rows


def summarize_ruleset(r: Ruleset) -> RulesetSummary:
    header, rows = tables.skill_cost_table(r)
    return RulesetSummary(
        slug=r.slug,
        name=r.name,
        summary=r.summary,
        ruleset=r,
        budgets=describe_budgets(r),
        caps=describe_caps(r),
        skill_header=header,
        skill_rows=rows,
        attribute_rows=tables.attribute_cost_table(r),
        experience_rows=tables.experience_table(r),
        experience_unit=r.advancement.unit if r.advancement else "",
    )


@cache
def ruleset_summaries() -> tuple[RulesetSummary, ...]:
    # Built-in rulesets never change while the process runs: describe them once.
    return tuple(summarize_ruleset(r) for r in BUILTIN.values())


# -- who may see what ------------------------------------------------------------------------
# A player sees and edits their own characters; a campaign's GM sees every character in it;
# nobody else sees anything. Lookups that fail any of these raise Http404, never 403, so a
# forged id tells nothing about what exists.


def characters_visible_to(user):
    return Character.objects.filter(Q(owner=user) | Q(campaign__gm=user)).select_related(
        "campaign", "owner"
    )


def character_for_viewer(user, pk):
    return get_object_or_404(
        characters_visible_to(user).prefetch_related("traits", "equipment"), pk=pk
    )


def character_for_owner(user, pk, *, with_rows=True):
    """The user's own character. `with_rows=False` skips prefetching its traits and
    equipment, for a write that re-reads them after it commits anyway."""
    characters = Character.objects.filter(owner=user).select_related("campaign", "owner")
    if with_rows:
        characters = characters.prefetch_related("traits", "equipment")
    return get_object_or_404(characters, pk=pk)


def campaign_for_gm(user, pk):
    return get_object_or_404(Campaign.objects.filter(gm=user), pk=pk)


def campaign_for_member(user, pk):
    return get_object_or_404(Campaign.objects.filter(memberships__user=user).distinct(), pk=pk)
