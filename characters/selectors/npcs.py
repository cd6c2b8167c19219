"""Reads of the GM's NPCs (services.npcs): the campaign page's list for its GM, the names
its players may see, one NPC for its GM to change."""

from django.db.models import F
from django.shortcuts import get_object_or_404

from characters.adapters import campaign_ruleset
from characters.models import Campaign, Character
from characters.rules_content import rules_name
from rules.templates import templates_for


def campaign_npc_list(campaign: Campaign) -> list[Character]:
    """The campaign's NPCs, for its GM: current ones first, then the archived (restored at
    will, as any character)."""
    return list(
        Character.all_objects.npcs()
        .filter(campaign=campaign, deleted_at__isnull=True)
        .order_by(F("archived_at").asc(nulls_first=True), "name", "pk")
    )


def npcs_named_to(campaign: Campaign) -> list[Character]:
    """The NPCs the GM revealed to the campaign's players: by name, or with their sheet."""
    return list(Character.objects.named_to_players().filter(campaign=campaign).order_by("name"))


def npc_for_gm(user, pk) -> Character:
    """One of the NPCs of the campaigns `user` runs, archived too; anyone else gets a 404."""
    npcs = Character.all_objects.npcs().filter(campaign__gm=user, deleted_at__isnull=True)
    return get_object_or_404(npcs.select_related("campaign", "owner"), pk=pk)


def npc_form_choices(campaign: Campaign) -> dict:
    """What the NPC form offers: the campaign ruleset's templates, the characters to copy."""
    templates = templates_for(campaign_ruleset(campaign)).values()
    return {
        "templates": [(t.slug, rules_name(t.name) or t.name) for t in templates],
        "characters": campaign.characters.order_by("name"),
    }
