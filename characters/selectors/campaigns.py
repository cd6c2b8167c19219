"""Reads for the GM's campaign pages: what a house-rule change would do to the campaign's
characters before it is saved, and the campaign's history. Reads only: the preview prices
every character twice and writes nothing. Who may see these is the views' lookup
(characters.selectors.campaign_for_gm): a 404 for anyone but the GM."""

import dataclasses
from dataclasses import dataclass
from fractions import Fraction

from django.utils.dateparse import parse_datetime
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from characters import vocabulary
from characters.adapters import (
    TRAIT_LISTS,
    CampaignCatalog,
    base_ruleset,
    campaign_ruleset,
    changed_keys,
    character_to_rules,
    normalized_house_rules,
    version_ruleset,
)
from characters.knobs import KNOBS
from characters.models import Campaign, CampaignEvent, CampaignWebhook, Character, target_label
from characters.rules_content import rules_name
from characters.selectors.access import BUILD_ROWS
from characters.selectors.review_rows import target_said
from characters.wording import SPEAKER, said
from rules.house_rules import ATTRIBUTE_KEYS, apply_house_rules
from rules.report import build_report
from rules.rule_names import in_words, rule_name
from rules.rulesets import BUILTIN, LEVELS, Ruleset
from rules.trades import amount_phrase

# -- the preview of a house-rule change ----------------------------------------------------------


@dataclass(frozen=True)
class CharacterImpact:
    """One character priced under the campaign's rules now and under the proposed ones."""

    character: Character
    ruleset: Ruleset  # the rules now, whose words say the balance (balance_words)
    balance_before: Fraction
    balance_after: Fraction
    errors_before: frozenset[str]
    errors_after: frozenset[str]

    @property
    def affected(self) -> bool:
        return self.balance_before != self.balance_after or self.errors_before != self.errors_after

    @property
    def new_errors(self) -> list[str]:
        return sorted(broken_rule(code) for code in self.errors_after - self.errors_before)

    @property
    def resolved_errors(self) -> list[str]:
        return sorted(broken_rule(code) for code in self.errors_before - self.errors_after)

    @property
    def keeps_approval(self) -> bool:
        """An approved build keeps the approval snapshot it was approved with: the change
        shows on its report, not on its approval (the GM may look at it again)."""
        return self.character.state == Character.State.APPROVED

    @property
    def balance_text(self) -> str:
        before = balance_words(self.balance_before, self.ruleset)
        return f"{before} → {balance_words(self.balance_after, self.ruleset)}"


# rules.rule_names.RULE_NAMES in the reader's language (tests/i18n/test_i18n_campaigns.py keeps
# the two tables the same in English).
BROKEN_RULES = {
    "amount": pgettext_lazy("broken rule", "an amount that is not a number"),
    "attribute_names": pgettext_lazy("broken rule", "attributes the rules do not list"),
    "cap_exceeded": pgettext_lazy("broken rule", "too many traits at a high level"),
    "cap_slots_traded": pgettext_lazy("broken rule", "high-level slots traded for lower ones"),
    "difficulty_not_allowed": pgettext_lazy("broken rule", "a difficulty the rules do not use"),
    "duplicate_trait": pgettext_lazy("broken rule", "the same trait twice"),
    "level_missing": pgettext_lazy("broken rule", "a trait with no level"),
    "level_out_of_range": pgettext_lazy("broken rule", "a level out of range at creation"),
    "levels_unspent": pgettext_lazy("broken rule", "levels left unspent"),
    "lowered_with_levels_unspent": pgettext_lazy(
        "broken rule", "a trait lowered while levels are unspent"
    ),
    "meta_points_out_of_range": pgettext_lazy("broken rule", "meta points out of range"),
    "must_save_token": pgettext_lazy("broken rule", "a token that must be saved"),
    "must_spend_token": pgettext_lazy("broken rule", "a token that must be spent"),
    "not_in_ruleset": pgettext_lazy("broken rule", "a trait these rules do not have"),
    "over_budget": pgettext_lazy("broken rule", "over budget"),
    "power_potential": pgettext_lazy("broken rule", "a power's potential"),
    "power_requires_gift": pgettext_lazy("broken rule", "a power without the gift it needs"),
    "tokens_lost": pgettext_lazy("broken rule", "tokens lost"),
    "too_few_faults": pgettext_lazy("broken rule", "too few faults"),
    "too_many_lowered": pgettext_lazy("broken rule", "too many skills lowered below their default"),
    "too_many_skills": pgettext_lazy("broken rule", "too many skills"),
    "too_many_uncommitted": pgettext_lazy("broken rule", "too many uncommitted traits"),
    "uncommitted_too_high": pgettext_lazy("broken rule", "an uncommitted trait set too high"),
    "unknown_field": pgettext_lazy("broken rule", "a field the character file does not have"),
    "unknown_trait": pgettext_lazy("broken rule", "a trait the rules do not know"),
}


