"""Reads of a player's notifications: the header's unread count and the list."""

from functools import partial

from characters.models import Notification

SHOWN = 50  # the list keeps the newest; older ones stay in the database, read


def notifications_for(user) -> list[Notification]:
    # The page links by character_id, and says how its mail is doing.
    return list(user.notifications.select_related("mail")[:SHOWN])


def unread_count(user) -> int:
    return user.notifications.filter(read_at__isnull=True).count()


def header_notifications(request) -> dict:
    """A context processor: the header's unread count, counted only when a page renders the
    header (a callable in the context), so an htmx fragment costs no query for it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": partial(unread_count, user)}
