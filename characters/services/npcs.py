"""The GM's NPCs (issue 43, docs/npcs.md): made fast in a campaign from a blank, a template,
a copy of any character in it or a character file; shown to the players as far as the GM
says; a crew made as one NPC (a wound track each) or as N separate copies.

An NPC is the campaign GM's own character (owner = the GM, is_npc): every lookup that
keeps players to their own characters keeps them from it (models.CharacterQuerySet), it
never enters the approval queue (services.review refuses to submit one), and what the GM
does to it is on its audit trail like any character's. It is archived, restored, exported
and edited in the builder as any character is: those services need nothing of their own.
"""

import dataclasses

from django.db import transaction
from django.utils.translation import gettext as _

from characters.adapters import character_to_rules
from characters.errors import NotAllowed, ServiceError
from characters.models import MAX_COPIES, Campaign, Character, NpcShown
from characters.recorded import COPY as A_COPY_OF
from characters.selectors.access import BUILD_ROWS
from characters.services.audit import commit_change, lock_character, record_event
from characters.services.character_files import character_import
from characters.services.characters import character_create, create_from_rules
from characters.services.templates import character_apply_template
from rules.character import Npc
from rules.charfile import MAX_GROUP
from rules.words import say

NAME_MAX = Character._meta.get_field("name").max_length


def _check_gm(campaign: Campaign, actor) -> None:
    if campaign.gm_id != actor.pk:
        raise NotAllowed(_("Only the campaign's GM makes its NPCs."))


def _check_group(group_size: int) -> None:
    if not 1 <= group_size <= MAX_GROUP:
        raise ServiceError(
            _("A group holds 1 to {most} members, not {count}.").format(
                most=MAX_GROUP, count=group_size
            )
        )


@transaction.atomic
def npc_create(
    *,
    campaign: Campaign,
    actor,
    name: str,
    group_size: int = 1,
    template: str = "",
    budget: bool = False,
) -> Character:
    """A blank NPC (its ruleset's attributes at their default), raised to a template's
    minimums when the GM picks one (Mudge 6.4, the builder's template picker); priced
    against the creation budget only when the GM asks (`budget`)."""
    _check_gm(campaign, actor)
    _check_group(group_size)
    npc = character_create(
        owner=actor, name=name, campaign=campaign, group_size=group_size, npc_budget=budget
    )
    if template:
        character_apply_template(character=npc, actor=actor, expected_version=None, slug=template)
        npc.refresh_from_db()
    return npc


@transaction.atomic
def npc_copy(
    *,
    campaign: Campaign,
    actor,
    source: Character,
    name: str = "",
    group_size: int = 1,
    budget: bool | None = None,
) -> Character:
    """An NPC holding any character of the campaign as it stands (a player's too: the GM
    sees every one), under a name of its own; `budget` None keeps the source's (an NPC's
    own, or none for a player's character)."""
    _check_gm(campaign, actor)
    _check_group(group_size)
    if source.campaign_id != campaign.pk:
        raise ServiceError(_("Copy a character of this campaign."))
    source = (
        Character.objects.prefetch_related(*BUILD_ROWS).select_related("campaign").get(pk=source.pk)
    )
    value = character_to_rules(source)
    name = name or source.name
    value = dataclasses.replace(
        value,
        name=name,
        player="",
        advancement=None,  # the NPC starts as the build stands, with no ledger of its own
        npc=Npc(
            group_size=group_size,
            budget=bool(value.npc and value.npc.budget) if budget is None else budget,
        ),
    )
    npc = create_from_rules(owner=actor, value=value, campaign=campaign)
    record_event(
        character=npc,
        actor=actor,
        action="npc_made",
        after={"name": name, "from": source.pk, "npc": {"group_size": group_size}},
        reason=say(A_COPY_OF, name=source.name),
    )
    return npc


def npc_import(*, campaign: Campaign, actor, text: str | bytes):
    """A character file (or Foundry actor) as an NPC of the campaign: its `npc` section
    says how, else a single NPC without a budget. Returns (npc, imported)."""
    _check_gm(campaign, actor)
    return character_import(owner=actor, text=text, campaign=campaign, as_npc=True)


@transaction.atomic
def npc_copies(*, npc: Character, actor, count: int) -> list[Character]:
    """`count` more NPCs like this one, each its own character ("Pirate 2", "Pirate 3"):
    the other way to field a crew, when each should act and be shown on its own."""
    if not npc.is_npc:
        raise ServiceError(_("{name} is not an NPC.").format(name=npc.name))
    _check_gm(npc.campaign, actor)
    if not 1 <= count <= MAX_COPIES:
        raise ServiceError(
            _("Make 1 to {most} copies at once, not {count}.").format(most=MAX_COPIES, count=count)
        )
    made = []
    for number in range(2, count + 2):
        suffix = f" {number}"
        made.append(
            npc_copy(
                campaign=npc.campaign,
                actor=actor,
                source=npc,
                name=npc.name[: NAME_MAX - len(suffix)] + suffix,
                group_size=npc.group_size,
            )
        )
    return made


@transaction.atomic
def npc_show(*, npc: Character, actor, shown: str) -> Character:
    """Hidden from the players, shown by name only, or with its sheet: the GM reveals an
    NPC when the story does."""
    if shown not in NpcShown.values:
        raise ServiceError(_("Choose hidden, name only or sheet."))
    locked = lock_character(character=npc, expected_version=None)
    if not locked.is_npc:
        raise ServiceError(_("{name} is not an NPC.").format(name=locked.name))
    _check_gm(locked.campaign, actor)
    before = locked.npc_shown
    if before == shown:
        return locked
    locked.npc_shown = shown
    commit_change(
        locked,
        fields=["npc_shown"],
        actor=actor,
        action="npc_shown",
        before={"shown": before},
        after={"shown": shown},
    )
    return locked