def broken_rule(code: str) -> str:
    """A broken rule in words, in the reader's language (a code not listed: rule_name's)."""
    found = BROKEN_RULES.get(code)
    return rule_name(code) if found is None else str(found)


@dataclass(frozen=True)
class HouseRulesPreview:
    house_rules: dict  # the proposed house rules, as they would be saved
    before: dict  # the changed keys only, as the history will record them
    after: dict
    impacts: list[CharacterImpact]  # every character of the campaign, by name

    @property
    def changes_anything(self) -> bool:
        return bool(self.before or self.after)

    @property
    def affected(self) -> list[CharacterImpact]:
        return [impact for impact in self.impacts if impact.affected]

    @property
    def unaffected(self) -> int:
        return len(self.impacts) - len(self.affected)


def house_rules_preview(campaign: Campaign, overrides: dict | None) -> HouseRulesPreview:
    """What saving `overrides` as the campaign's house rules would change: each current
    character's balance and error codes under the rules in force and under the proposed
    ones. Raises errors.HouseRulesRefused for rules that make no sense, with
    the words the save would use."""
    base = base_ruleset(campaign)
    proposed = normalized_house_rules(base, overrides)
    before, after = changed_keys(campaign.house_rules or {}, proposed)
    return HouseRulesPreview(proposed, before, after, _impacts(campaign, base, proposed))


def ruleset_move_preview(campaign: Campaign, version) -> HouseRulesPreview:
    """What moving the campaign onto `version` of its designed ruleset would change, as
    house_rules_preview says it: each character's balance and errors now and then. The
    house rules stay as they are where the new version still takes them (else
    errors.HouseRulesRefused: the GM changes them first)."""
    base = version_ruleset(version.pk, version.created_at)
    proposed = normalized_house_rules(base, campaign.house_rules)
    before = {"ruleset_version": campaign.ruleset_version.number}
    after = {"ruleset_version": version.number}
    return HouseRulesPreview(proposed, before, after, _impacts(campaign, base, proposed))


def _impacts(campaign: Campaign, base: Ruleset, proposed: dict) -> list["CharacterImpact"]:
    # One catalogue for both rulesets and every character: a house rule never changes it,
    # and loading it once keeps the preview's queries the same however large the table.
    catalog = CampaignCatalog(campaign)
    now = dataclasses.replace(campaign_ruleset(campaign), catalog=catalog)
    then = dataclasses.replace(apply_house_rules(base, proposed), catalog=catalog)
    characters = (
        Character.objects.filter(campaign=campaign)
        .select_related("owner")
        .prefetch_related(*BUILD_ROWS)
        .order_by("name", "pk")
    )
    impacts = []
    for character in characters:
        character.campaign = campaign  # priced with the campaign in hand: no query each
        value = character_to_rules(character)
        impacts.append(
            _impact(character, value, now, dataclasses.replace(value, house_rules=proposed), then)
        )
    return impacts


def _impact(character, value, now: Ruleset, proposed_value, then: Ruleset) -> CharacterImpact:
    old, new = build_report(value, now), build_report(proposed_value, then)
    return CharacterImpact(
        character=character,
        ruleset=now,
        balance_before=old.balance,
        balance_after=new.balance,
        errors_before=frozenset(issue.code for issue in old.errors),
        errors_after=frozenset(issue.code for issue in new.errors),
    )


