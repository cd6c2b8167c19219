"""Reads for interoperability: a user's API tokens, and where an exported character stands
(its version, state and the GM's approval stamp) for a Foundry actor's notes and flags."""

from django.shortcuts import get_object_or_404

from characters.models import ApiToken, Character
from rules.foundry import Provenance


def api_tokens_of(user):
    return ApiToken.objects.filter(user=user)


def api_token_for_owner(user, pk) -> ApiToken:
    """The user's own token; anyone else's is a 404."""
    return get_object_or_404(api_tokens_of(user), pk=pk)


def character_provenance(character: Character) -> Provenance:
    approval = character.approvals.select_related("approved_by").first()  # the latest
    stamp = {}
    if approval is not None:
        stamp = {
            "approved_version": approval.version,
            "sha256": approval.sha256,
            "approved_by": approval.approved_by.get_username(),
            "approved_on": approval.created_at.date().isoformat(),
        }
    return Provenance(
        character_id=character.pk,
        version=character.version,
        state=character.get_state_display(),
        **stamp,
    )
