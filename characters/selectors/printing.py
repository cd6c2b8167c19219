"""Reads for printing: the character whose sheet is printed, the approved characters of a
campaign's pack, its pack jobs, and a kept PDF. Anyone not allowed gets 404."""

from django.db.models import Value
from django.db.models.functions import Coalesce
from django.shortcuts import get_object_or_404

from characters.models import Campaign, Character, PackJob, SheetPDF
from characters.selectors.access import APPROVAL_RECORD, BUILD_ROWS

# What a sheet prints, and the approval it is stamped with (its snapshot is hashed, not
# printed: the stamp checks it against its event).
SHEET_ROWS = (*BUILD_ROWS, *APPROVAL_RECORD)


def character_for_sheet(user, pk) -> Character:
    """The owner's or the campaign GM's character, or an NPC its GM showed the players
    whole, with what its sheet prints."""
    characters = (
        Character.objects.readable_by(user)
        .select_related("campaign__gm", "owner")
        .prefetch_related(*SHEET_ROWS)
    )
    return get_object_or_404(characters, pk=pk)


def pack_characters(campaign: Campaign):
    """The campaign's approved characters, the ones its pack prints: a fixed number of
    queries however large the party."""
    # Whether each has a portrait comes with the list; the picture itself is read as its
    # sheet is laid out, so a pack never holds every picture at once.
    return (
        campaign.characters.filter(state=Character.State.APPROVED, is_npc=False)
        .with_game()
        .prefetch_related(*SHEET_ROWS)
        .annotate(portrait_sha=Coalesce("portrait__sha256", Value("")))
    )


def pack_npcs(campaign: Campaign):
    """The GM's current NPCs, which the pack prints on cards after the party's sheets."""
    return (
        campaign.characters.filter(is_npc=True, archived_at__isnull=True)
        .with_game()
        .prefetch_related(*SHEET_ROWS)
        .order_by("name", "pk")
    )


def pack_character_names(campaign: Campaign) -> list[str]:
    return list(
        campaign.characters.filter(state=Character.State.APPROVED, is_npc=False)
        .order_by("name")
        .values_list("name", flat=True)
    )


def pack_jobs(campaign: Campaign, limit: int = 5):
    """The newest pack jobs."""
    return campaign.pack_jobs.select_related("requested_by")[:limit]


def pack_job_for_gm(user, campaign_pk: int, job_pk: int):
    jobs = PackJob.objects.filter(campaign__gm=user, campaign_id=campaign_pk).select_related(
        "campaign"
    )
    return get_object_or_404(jobs, pk=job_pk)


def kept_sheet_pdf(character: Character, options_key: str, digest: str) -> bytes | None:
    content = (
        SheetPDF.objects.filter(character=character, options=options_key, digest=digest)
        .values_list("content", flat=True)
        .first()
    )
    return None if content is None else bytes(content)
