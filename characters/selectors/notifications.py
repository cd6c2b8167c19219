"""Reads of a player's notifications: the header's unread count and the list."""

from functools import partial

from characters.models import Notification
from characters.recorded import said_recorded

SHOWN = 50  # the list keeps the newest; older ones stay in the database, read


def notifications_for(user) -> list[Notification]:
    """The newest notifications, each with its message said in the active language."""
    # The page links by character_id, and says how its mail is doing.
    notes = list(user.notifications.select_related("mail")[:SHOWN])
    for note in notes:
        note.said = notification_said(note)
    return notes


def fit(message: str) -> str:
    """A message cut to what a notification keeps: the page it links to has it all."""
    limit = Notification._meta.get_field("message").max_length
    return message if len(message) <= limit else message[: limit - 1] + "…"


def notification_said(note: Notification) -> str:
    """A notification's message in the active language: its phrase when it kept one, else as
    it was said when it was sent."""
    return fit(said_recorded(note.message, note.message_phrase))


def unread_count(user) -> int:
    return user.notifications.filter(read_at__isnull=True).count()


def header_notifications(request) -> dict:
    """A context processor: the header's unread count, counted only when a page renders the
    header (a callable in the context), so an htmx fragment costs no query for it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": partial(unread_count, user)}
