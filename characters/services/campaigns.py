"""Campaign writes: create a campaign (with its GM's membership and a catalogue seeded from
the base ruleset's built-in lists), change its house rules, edit its catalogue, and manage
who plays in it. Callers check who may do what (characters.selectors); these functions
check that the change itself makes sense."""

import re
from decimal import Decimal
from fractions import Fraction

from django.db import IntegrityError, transaction

from characters.models import Campaign, CatalogEntry, Membership, new_invite_code
from characters.services import ServiceError
from rules.catalog import Catalog
from rules.catalogues import microfudged, mudge
from rules.house_rules import HouseRuleError, apply_house_rules, house_rules_to_json
from rules.rulesets import BUILTIN, DIFFICULTIES, Ruleset

# The built-in lists each ruleset's campaigns start from. Fudge Basics has no lists of its
# own: it borrows Mudge's, and its attributes (free in Fudge) start as Mudge's seven for
# the GM to rename, drop or extend.
SEED_CATALOGS: dict[str, Catalog] = {
    "fudge-basics": mudge.CATALOG,
    "mudge": mudge.CATALOG,
    "microfudged-dip": microfudged.DIP_CATALOG,
    "microfudged-streamlined": microfudged.STREAMLINED_CATALOG,
}

# Which of CatalogEntry's optional fields mean something for each kind of entry; the others
# are kept empty, so a skill never carries a stray cost.
ENTRY_FIELDS = {
    CatalogEntry.ATTRIBUTE: (),
    CatalogEntry.SKILL: ("difficulty",),
    CatalogEntry.GIFT: ("cost",),
    CatalogEntry.FAULT: ("cost",),
    CatalogEntry.POWER_KIND: (),
    CatalogEntry.EQUIPMENT: ("damage", "armour"),
}
NAME_MAX = CatalogEntry._meta.get_field("name").max_length
NOTE_MAX = CatalogEntry._meta.get_field("note").max_length
CAMPAIGN_NAME_MAX = Campaign._meta.get_field("name").max_length
FACTOR_RANGE = range(-20, 21)  # weapon and armour values: Mudge's run from -1 to +8


class HouseRulesRefused(ServiceError):
    """A house rule that makes no sense; `key` names it as rules.house_rules does
    ("skill_levels", "attribute_caps.Superb", "extra_attributes[1]")."""

    def __init__(self, key: str, message: str):
        super().__init__(message)
        self.key = key


@transaction.atomic
def campaign_create(
    *, gm, name: str, base_ruleset: str, house_rules: dict | None = None
) -> Campaign:
    """A new campaign run by `gm`, who becomes its first member, with its catalogue copied
    from the base ruleset's built-in lists for the GM to edit."""
    if base_ruleset not in BUILTIN:
        raise ServiceError(f"Choose a base ruleset: {', '.join(BUILTIN)}.")
    campaign = Campaign.objects.create(
        gm=gm,
        name=_campaign_name(name),
        base_ruleset=base_ruleset,
        house_rules=normalized_house_rules(BUILTIN[base_ruleset], house_rules),
    )
    Membership.objects.create(campaign=campaign, user=gm, role=Membership.GM)
    CatalogEntry.objects.bulk_create(seed_entries(campaign))
    return campaign


@transaction.atomic
def campaign_update_house_rules(*, campaign: Campaign, house_rules: dict | None) -> Campaign:
    """Replace the campaign's house rules; only the numbers that differ from the base
    ruleset are kept. Characters are priced with the new rules from their next report."""
    campaign.house_rules = normalized_house_rules(BUILTIN[campaign.base_ruleset], house_rules)
    campaign.save(update_fields=["house_rules"])
    return campaign


def normalized_house_rules(base: Ruleset, overrides: dict | None) -> dict:
    """The overrides as the character file writes them, without those equal to the base."""
    try:
        return house_rules_to_json(apply_house_rules(base, overrides), base)
    except HouseRuleError as error:
        raise HouseRulesRefused(error.key, error.message) from None


@transaction.atomic
def campaign_regenerate_invite(*, campaign: Campaign) -> Campaign:
    """A new invite code: the old link and code stop working; members stay members."""
    campaign.invite_code = new_invite_code()
    campaign.save(update_fields=["invite_code"])
    return campaign


@transaction.atomic
def campaign_join(*, user, code: str) -> Membership:
    """`user` joins the campaign whose invite code is `code`, as a player. Joining a campaign
    one is already in changes nothing (a second click, an old bookmark)."""
    code = (code or "").strip()
    campaign = Campaign.objects.filter(invite_code=code).first() if code else None
    if campaign is None:
        raise ServiceError(
            "No campaign has this invite code. Check it with your GM: making a new invite "
            "link replaces the old code."
        )
    membership, _ = Membership.objects.get_or_create(
        campaign=campaign, user=user, defaults={"role": Membership.PLAYER}
    )
    return membership


@transaction.atomic
def membership_remove(*, membership: Membership) -> None:
    """Remove a player from a campaign. Their characters stay in it, where the GM still
    sees them, and stay theirs."""
    if membership.role == Membership.GM:
        raise ServiceError("The GM cannot leave their own campaign.")
    Membership.objects.filter(pk=membership.pk).delete()


@transaction.atomic
def catalog_entry_add(*, campaign: Campaign, kind: str, name: str, **fields) -> CatalogEntry:
    """A new line in the campaign's catalogue. `fields` are the kind's optional fields
    (ENTRY_FIELDS) and `note`."""
    if kind not in ENTRY_FIELDS:
        raise ServiceError(f"Choose a kind of entry: {', '.join(ENTRY_FIELDS)}.")
    entry = CatalogEntry(campaign=campaign, kind=kind)
    _set_entry_fields(entry, name=name, **fields)
    _save_entry(entry)
    return entry


