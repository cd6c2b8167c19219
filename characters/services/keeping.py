"""Keeping characters and campaigns (issue 26): archive and restore, delete a draft that
never left its player, duplicate as a new draft, archive a campaign. Nothing the audit
trail names is ever removed: an archived character leaves every list and page but keeps
its rows and its record; a deleted draft keeps its row and its record, never to come back."""

import dataclasses

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from characters.adapters import character_to_rules
from characters.errors import NotAllowed, ServiceError
from characters.models import Campaign, Character
from characters.recorded import COPY as A_COPY_OF
from characters.selectors.access import BUILD_ROWS
from characters.services.audit import commit_change, record_campaign_event, record_event
from characters.services.characters import create_from_rules
from characters.services.sharing import share_links_revoke_all
from rules.words import say

NAME_MAX = Character._meta.get_field("name").max_length
COPY = " (copy)"


def _lock_any(character: Character) -> Character:
    """The row locked whatever it is (archived too): archive and restore both need it."""
    return (
        Character.all_objects.select_for_update(of=("self",))
        .select_related("campaign", "owner")
        .get(pk=character.pk, deleted_at__isnull=True)
    )


def _may_keep(locked: Character, actor) -> None:
    """A character is kept by its player; the GM keeps their own (their NPCs) like one."""
    if locked.owner_id != actor.pk:
        raise NotAllowed(gettext("Only the character's player archives, restores or deletes it."))


@transaction.atomic
def character_archive(*, character: Character, actor) -> Character:
    """Off every list and page, its rows and record kept; restored at will. A build waiting
    for the GM is withdrawn from the queue first: an archived build waits for nobody."""
    locked = _lock_any(character)
    _may_keep(locked, actor)
    if locked.archived_at is not None:
        raise ServiceError(gettext("{name} is archived already.").format(name=locked.name))
    if locked.state == Character.State.SUBMITTED:
        raise ServiceError(
            gettext(
                "{name} is waiting for the GM's review: withdraw it first, then archive it."
            ).format(name=locked.name)
        )
    locked.archived_at = timezone.now()
    share_links_revoke_all(locked)
    commit_change(locked, fields=["archived_at"], actor=actor, action="character_archived")
    return locked


@transaction.atomic
def character_restore(*, character: Character, actor) -> Character:
    locked = _lock_any(character)
    _may_keep(locked, actor)
    if locked.archived_at is None:
        raise ServiceError(gettext("{name} is not archived.").format(name=locked.name))
    if locked.campaign_id and not locked.campaign.has_member(actor):
        raise ServiceError(
            gettext(
                "You left {campaign}: {name} stays archived. Duplicate it to play it elsewhere."
            ).format(campaign=locked.campaign.name, name=locked.name)
        )
    before = locked.archived_at
    locked.archived_at = None
    commit_change(
        locked,
        fields=["archived_at"],
        actor=actor,
        action="character_restored",
        before={"archived_at": before.isoformat()},
    )
    return locked


def deletable(character: Character) -> bool:
    """A draft that never left its player: never submitted to a GM, never approved, never
    shared by a link. Anything else is on someone else's record: archive it instead."""
    return (
        character.state == Character.State.DRAFT
        and not character.submissions.exists()
        and not character.approvals.exists()
    )


@transaction.atomic
def character_delete(*, character: Character, actor) -> None:
    """Delete a draft that never left its player: its build goes (traits, equipment, its
    ledger); its row stays, archived for good, because the audit trail names it (the
    database refuses the DELETE itself) and keeps what the draft was."""
    locked = _lock_any(character)
    _may_keep(locked, actor)
    if not deletable(locked):
        raise ServiceError(
            gettext(
                "{name} has been submitted to a GM, so it is on their record: archive it "
                "instead (it can be restored)."
            ).format(name=locked.name)
        )
    now = timezone.now()
    locked.archived_at = locked.archived_at or now
    locked.deleted_at = now
    share_links_revoke_all(locked)
    locked.traits.all().delete()
    locked.equipment.all().delete()
    locked.ledger.all().delete()
    commit_change(
        locked,
        fields=["archived_at", "deleted_at"],
        actor=actor,
        action="character_deleted",
        before={"name": locked.name},
    )


@transaction.atomic
def character_duplicate(*, character: Character, actor) -> Character:
    """A new draft of the player's, holding the character as it stands (its ledger too):
    in the same campaign while the player still plays in it, else on its own."""
    source = (
        Character.objects.prefetch_related(*BUILD_ROWS)
        .select_related("campaign")
        .get(pk=character.pk)
    )
    if source.owner_id != actor.pk:
        raise NotAllowed(gettext("Only the character's player duplicates it."))
    campaign = source.campaign if source.campaign and source.campaign.has_member(actor) else None
    value = character_to_rules(source)
    name = source.name[: NAME_MAX - len(COPY)] + COPY
    copy = create_from_rules(
        owner=actor, value=dataclasses.replace(value, name=name), campaign=campaign
    )
    record_event(
        character=copy,
        actor=actor,
        action="character_duplicated",
        after={"name": name, "ruleset": copy.ruleset, "from": source.pk},
        reason=say(A_COPY_OF, name=source.name),
    )
    return copy


# -- campaigns -------------------------------------------------------------------------------


def _lock_campaign(campaign: Campaign, actor) -> Campaign:
    locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if locked.gm_id != actor.pk:
        raise NotAllowed(gettext("Only the campaign's GM archives or restores it."))
    return locked


@transaction.atomic
def campaign_archive(*, campaign: Campaign, actor) -> Campaign:
    """Off every list, closed to new players (its invite code stops working); its characters
    and record stay, and the GM restores it at will."""
    locked = _lock_campaign(campaign, actor)
    if locked.archived_at is not None:
        raise ServiceError(gettext("{name} is archived already.").format(name=locked.name))
    locked.archived_at = timezone.now()
    locked.save(update_fields=["archived_at"])
    record_campaign_event(campaign=locked, actor=actor, action="campaign_archived")
    return locked


@transaction.atomic
def campaign_restore(*, campaign: Campaign, actor) -> Campaign:
    locked = _lock_campaign(campaign, actor)
    if locked.archived_at is None:
        raise ServiceError(gettext("{name} is not archived.").format(name=locked.name))
    locked.archived_at = None
    locked.save(update_fields=["archived_at"])
    record_campaign_event(campaign=locked, actor=actor, action="campaign_restored")
    return locked
