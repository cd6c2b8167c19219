"""Telling a player what the GM did, and either side of a thread what the other said: a
row they see in the header until they read it, and an e-mail when they gave an address. The
e-mail is queued with the write, in its transaction, and sent by the background worker
(the task send_notification_mail, on the queue the campaign packs use): a mail server
that is slow or down never holds up or fails a GM's decision. Django's e-mail backend sends
it (the console's unless the deployment configures SMTP: README, "E-mail")."""

import logging

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db import transaction
from django.tasks import task
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from characters.errors import ServiceError
from characters.models import Character, Notification
from characters.selectors.accounts import account_language

logger = logging.getLogger(__name__)


def notify(*, character: Character, actor, kind: str, message, to=None) -> Notification | None:
    """Tell the character's player (or `to`, the GM when a thread's news is the player's),
    unless they did it themselves (a GM's own character). The e-mail is queued in the same
    transaction: a refused write sends nothing. `message` may be lazy (format_lazy of a
    gettext_lazy template): it is said, and kept, in the reader's language (their
    account's), whoever's request made it."""
    reader = to or character.owner
    if reader.pk == actor.pk:
        return None
    language = account_language(reader) or settings.LANGUAGE_CODE
    with translation.override(language):
        message = str(message)
    limit = Notification._meta.get_field("message").max_length
    if len(message) > limit:  # a long name or reason: the page it links to has it all
        message = message[: limit - 1] + "…"
    note = Notification.objects.create(user=reader, character=character, kind=kind, message=message)
    if reader.email:
        send_notification_mail.enqueue(reader.email, message, character.pk, language)
    return note


def one_line(text: str) -> str:
    """`text` with every line break (\\n, \\r, U+2028, U+2029, ...) and run of spaces made
    one space: a mail header built from user text stays one header."""
    return " ".join(text.split())


def notification_mail_send(
    *, address: str, message: str, character_pk: int, language: str = ""
) -> bool:
    """The e-mail of one notification, sent now (by the worker), in the player's `language`;
    False when it could not be. An address that is no address (stored before addresses were
    checked) is skipped."""
    try:
        validate_email(address)
    except ValidationError:
        logger.warning("A notification e-mail was not sent: %r is no address", address)
        return False
    path = reverse("character_builder", args=[character_pk])
    with translation.override(language or settings.LANGUAGE_CODE):
        body = _("{message}\n\nOpen the character: {path}").format(message=message, path=path)
        subject = _("Fairsheet: {message}").format(message=one_line(message))
    mail = EmailMessage(subject=subject, body=body, to=[address])
    try:
        mail.send()
    except OSError:  # smtplib's errors, and a timeout, are OSErrors
        logger.warning("A notification e-mail to %s was not sent", address, exc_info=True)
        return False
    return True


@task()
def send_notification_mail(
    address: str, message: str, character_pk: int, language: str = ""
) -> None:
    """notification_mail_send, as the background worker's task (`manage.py db_worker`)."""
    notification_mail_send(
        address=address, message=message, character_pk=character_pk, language=language
    )


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
            raise ServiceError(
                _("{address} is not an e-mail address.").format(address=repr(email)),
                field="email",
            ) from None
    user.email = email
    user.save(update_fields=["email"])
