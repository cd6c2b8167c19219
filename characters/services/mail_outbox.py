"""The outbox: every e-mail is a row (OutgoingMail), written in the transaction of what it
tells of, and sent later by `manage.py send_mail_outbox`, never in a request.

A sender claims one due row at a time (SELECT ... FOR UPDATE SKIP LOCKED, so any number of
senders share the outbox) and holds it for a lease while it talks to the mail server,
outside any transaction. A send that fails (a timeout, a refusal, the server down: smtplib's
errors are OSErrors) puts the row back with a later time to try, twice as long each time;
after MAIL_ATTEMPTS tries or MAIL_GIVE_UP_SECONDS it is given up, with the reason. A sender
killed mid-send leaves its row SENDING: once its lease is over, another sender claims it, so
the mail goes out once the server answers again."""

import logging
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from characters.models import OutgoingMail

logger = logging.getLogger(__name__)
ERROR_LENGTH = OutgoingMail._meta.get_field("last_error").max_length


def mail_queue(*, address: str, subject: str, body: str, language: str) -> OutgoingMail:
    """A mail, due now; in the caller's transaction, so a refused write queues nothing."""
    return OutgoingMail.objects.create(
        address=address, subject=subject, body=body, language=language
    )


def mail_lease() -> timedelta:
    return timedelta(seconds=settings.MAIL_LEASE_SECONDS)


def mail_retry_wait(attempts: int) -> timedelta:
    """The wait after the `attempts`-th failed try: MAIL_RETRY_SECONDS, doubled for each
    try before, at most MAIL_RETRY_MOST_SECONDS."""
    seconds = settings.MAIL_RETRY_SECONDS * 2 ** min(attempts - 1, 30)
    return timedelta(seconds=min(seconds, settings.MAIL_RETRY_MOST_SECONDS))


def _due(now):
    """Queued rows whose time has come, and rows whose sender's lease ran out."""
    return OutgoingMail.objects.filter(
        status__in=(OutgoingMail.Status.QUEUED, OutgoingMail.Status.SENDING),
        next_attempt_at__lte=now,
    ).filter(Q(status=OutgoingMail.Status.QUEUED) | Q(lease_until__lt=now))


@transaction.atomic
def mail_claim() -> OutgoingMail | None:
    """The oldest due mail, now this sender's until its lease ends; None when none is due
    (or every due one is being claimed by another sender this instant)."""
    now = timezone.now()
    mail = _due(now).select_for_update(skip_locked=True).order_by("next_attempt_at", "pk").first()
    if mail is None:
        return None
    # Only as it was read: SQLite locks no row, and another sender may have claimed it since.
    claimed = OutgoingMail.objects.filter(pk=mail.pk, attempts=mail.attempts).update(
        status=OutgoingMail.Status.SENDING,
        attempts=F("attempts") + 1,
        lease_until=now + mail_lease(),
    )
    if not claimed:
        return None
    mail.refresh_from_db()
    return mail


def mail_send(mail: OutgoingMail) -> str:
    """Sends a claimed mail and records how it went: the status it is left in. An address
    that is no address (stored before addresses were checked) is given up at once, and so
    is a mail whose senders kept stopping while they sent it (it crashed them, or they were
    killed): its claims used up every try."""
    if mail.attempts > settings.MAIL_ATTEMPTS:
        logger.warning(
            "A notification e-mail to %s was given up: its senders stopped", mail.address
        )
        return _settle(mail, OutgoingMail.Status.GIVEN_UP, error=OutgoingMail.SENDERS_STOPPED)
    try:
        validate_email(mail.address)
    except ValidationError:
        logger.warning("A notification e-mail was not sent: %r is no address", mail.address)
        return _settle(mail, OutgoingMail.Status.GIVEN_UP, error=OutgoingMail.NOT_AN_ADDRESS)
    message = EmailMessage(subject=mail.subject, body=mail.body, to=[mail.address])
    try:
        message.send()
    except Exception as error:
        # smtplib's errors, a refused connection and a timeout are OSErrors. Anything else is
        # a bug, logged with its traceback: it fails this try, not the sender.
        reason = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
        logger.warning(
            "A notification e-mail to %s was not sent (try %s): %s",
            mail.address,
            mail.attempts,
            reason,
            exc_info=not isinstance(error, OSError),
        )
        given_up = mail.attempts >= settings.MAIL_ATTEMPTS or timezone.now() - mail.created_at >= (
            timedelta(seconds=settings.MAIL_GIVE_UP_SECONDS)
        )
        if given_up:
            return _settle(mail, OutgoingMail.Status.GIVEN_UP, error=reason)
        return _settle(mail, OutgoingMail.Status.QUEUED, error=reason)
    return _settle(mail, OutgoingMail.Status.SENT)


def _settle(mail: OutgoingMail, status: str, *, error: str = "") -> str:
    """Records the try, unless another sender claimed the row since (this one outlived its
    lease): the row is theirs now."""
    now = timezone.now()
    fields = {"status": status, "lease_until": None, "last_error": error[:ERROR_LENGTH]}
    if status == OutgoingMail.Status.SENT:
        fields["sent_at"] = now
    elif status == OutgoingMail.Status.QUEUED:
        fields["next_attempt_at"] = now + mail_retry_wait(mail.attempts)
    OutgoingMail.objects.filter(
        pk=mail.pk, status=OutgoingMail.Status.SENDING, attempts=mail.attempts
    ).update(**fields)
    return status


def mail_outbox_send_due(*, stopping=lambda: False) -> int:
    """Sends every due mail, one by one, until none is due or `stopping()`; returns how
    many were tried."""
    tried = 0
    while not stopping():
        mail = mail_claim()
        if mail is None:
            break
        mail_send(mail)
        tried += 1
    return tried