def balance_words(balance: Fraction, ruleset: Ruleset) -> str:
    """As the builder's balance panel says it, in the ruleset's words and the reader's
    language: "-3 skill levels", "1 token", "2 knack levels" in a GM's game of knacks."""
    pool = "skills" if ruleset.system == LEVELS else "tokens"
    return said(amount_phrase(balance, pool, ruleset.terms))


# -- the campaign's history ----------------------------------------------------------------------

ACTIONS = {
    "campaign_created": _("Campaign created"),
    "house_rules_changed": _("House rules changed"),
    "settings_changed": _("Settings changed"),
    "catalog_entry_added": _("Catalogue entry added"),
    "catalog_entry_changed": _("Catalogue entry changed"),
    "catalog_entry_removed": _("Catalogue entry removed"),
    "member_joined": _("Player joined"),
    "member_left": _("Player left"),
    "member_removed": _("Member removed"),
    "campaign_archived": _("Campaign archived"),
    "campaign_restored": _("Campaign restored"),
    "invite_regenerated": _("New invite link"),
    "webhook_set": _("Dice log webhook set"),
    "webhook_revoked": _("Dice log webhook revoked"),
    "ruleset_moved": _("Moved to another version of the ruleset"),
}
# What a side without the key means, per action: a house rule left out is the base value.
ABSENT = {"house_rules_changed": _("as the base ruleset")}
NOTES = {"invite_regenerated": _("The old invite link and code stopped working.")}
# The recorded keys by name, in the reader's language; a key not here as it is written.
FIELD_NAMES = {
    "name": pgettext_lazy("history field", "Name"),
    "base_ruleset": pgettext_lazy("history field", "Base ruleset"),
    "ruleset_version": pgettext_lazy("history field", "Ruleset version"),
    "house_rules": pgettext_lazy("history field", "House rules"),
    "catalogue_entries": pgettext_lazy("history field", "Catalogue entries"),
    "spends_need_approval": pgettext_lazy("history field", "Spends need approval"),
    "npc_roll_method": pgettext_lazy("history field", "NPC roll method"),
    "npc_damage_thresholds": pgettext_lazy("history field", "Damage thresholds for NPCs"),
    "user": pgettext_lazy("history field", "User"),
    "joined_at": pgettext_lazy("history field", "Joined at"),
    "difficulty": pgettext_lazy("history field", "Difficulty"),
    "cost": pgettext_lazy("history field", "Cost"),
    "damage": pgettext_lazy("history field", "Damage"),
    "armour": pgettext_lazy("history field", "Armour"),
    "equipment_kind": pgettext_lazy("history field", "Equipment kind"),
    "power_kind": pgettext_lazy("history field", "Power kind"),
    "note": pgettext_lazy("history field", "Note"),
    "webhook": pgettext_lazy("history field", "Webhook"),
    # The house rules' keys: the knobs' own names in a history.
    **{knob.key: knob.history for knob in KNOBS if knob.history},
}


@dataclass(frozen=True)
class Field:
    name: str
    before: str
    after: str


@dataclass(frozen=True)
class HistoryLine:
    event: CampaignEvent
    title: str
    fields: list[Field]
    note: str = ""
    target: str = ""  # what the event is about, for people: "Skill: Climbing"


def campaign_history(campaign: Campaign) -> list[HistoryLine]:
    """The campaign's events, newest first, each with its fields before and after."""
    events = CampaignEvent.objects.filter(campaign=campaign).select_related("actor")
    ruleset = campaign_ruleset(campaign)  # whose words name a catalogue entry's list
    return [_line(event, ruleset) for event in events.order_by("-created_at", "-id")]


def _line(event: CampaignEvent, ruleset: Ruleset | None = None) -> HistoryLine:
    before, after = event.before or {}, event.after or {}
    # An empty side is still a side: every key of the other one was the base value there.
    has_before, has_after = event.before is not None, event.after is not None
    absent = str(ABSENT.get(event.action, ""))
    fields = [
        Field(
            str(FIELD_NAMES.get(key) or key.replace("_", " ").capitalize()),
            show_value(before[key], key) if key in before else (absent if has_before else ""),
            show_value(after[key], key) if key in after else (absent if has_after else ""),
        )
        for key in {**before, **after}
    ]
    return HistoryLine(
        event=event,
        title=str(ACTIONS.get(event.action) or event.action.replace("_", " ").capitalize()),
        fields=fields,
        note=str(NOTES.get(event.action, "")),
        target=target_words(event.target, ruleset),
    )


