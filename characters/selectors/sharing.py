"""Reads for share links: the live link behind a token (else a plain 404), and the owner's
current link for the builder."""

from django.http import Http404

from characters.models import Character, ShareLink
from characters.selectors.printing import SHEET_ROWS


def shared_character(token: str) -> tuple[ShareLink, Character]:
    """The live link with this token and its character, as its sheet prints it. A revoked,
    unknown or malformed token, or an archived character, is the same plain 404."""
    link = (
        ShareLink.objects.filter(token=token, revoked_at__isnull=True)
        .only("id", "character_id", "frame_origins")
        .first()
        if 16 <= len(token) <= 64
        else None
    )
    if link is None:
        raise Http404("No such page")
    character = (
        Character.objects.select_related("campaign__gm", "owner")
        .prefetch_related(*SHEET_ROWS)
        .filter(pk=link.character_id)
        .first()
    )
    if character is None:
        raise Http404("No such page")
    return link, character


def live_share_link(character: Character) -> ShareLink | None:
    return character.share_links.filter(revoked_at__isnull=True).first()
