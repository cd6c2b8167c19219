"""Reads of a person's own settings (their Profile)."""

from characters.models import Profile


def account_language(user) -> str:
    """The language `user` chose for the pages; "" for their browser's."""
    found = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    return found or ""
