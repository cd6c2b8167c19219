"""API tokens (docs/api.md): a random secret shown once to its owner and stored only as its
SHA-256, revoked by the owner; each use records when."""

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from characters.models import ApiToken

TOKEN_START = "fs_"  # tells a Fairsheet token apart in a script's configuration
PREFIX_LENGTH = len(TOKEN_START) + 8  # what the account page shows of each token
MAX_TOKEN_LENGTH = 100  # a real token is 46 characters; anything longer is not one


def token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


@transaction.atomic
def api_token_create(*, user, name: str) -> tuple[ApiToken, str]:
    """A new token for `user`: the row, and the token itself, which is not kept anywhere."""
    raw = TOKEN_START + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        name=name.strip()[:100] or gettext("API token"),
        prefix=raw[:PREFIX_LENGTH],
        digest=token_digest(raw),
    )
    return token, raw


@transaction.atomic
def api_token_revoke(*, token: ApiToken) -> ApiToken:
    """Revoke the token (again is harmless): it authenticates nothing from now on."""
    ApiToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())
    token.refresh_from_db()
    return token


@transaction.atomic
def api_token_authenticate(*, raw: str) -> ApiToken | None:
    """The active token of an active user that `raw` is, with this use recorded; None for a
    wrong or revoked token."""
    if not raw.startswith(TOKEN_START) or len(raw) > MAX_TOKEN_LENGTH:
        return None
    token = (
        ApiToken.objects.select_related("user")
        .filter(digest=token_digest(raw), revoked_at__isnull=True, user__is_active=True)
        .first()
    )
    if token is not None:
        token.last_used_at = timezone.now()
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=token.last_used_at)
    return token
