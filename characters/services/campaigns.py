"""Campaign writes: create a campaign (with a catalogue seeded from the base ruleset's
built-in lists), change its house rules and settings, edit its catalogue,
and manage who plays in it. Callers check who may do what (characters.selectors); these
functions check that the change itself makes sense, and record every change in the
campaign's append-only history (CampaignEvent) in the same transaction."""

import re
from decimal import Decimal

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils.translation import gettext

from characters import languages, vocabulary
from characters.adapters import base_ruleset as base_ruleset_of
from characters.adapters import changed_keys, normalized_house_rules, to_decimal
from characters.errors import NotAllowed, OwnCampaign, ServiceError
from characters.models import (
    CAMPAIGN_NAME_MAX,
    CATALOG_NAME_MAX,
    CATALOG_NOTE_MAX,
    ENTRY_FIELDS,
    FACTOR_RANGE,
    Campaign,
    CatalogEntry,
    Membership,
    NpcRollMethod,
    RulesetVersion,
    new_invite_code,
)
from characters.services.audit import record_campaign_event
from rules.house_rules import json_number
from rules.rulesets import BUILTIN, DIFFICULTIES


@transaction.atomic
def campaign_create(
    *,
    gm,
    name: str,
    base_ruleset: str = "",
    house_rules: dict | None = None,
    ruleset_version: RulesetVersion | None = None,
) -> Campaign:
    """A new campaign run by `gm`, with its catalogue copied from the base ruleset's lists
    for the GM to edit: a built-in ruleset, or a version of a ruleset the GM designed."""
    if ruleset_version is not None:
        if ruleset_version.ruleset.owner_id != gm.pk:
            raise ServiceError(gettext("Choose one of your own rulesets."))
        base_ruleset = ruleset_version.ruleset.slug
    elif base_ruleset not in BUILTIN:
        raise ServiceError(
            gettext("Choose a base ruleset: {choices}.").format(choices=", ".join(BUILTIN))
        )
    campaign = Campaign(
        gm=gm, name=_campaign_name(name), base_ruleset=base_ruleset, ruleset_version=ruleset_version
    )
    campaign.house_rules = normalized_house_rules(base_ruleset_of(campaign), house_rules)
    campaign.save()
    entries = CatalogEntry.objects.bulk_create(seed_entries(campaign))
    # The history starts with what the campaign started from, so each later change reads
    # against it.
    record_campaign_event(
        campaign=campaign,
        actor=gm,
        action="campaign_created",
        after={
            "name": campaign.name,
            "base_ruleset": base_ruleset,
            **({"ruleset_version": ruleset_version.number} if ruleset_version else {}),
            "house_rules": campaign.house_rules,
            "catalogue_entries": len(entries),
        },
    )
    return campaign


@transaction.atomic
def campaign_update_house_rules(
    *, campaign: Campaign, actor, house_rules: dict | None, reason: str = ""
) -> Campaign:
    """Replace the campaign's house rules; only the numbers that differ from the base
    ruleset are kept. Characters are priced with the new rules from their next report.
    The event holds the changed keys only; a key missing on one side is the base value
    there. Saving the same rules again changes nothing and records nothing."""
    new = normalized_house_rules(base_ruleset_of(campaign), house_rules)
    # Locked, so two GMs' tabs saving at once each record what they really replaced.
    old = Campaign.objects.select_for_update().values_list("house_rules", flat=True)
    old = old.get(pk=campaign.pk) or {}
    before, after = changed_keys(old, new)
    campaign.house_rules = new
    if not before and not after:
        return campaign
    campaign.save(update_fields=["house_rules"])
    record_campaign_event(
        campaign=campaign,
        actor=actor,
        action="house_rules_changed",
        target="house_rules",
        before=before,
        after=after,
        reason=(reason or "").strip(),
    )
    return campaign


@transaction.atomic
def campaign_update_settings(
    *,
    campaign: Campaign,
    actor,
    spends_need_approval: bool,
    npc_roll_method: str | None = None,
    npc_damage_thresholds: bool | None = None,
) -> Campaign:
    """The campaign's settings beside its rules: whether experience spends wait for the GM
    (spends already waiting keep waiting either way: the GM still answers them), how the
    dice log rolls for the GM's NPCs and whether their damage thresholds count (Fudge 1995
    4.73). A setting not given stays as it is."""
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    wanted = {
        "spends_need_approval": bool(spends_need_approval),
        "npc_roll_method": npc_roll_method,
        "npc_damage_thresholds": npc_damage_thresholds,
    }
    after = {
        field: getattr(locked, field) if value is None else value for field, value in wanted.items()
    }
    if after["npc_roll_method"] not in NpcRollMethod.values:
        raise ServiceError(
            gettext("There is no NPC roll method {method}.").format(method=repr(npc_roll_method))
        )
    before = {field: getattr(locked, field) for field in after}
    for field, value in after.items():
        setattr(campaign, field, value)
    changed = [field for field in after if before[field] != after[field]]
    if not changed:
        return campaign
    before = {field: before[field] for field in changed}
    after = {field: after[field] for field in changed}
    campaign.save(update_fields=changed)
    record_campaign_event(
        campaign=campaign, actor=actor, action="settings_changed", before=before, after=after
    )
    return campaign


