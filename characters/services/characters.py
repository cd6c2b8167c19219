"""Writes to the character itself: create a draft (new, or from an engine character) and
edit its details. Every builder edit (here and in services.rows, templates and undo) first
takes the character through `lock_for_edit`: the row locked, the version the page was loaded
at checked (two tabs: the later stale write is refused), the build before the edit kept for
the undo history. The edit then bumps the version and records the change in the audit trail,
all in one transaction."""

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from characters.adapters import (
    DETAIL_FIELDS,
    base_ruleset,
    campaign_ruleset,
    ledger_rows,
    rows_from_rules,
)
from characters.errors import Locked, ServiceError
from characters.models import Campaign, CatalogEntry, Character, Equipment, ExperienceEntry, Trait
from characters.services.audit import commit_change, lock_character, record_event
from characters.services.history import snapshot
from rules.plan import write_steps
from rules.rulesets import BUILTIN


def lock_for_edit(
    *, character: Character, expected_version: int | None, in_place: bool = False
) -> Character:
    """The character's row, locked for this transaction, if it may be edited now."""
    locked = lock_character(
        character=character, expected_version=expected_version, in_place=in_place
    )
    if locked.is_locked:
        raise Locked(
            (
                _(
                    "{name} is submitted: it cannot be edited now. Withdraw the submission to "
                    "make changes."
                )
                if locked.state == Character.State.SUBMITTED
                else _(
                    "{name} is approved: it cannot be edited now. An approved character "
                    "changes through advancement."
                )
            ).format(name=locked.name)
        )
    # The build before the edit, for its step in the undo history (audit.commit_change).
    locked.build_before = snapshot(locked)
    return locked


def default_attribute_names(ruleset_slug: str, campaign: Campaign | None) -> list[str]:
    if campaign is not None:
        names = list(
            campaign.catalog.filter(kind=CatalogEntry.Kind.ATTRIBUTE)
            .order_by("id")
            .values_list("name", flat=True)
        )
        if names:
            return names
    ruleset = base_ruleset(campaign) if campaign is not None else BUILTIN[ruleset_slug]
    # A fixed list (Mudge's seven), else the ruleset's suggested one for the player to edit.
    return list(ruleset.attribute_names or ruleset.catalog.attributes)


@transaction.atomic
def character_create(
    *,
    owner,
    name: str,
    campaign: Campaign | None = None,
    ruleset: str | None = None,
    concept: str = "",
    group_size: int | None = None,
    npc_budget: bool = False,
) -> Character:
    """A new draft with every attribute of its ruleset (or campaign list) at its default.
    With a `group_size`, an NPC of its campaign's GM (services.npcs), priced against the
    creation budget only with `npc_budget`."""
    if campaign is not None:
        if not campaign.has_member(owner):
            raise ServiceError(_("Join the campaign before making a character in it."))
        ruleset = campaign.base_ruleset
        rules = campaign_ruleset(campaign)
    elif ruleset not in BUILTIN:
        raise ServiceError(_("Choose a ruleset: {rulesets}.").format(rulesets=", ".join(BUILTIN)))
    else:
        rules = BUILTIN[ruleset]
    is_npc = group_size is not None
    if is_npc and (campaign is None or campaign.gm_id != owner.pk):
        raise ServiceError(_("Only the campaign's GM makes its NPCs."))
    character = Character.objects.create(
        owner=owner,
        campaign=campaign,
        ruleset=ruleset,
        name=name,
        concept=concept,
        player=owner.get_username(),
        is_npc=is_npc,
        group_size=group_size or 1,
        npc_budget=is_npc and npc_budget,
    )
    Trait.objects.bulk_create(
        Trait(
            character=character,
            kind=Trait.Kind.ATTRIBUTE,
            name=attribute,
            level=rules.attribute_default,
            position=i,
        )
        for i, attribute in enumerate(default_attribute_names(ruleset, campaign))
    )
    record_event(
        character=character,
        actor=owner,
        action="character_created",
        after={"name": name, "ruleset": ruleset}
        | (
            {"npc": {"group_size": character.group_size, "budget": character.npc_budget}}
            if is_npc
            else {}
        ),
    )
    return character


def create_from_rules(*, owner, value, campaign: Campaign | None) -> Character:
    """A new draft of `owner` holding `value` (an engine character: an imported file's, or
    a duplicated character's), its ledger too. The caller records how it came. A value that
    is an NPC (rules.character.Npc) stays one only as its campaign's GM's own: anyone else's
    copy or import of it is a player character."""
    npc = value.npc if campaign is not None and campaign.gm_id == owner.pk else None
    character = Character.objects.create(
        is_npc=npc is not None,
        group_size=npc.group_size if npc else 1,
        npc_budget=npc.budget if npc else False,
        owner=owner,
        campaign=campaign,
        ruleset=value.ruleset,
        # Every field of the file (spec): a character outside a campaign keeps its house
        # rules, and the experience is the file's unless a ledger says otherwise (below).
        house_rules={} if campaign is not None else value.house_rules,
        name=value.name,
        player=value.player or owner.get_username(),
        concept=value.concept,
        race=value.race,
        scale_strength=value.scale_strength,
        scale_mass=value.scale_mass,
        meta_points=value.meta_points,
        experience=value.experience,
        notes=value.notes,
        personality=value.personality,
        experience_plan=write_steps(value.plan or ()),
        foundry_ids=value.foundry_ids,
        foundry_kept=value.foundry_kept,
    )
    traits, equipment = rows_from_rules(character, value)
    try:
        with transaction.atomic():
            Trait.objects.bulk_create(traits)
    except IntegrityError:
        raise ServiceError(
            _("The file lists the same trait twice: remove the duplicate and import again.")
        ) from None
    Equipment.objects.bulk_create(equipment)
    if value.advancement:
        # The ledger comes along (spec, "Advancement"): the creation build stays what was
        # approved, and the unspent experience is what the ledger leaves.
        rows = ExperienceEntry.objects.bulk_create(
            ledger_rows(character, value.advancement, actor=owner)
        )
        character.experience = max(sum(row.amount for row in rows), 0)
        character.save(update_fields=["experience"])
    return character


@transaction.atomic
def character_update_details(
    *, character: Character, actor, expected_version: int | None, **changes
) -> Character:
    locked = lock_for_edit(character=character, expected_version=expected_version)
    unknown = set(changes) - set(DETAIL_FIELDS)
    if unknown:
        raise ValueError(f"not a detail field: {sorted(unknown)}")
    before = {k: getattr(locked, k) for k in changes if getattr(locked, k) != changes[k]}
    if not before:
        return locked
    for key in before:
        setattr(locked, key, changes[key])
    commit_change(
        locked,
        fields=[*before],
        actor=actor,
        action="details_changed",
        before=before,
        after={k: changes[k] for k in before},
    )
    return locked
