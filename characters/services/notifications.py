"""Telling a player what the GM did: a row they see in the header until they read it, and an
e-mail when they gave an address. The e-mail is queued with the decision, in its
transaction, and sent by the background worker (characters.tasks.send_notification_mail,
the queue the campaign packs use): a mail server that is slow or down never holds up or
fails a GM's decision. Django's e-mail backend sends it (the console's unless the
deployment configures SMTP: README, "E-mail")."""

import logging

from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from characters.errors import ServiceError
from characters.models import Character, Notification

logger = logging.getLogger(__name__)


def notify(*, character: Character, actor, kind: str, message: str) -> Notification | None:
    """Tell the character's player, unless they did it themselves (a GM's own character).
    The e-mail is queued in the same transaction: a refused write sends nothing."""
    from characters.tasks import send_notification_mail  # characters.tasks imports services

    owner = character.owner
    if owner.pk == actor.pk:
        return None
    limit = Notification._meta.get_field("message").max_length
    if len(message) > limit:  # a long name or reason: the page it links to has it all
        message = message[: limit - 1] + "…"
    note = Notification.objects.create(user=owner, character=character, kind=kind, message=message)
    if owner.email:
        send_notification_mail.enqueue(owner.email, message, character.pk)
    return note


def one_line(text: str) -> str:
    """`text` with every line break (\\n, \\r, U+2028, U+2029, ...) and run of spaces made
    one space: a mail header built from user text stays one header."""
    return " ".join(text.split())


def notification_mail_send(*, address: str, message: str, character_pk: int) -> bool:
    """The e-mail of one notification, sent now (by the worker); False when it could not be.
    An address that is no address (stored before addresses were checked) is skipped."""
    try:
        validate_email(address)
    except ValidationError:
        logger.warning("A notification e-mail was not sent: %r is no address", address)
        return False
    path = reverse("character_builder", args=[character_pk])
    mail = EmailMessage(
        subject=f"Fairsheet: {one_line(message)}",
        body=f"{message}\n\nOpen the character: {path}",
        to=[address],
    )
    try:
        mail.send()
    except OSError:  # smtplib's errors, and a timeout, are OSErrors
        logger.warning("A notification e-mail to %s was not sent", address, exc_info=True)
        return False
    return True


@transaction.atomic
def notifications_mark_read(*, user, pk: int | None = None) -> int:
    """Every unread notification of `user` (or only the one `pk` names), read now; returns
    how many."""
    unread = user.notifications.filter(read_at__isnull=True)
    if pk is not None:
        unread = unread.filter(pk=pk)
    return unread.update(read_at=timezone.now())


@transaction.atomic
def notification_email_set(*, user, email: str) -> None:
    """Where the player's notifications are e-mailed; "" for nowhere. An address is checked
    here too, whatever form sent it: a line break in one would reach a mail's header."""
    if email:
        try:
            validate_email(email)
        except ValidationError:
            raise ServiceError(f"{email!r} is not an e-mail address.", field="email") from None
    user.email = email
    user.save(update_fields=["email"])