@transaction.atomic
def campaign_regenerate_invite(*, campaign: Campaign, actor) -> Campaign:
    """A new invite code: the old link and code stop working; members stay members. The
    event says that it changed, never either code: the history is no place for a secret."""
    campaign.invite_code = new_invite_code()
    campaign.save(update_fields=["invite_code"])
    record_campaign_event(campaign=campaign, actor=actor, action="invite_regenerated")
    return campaign


@transaction.atomic
def campaign_join(*, user, code: str) -> Membership:
    """`user` joins the campaign whose invite code is `code`, as a player. Joining a campaign
    one is already in changes nothing (a second click, an old bookmark)."""
    code = (code or "").strip()
    campaign = Campaign.objects.filter(invite_code=code).first() if code else None
    if campaign is None:
        raise ServiceError(
            gettext(
                "No campaign has this invite code. Check it with your GM: making a new invite "
                "link replaces the old code."
            )
        )
    if campaign.gm_id == user.pk:
        raise OwnCampaign(campaign)
    if campaign.archived_at is not None:
        raise ServiceError(
            gettext("{name} is archived: its GM takes no new players now.").format(
                name=campaign.name
            )
        )
    with transaction.atomic():
        membership, joined = Membership.objects.get_or_create(campaign=campaign, user=user)
        if joined:
            username = user.get_username()
            record_campaign_event(
                campaign=campaign,
                actor=user,
                action="member_joined",
                target=f"user:{username}",
                after={"user": username},
            )
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership, actor) -> None:
    """Remove a player from a campaign (the GM), or leave it (the player themselves). Their
    characters stay in it, where the GM still sees them, and stay theirs."""
    if actor.pk not in (membership.user_id, membership.campaign.gm_id):
        raise NotAllowed(gettext("Only the GM removes a player; a player leaves by themselves."))
    removed, _ = Membership.objects.filter(pk=membership.pk).delete()
    if not removed:  # a second tab removed them first: that one recorded it
        return
    username = membership.user.get_username()
    record_campaign_event(
        campaign=membership.campaign,
        actor=actor,
        action="member_left" if actor.pk == membership.user_id else "member_removed",
        target=f"user:{username}",
        before={
            "user": username,
            "joined_at": membership.joined_at.isoformat(),
        },
    )


@transaction.atomic
def catalog_entry_add(*, campaign: Campaign, actor, kind: str, name: str, **fields) -> CatalogEntry:
    """A new line in the campaign's catalogue. `fields` are the kind's optional fields
    (ENTRY_FIELDS) and `note`."""
    if kind not in ENTRY_FIELDS:
        raise ServiceError(
            gettext("Choose a kind of entry: {choices}.").format(choices=", ".join(ENTRY_FIELDS))
        )
    entry = CatalogEntry(campaign=campaign, kind=kind)
    _set_entry_fields(entry, name=name, **fields)
    _save_entry(entry)
    catalog_changed(campaign)
    record_campaign_event(
        campaign=campaign,
        actor=actor,
        action="catalog_entry_added",
        target=entry_target(entry),
        after=entry_state(entry),
    )
    return entry


@transaction.atomic
def catalog_entry_update(*, entry: CatalogEntry, actor, name: str, **fields) -> CatalogEntry:
    entry = CatalogEntry.objects.select_for_update().select_related("campaign").get(pk=entry.pk)
    target, before = entry_target(entry), entry_state(entry)
    _set_entry_fields(entry, name=name, **fields)
    after = entry_state(entry)
    if after == before:  # saved unchanged: nothing to record
        return entry
    _save_entry(entry)
    catalog_changed(entry.campaign)
    record_campaign_event(
        campaign=entry.campaign,
        actor=actor,
        action="catalog_entry_changed",
        target=target,  # the name it had: a rename shows as name before -> after
        before=before,
        after=after,
    )
    return entry


