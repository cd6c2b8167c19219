"""Writes of a person's own settings (their Profile)."""

from django.db import transaction

from characters.errors import ServiceError
from characters.languages import supported
from characters.models import Profile


@transaction.atomic
def account_language_set(*, user, language: str) -> Profile:
    """The language `user` reads the pages in, wherever they log in."""
    if not supported(language):
        raise ServiceError(f"{language!r} is not a language Fairsheet has.", field="language")
    profile, _ = Profile.objects.update_or_create(user=user, defaults={"language": language})
    return profile