# What an event is about, by the kind its target names ("skill:Climbing", "house_rules").
TARGET_KINDS = {
    "user": pgettext_lazy("history target", "User"),
    "attribute": pgettext_lazy("history target", "Attribute"),
    "skill": pgettext_lazy("history target", "Skill"),
    "gift": pgettext_lazy("history target", "Gift"),
    "fault": pgettext_lazy("history target", "Fault"),
    "power_kind": pgettext_lazy("history target", "Power kind"),
    "power": pgettext_lazy("history target", "Power"),
    "equipment": pgettext_lazy("history target", "Equipment"),
    "house_rules": pgettext_lazy("history target", "House rules"),
}


def target_words(target: str, ruleset: Ruleset | None = None) -> str:
    """An event's target in the reader's language: "Skill: Climbing", "Compétence : Climbing"
    (the name as written); a catalogue entry of one of the trait lists in the campaign's
    `ruleset`'s words, as its characters' audit trails say it ("Field of expertise: Riding"
    in MicroFudged); a kind not listed as the model says it."""
    kind, _, name = target.partition(":")
    if ruleset is not None and name and f"{kind}s" in TRAIT_LISTS.values():
        return target_said(target, ruleset)
    said = TARGET_KINDS.get(kind)
    if said is None:
        return target_label(target) if target else ""
    if not name:
        return str(said)
    return pgettext("history target", "{kind}: {name}").format(kind=said, name=name)


def show_value(value, key: str = "") -> str:
    """A recorded JSON value in words, in the reader's language: yes/no, a ruleset by its
    name, numbers as the language writes them, text as it is, nothing as "none", the rest
    in the file's words (a cap table "Superb: 1; Great: 2", a list of extra attributes)."""
    if isinstance(value, bool):
        return pgettext("recorded value", "yes") if value else pgettext("recorded value", "no")
    if value is None or value == {} or value == []:
        return pgettext("recorded value", "none")
    if key in ATTRIBUTE_KEYS and isinstance(value, str):  # as the rows name it: "Willenskraft"
        return rules_name(value)
    if key == "base_ruleset" and value in BUILTIN:
        return vocabulary.term(BUILTIN[value].name, "ruleset")
    when = parse_datetime(value) if key.endswith("_at") and isinstance(value, str) else None
    if when is not None:  # a member's joined_at, recorded as ISO 8601: as the page's dates
        return date_format(localtime(when), gettext("j M Y H:i"))  # the language's format
    if isinstance(value, int | float):  # as the reader's language writes it: 2,5
        return SPEAKER.number(value)
    if key == "equipment_kind" and isinstance(value, str):  # "weapon": a word of the rules
        return vocabulary.term(value, "equipment kind")
    if key == "power_kind" and isinstance(value, str):
        return vocabulary.term(value, "power kind")
    if isinstance(value, str):
        return value
    return in_words(value)


def newer_ruleset_version(campaign: Campaign):
    """The latest version of the campaign's designed ruleset when it is newer than the one
    the campaign plays, else None."""
    if campaign.ruleset_version_id is None:
        return None
    latest = campaign.ruleset_version.ruleset.latest
    return latest if latest.number > campaign.ruleset_version.number else None


def campaign_webhook_of(campaign: Campaign) -> CampaignWebhook | None:
    """The campaign's webhook, for its GM's page: masked, with how its last posts went."""
    webhook = CampaignWebhook.objects.filter(campaign=campaign).first()
    if webhook is not None:
        webhook.failing = webhook.failed_at is not None and (
            webhook.delivered_at is None or webhook.failed_at > webhook.delivered_at
        )
        webhook.waiting = webhook.deliveries.filter(status__in=("queued", "sending")).count()
        webhook.given_up = webhook.deliveries.filter(status="given_up").count()
    return webhook