@transaction.atomic
def catalog_entry_update(*, entry: CatalogEntry, name: str, **fields) -> CatalogEntry:
    entry = CatalogEntry.objects.select_for_update().get(pk=entry.pk)
    _set_entry_fields(entry, name=name, **fields)
    _save_entry(entry)
    return entry


@transaction.atomic
def catalog_entry_remove(*, entry: CatalogEntry) -> None:
    """Characters keep the traits they took from the entry: it only leaves the list."""
    CatalogEntry.objects.filter(pk=entry.pk).delete()


def seed_entries(campaign: Campaign) -> list[CatalogEntry]:
    """Unsaved catalogue rows for a new campaign, from its base ruleset's built-in lists."""
    ruleset = BUILTIN[campaign.base_ruleset]
    catalog = SEED_CATALOGS[campaign.base_ruleset]

    def entry(kind, name, **fields):
        note = fields.pop("note", "")
        return CatalogEntry(campaign=campaign, kind=kind, name=name, note=_fit(note), **fields)

    entries = [entry(CatalogEntry.ATTRIBUTE, name) for name in catalog.attributes]
    entries += [
        entry(
            CatalogEntry.SKILL,
            skill.name,
            # Only Mudge prices skills by difficulty; elsewhere a difficulty would mislead.
            difficulty=skill.difficulty if ruleset.skill_difficulties else "",
            note=skill.note,
        )
        for skill in catalog.skills
    ]
    if ruleset.gifts_and_faults:
        entries += [
            entry(CatalogEntry.GIFT, gift.name, cost=_decimal(gift.cost), note=gift.note)
            for gift in catalog.gifts
        ]
        entries += [
            entry(CatalogEntry.FAULT, fault.name, cost=_decimal(fault.value), note=fault.note)
            for fault in catalog.faults
        ]
    entries += [
        entry(CatalogEntry.POWER_KIND, kind, note=_power_kind_note(ruleset, kind))
        for kind in ruleset.power_kinds
    ]
    entries += [
        entry(
            CatalogEntry.EQUIPMENT,
            item.name,
            damage=item.damage,
            armour=item.armour,
            note=item.note,
        )
        for item in catalog.equipment
    ]
    return entries


def _power_kind_note(ruleset: Ruleset, kind: str) -> str:
    if kind == "field":
        # MicroFudged's named fields of power are powers a character takes, not kinds of
        # power: the note lists them for the GM and the players.
        return "Psionic fields of power (DIP VIII.1): " + ", ".join(microfudged.FIELDS_OF_POWER)
    return ruleset.sections.get(kind, "")


def _campaign_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise ServiceError("Give the campaign a name.")
    if len(name) > CAMPAIGN_NAME_MAX:
        raise ServiceError(f"Keep the campaign's name to {CAMPAIGN_NAME_MAX} characters.")
    return name


def _set_entry_fields(entry: CatalogEntry, *, name: str, note: str = "", **fields) -> None:
    unknown = set(fields) - set(ENTRY_FIELDS[entry.kind])
    if unknown:
        raise ServiceError(f"A {entry.get_kind_display()} has no {sorted(unknown)[0]}.")
    name = " ".join((name or "").split())
    if not name or len(name) > NAME_MAX:
        raise ServiceError(f"Give the entry a name of 1 to {NAME_MAX} characters.")
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise ServiceError(f"Keep the note to {NOTE_MAX} characters.")
    difficulty = fields.get("difficulty") or ""
    if difficulty not in ("", *DIFFICULTIES):
        raise ServiceError(f"Choose a difficulty: {', '.join(DIFFICULTIES)}.")
    cost = fields.get("cost")
    if cost is not None and (cost < 0 or cost >= 1000):
        raise ServiceError("A cost counts in gifts, from 0 to 999.")
    for factor in ("damage", "armour"):
        value = fields.get(factor)
        if value is not None and value not in FACTOR_RANGE:
            raise ServiceError(
                f"A {factor} value runs from {FACTOR_RANGE[0]} to {FACTOR_RANGE[-1]}."
            )
    entry.name, entry.note, entry.difficulty = name, note, difficulty
    entry.cost = None if cost is None else Decimal(cost).quantize(Decimal("0.01"))
    entry.damage, entry.armour = fields.get("damage"), fields.get("armour")


def _save_entry(entry: CatalogEntry) -> None:
    taken = (
        CatalogEntry.objects.filter(
            campaign_id=entry.campaign_id, kind=entry.kind, name__iexact=entry.name
        )
        .exclude(pk=entry.pk)
        .exists()
    )
    clash = ServiceError(
        f"The catalogue already has a {entry.get_kind_display()} named {entry.name}: "
        "edit that one, or give this one another name."
    )
    if taken:
        raise clash
    try:
        with transaction.atomic():  # a savepoint: a concurrent twin leaves the outer write usable
            entry.save()
    except IntegrityError:
        raise clash from None


def _fit(note: str) -> str:
    """A built-in note cut to the column's length at a word, marked as cut."""
    if len(note) <= NOTE_MAX:
        return note
    return re.sub(r"\s+\S*$", "", note[: NOTE_MAX - 1]) + "…"


def _decimal(value: Fraction | int) -> Decimal:
    value = Fraction(value)
    return Decimal(value.numerator) / Decimal(value.denominator)
