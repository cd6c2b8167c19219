"""Telling a player what the GM did: a row they see in the header until they read it, and an
e-mail when they gave an address. Django's e-mail backend sends it (the console's unless the
deployment configures SMTP: README, "E-mail")."""

import logging
from functools import partial

from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from characters.models import Character, Notification

logger = logging.getLogger(__name__)


def notify(*, character: Character, actor, kind: str, message: str) -> Notification | None:
    """Tell the character's player, unless they did it themselves (a GM's own character).
    The e-mail goes once the write commits: a refused write sends nothing."""
    owner = character.owner
    if owner.pk == actor.pk:
        return None
    limit = Notification._meta.get_field("message").max_length
    if len(message) > limit:  # a long name or reason: the page it links to has it all
        message = message[: limit - 1] + "…"
    note = Notification.objects.create(user=owner, character=character, kind=kind, message=message)
    if owner.email:
        transaction.on_commit(partial(_mail, owner.email, message, character.pk))
    return note


def _mail(address: str, message: str, character_pk: int) -> None:
    path = reverse("character_builder", args=[character_pk])
    mail = EmailMessage(
        subject=f"Fairsheet: {message}",
        body=f"{message}\n\nOpen the character: {path}",
        to=[address],
    )
    try:
        mail.send()
    except OSError:  # smtplib's errors are OSErrors
        # A mail server that is down must not fail the GM's decision, already saved: the
        # notification row is there either way.
        logger.warning("A notification e-mail to %s was not sent", address, exc_info=True)


@transaction.atomic
def notifications_mark_read(*, user) -> int:
    """Every unread notification of `user`, read now; returns how many."""
    return user.notifications.filter(read_at__isnull=True).update(read_at=timezone.now())


@transaction.atomic
def notification_email_set(*, user, email: str) -> None:
    """Where the player's notifications are e-mailed; "" for nowhere."""
    user.email = email
    user.save(update_fields=["email"])