@transaction.atomic
def catalog_entry_remove(*, entry: CatalogEntry, actor) -> None:
    """Characters keep the traits they took from the entry: it only leaves the list."""
    removed, _ = CatalogEntry.objects.filter(pk=entry.pk).delete()
    if not removed:  # a second tab removed it first: that one recorded it
        return
    catalog_changed(entry.campaign)
    record_campaign_event(
        campaign=entry.campaign,
        actor=actor,
        action="catalog_entry_removed",
        target=entry_target(entry),
        before=entry_state(entry),
    )


def catalog_changed(campaign: Campaign) -> None:
    """Every write to a campaign's catalogue ends here, in its transaction: the catalogue's
    version goes up, so no process prices with the list it kept from before."""
    Campaign.objects.filter(pk=campaign.pk).update(catalog_version=F("catalog_version") + 1)


def entry_target(entry: CatalogEntry) -> str:
    """How the history names a catalogue entry: "skill:Climbing"."""
    return f"{entry.kind}:{entry.name}"


def entry_state(entry: CatalogEntry) -> dict:
    """A catalogue entry as the history records it: JSON, only the fields it uses."""
    state = {"name": entry.name}
    if entry.difficulty:
        state["difficulty"] = entry.difficulty
    if entry.cost is not None:
        state["cost"] = json_number(entry.cost)
    for factor in ("damage", "armour"):
        if getattr(entry, factor) is not None:
            state[factor] = getattr(entry, factor)
    for key in ("equipment_kind", "power_kind"):
        if getattr(entry, key):
            state[key] = getattr(entry, key)
    if entry.note:
        state["note"] = entry.note
    if entry.translations:
        state["translations"] = entry.translations
    return state


def seed_entries(campaign: Campaign) -> list[CatalogEntry]:
    """Unsaved catalogue rows for a new campaign, from its base ruleset's built-in lists."""
    ruleset = base_ruleset_of(campaign)
    catalog = ruleset.catalog

    def entry(kind, name, **fields):
        note = fields.pop("note", "")
        translations = {
            language: {key: value for key, value in (("name", own), ("note", _fit(said))) if value}
            for language, own, said in fields.pop("translations", ())
        }
        return CatalogEntry(
            campaign=campaign,
            kind=kind,
            name=name,
            note=_fit(note),
            translations=translations,
            **fields,
        )

    # A fixed list is the attributes' list (a designed game's own names), else the suggestions.
    names = ruleset.attribute_names or catalog.attributes
    entries = [entry(CatalogEntry.Kind.ATTRIBUTE, name) for name in names]
    entries += [
        entry(
            CatalogEntry.Kind.SKILL,
            skill.name,
            # Only Mudge prices skills by difficulty; elsewhere a difficulty would mislead.
            difficulty=skill.difficulty if ruleset.skill_difficulties else "",
            note=skill.note,
            translations=skill.translations,
        )
        for skill in catalog.skills
    ]
    if ruleset.gifts_and_faults:
        entries += [
            entry(
                CatalogEntry.Kind.GIFT,
                gift.name,
                cost=to_decimal(gift.cost),
                note=gift.note,
                translations=gift.translations,
            )
            for gift in catalog.gifts
        ]
        entries += [
            entry(
                CatalogEntry.Kind.FAULT,
                fault.name,
                cost=to_decimal(fault.value),
                note=fault.note,
                translations=fault.translations,
            )
            for fault in catalog.faults
        ]
    entries += [
        entry(
            CatalogEntry.Kind.POWER_KIND,
            kind,
            note=catalog.power_kind_notes.get(kind) or ruleset.sections.get(kind, ""),
        )
        for kind in ruleset.power_kinds
    ]
    entries += [
        entry(
            CatalogEntry.Kind.POWER,
            power.name,
            power_kind=power.kind,
            # Only Mudge prices spells by difficulty (2.5); Fudge Basics as potent gifts.
            difficulty=power.difficulty if ruleset.skill_difficulties else "",
            details=power.as_details(),
        )
        for power in catalog.powers
        if power.kind in ruleset.power_kinds
    ]
    entries += [
        entry(
            CatalogEntry.Kind.EQUIPMENT,
            item.name,
            equipment_kind=item.kind,
            damage=item.damage,
            armour=item.armour,
            note=item.note,
            translations=item.translations,
        )
        for item in catalog.equipment
    ]
    return entries


def _campaign_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise ServiceError(gettext("Give the campaign a name."))
    if len(name) > CAMPAIGN_NAME_MAX:
        raise ServiceError(
            gettext("Keep the campaign's name to {limit} characters.").format(
                limit=CAMPAIGN_NAME_MAX
            )
        )
    return name


def _set_entry_fields(
    entry: CatalogEntry, *, name: str, note: str = "", translations=None, **fields
) -> None:
    unknown = set(fields) - set(ENTRY_FIELDS[entry.kind])
    if unknown:
        raise ServiceError(
            gettext("A {kind} has no {field}.").format(
                kind=kind_word(entry.kind), field=sorted(unknown)[0]
            )
        )
    name, note = _entry_name(name), _entry_note(note)
    difficulty, cost = _entry_difficulty(fields), fields.get("cost")
    if cost is not None and (cost < 0 or cost >= 1000):
        raise ServiceError(gettext("A cost counts in gifts, from 0 to 999."))
    _check_factors(fields)
    entry.name, entry.note, entry.difficulty = name, note, difficulty
    entry.cost = None if cost is None else Decimal(cost).quantize(Decimal("0.01"))
    entry.damage, entry.armour = fields.get("damage"), fields.get("armour")
    for key in ("equipment_kind", "power_kind"):
        if key in fields:
            setattr(entry, key, fields[key] or "")
    if "details" in fields:  # the rule text's lines of a power; a GM's form keeps them
        entry.details = dict(fields["details"] or {})
    if translations is not None:  # a form without them (the API's) keeps the entry's
        entry.translations = _entry_translations(translations)


def _entry_translations(translations: dict) -> dict:
    """{language: {"name": ..., "note": ...}} for the configured languages, the empty ones
    left out, each name and note held to the entry's own limits."""
    kept = {}
    for language, words in translations.items():
        if not languages.supported(language):
            raise ServiceError(gettext("There is no language {code}.").format(code=language))
        own = {}
        if words.get("name"):
            own["name"] = _entry_name(words["name"])
        if words.get("note"):
            own["note"] = _entry_note(words["note"])
        if own:
            kept[language] = own
    return kept


def _entry_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name or len(name) > CATALOG_NAME_MAX:
        raise ServiceError(
            gettext("Give the entry a name of 1 to {limit} characters.").format(
                limit=CATALOG_NAME_MAX
            )
        )
    return name


def _entry_note(note: str) -> str:
    note = (note or "").strip()
    if len(note) > CATALOG_NOTE_MAX:
        raise ServiceError(
            gettext("Keep the note to {limit} characters.").format(limit=CATALOG_NOTE_MAX)
        )
    return note


def _entry_difficulty(fields: dict) -> str:
    difficulty = fields.get("difficulty") or ""
    if difficulty not in ("", *DIFFICULTIES):
        raise ServiceError(
            gettext("Choose a difficulty: {choices}.").format(choices=", ".join(DIFFICULTIES))
        )
    return difficulty


def _check_factors(fields: dict) -> None:
    """A weapon's and an armour's value, each within the damage factors' range."""
    for factor in ("damage", "armour"):
        value = fields.get(factor)
        if value is not None and value not in FACTOR_RANGE:
            message = (
                gettext("A damage value runs from {low} to {high}.")
                if factor == "damage"
                else gettext("An armour value runs from {low} to {high}.")
            )
            raise ServiceError(message.format(low=FACTOR_RANGE[0], high=FACTOR_RANGE[-1]))


def _save_entry(entry: CatalogEntry) -> None:
    taken = (
        CatalogEntry.objects.filter(
            campaign_id=entry.campaign_id, kind=entry.kind, name__iexact=entry.name
        )
        .exclude(pk=entry.pk)
        .exists()
    )
    clash = ServiceError(
        gettext(
            "The catalogue already has a {kind} named {name}: edit that one, or give this one "
            "another name."
        ).format(kind=kind_word(entry.kind), name=entry.name)
    )
    if taken:
        raise clash
    try:
        with transaction.atomic():  # a savepoint: a concurrent twin leaves the outer write usable
            entry.save()
    except IntegrityError:
        raise clash from None


def kind_word(kind: str) -> str:
    """What one catalogue entry of `kind` is called, in the reader's language: "skill",
    "compétence"."""
    if kind in (CatalogEntry.Kind.POWER_KIND, CatalogEntry.Kind.EQUIPMENT):
        return str(CatalogEntry.Kind(kind).label)
    return vocabulary.noun(kind, f"{kind}s", 1) or kind


def _fit(note: str) -> str:
    """A built-in note cut to the column's length at a word, marked as cut."""
    if len(note) <= CATALOG_NOTE_MAX:
        return note
    return re.sub(r"\s+\S*$", "", note[: CATALOG_NOTE_MAX - 1]) + "…"
