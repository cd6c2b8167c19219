"""Telling a player what the GM did, and either side of a thread what the other said: a
row they see in the header until they read it, and an e-mail when they gave an address. The
e-mail goes in the outbox with the write, in its transaction, and `manage.py
send_mail_outbox` sends it (services.mail_outbox): a mail server that is slow or down never
holds up or fails a GM's decision, and a failed send is tried again. Django's e-mail backend
sends it (the console's unless the deployment configures SMTP: README, "E-mail")."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from characters.errors import ServiceError
from characters.models import Character, Notification, OutgoingMail
from characters.selectors.accounts import account_language
from characters.selectors.notifications import fit, notification_said
from characters.services.mail_outbox import mail_queue
from characters.wording import said
from rules.recorded import phrase_data
from rules.words import Phrase


def notify(
    *, character: Character, actor, kind: str, message, to=None, mailed: bool = True
) -> Notification | None:
    """Tell the character's player (or `to`, the GM when a thread's news is the player's),
    unless they did it themselves (a GM's own character). The e-mail is queued in the same
    transaction: a refused write sends nothing; `mailed=False` leaves it to the caller, who
    tells of several notifications in one (notifications_mail). `message` may be lazy
    (format_lazy of a gettext_lazy template): it is said, and kept, in the reader's language
    (their account's), whoever's request made it. A Phrase (rules.words) is kept as well,
    and said again in whatever language its reader reads the list in."""
    reader = to or character.owner
    if reader.pk == actor.pk:
        return None
    language = account_language(reader) or settings.LANGUAGE_CODE
    phrase = phrase_data(message) if isinstance(message, Phrase) else None
    with translation.override(language):
        message = said(message)
    note = Notification.objects.create(
        user=reader,
        character=character,
        kind=kind,
        message=fit(message),
        message_phrase=phrase,
    )
    if mailed:
        notifications_mail([note], language=language)
    return note


def one_line(text: str) -> str:
    """`text` with every line break (\\n, \\r, U+2028, U+2029, ...) and run of spaces made
    one space: a mail header built from user text stays one header."""
    return " ".join(text.split())


def notifications_mail(notes: list[Notification], *, language: str = ""):
    """One mail telling their reader (one reader's `notes`) of them all, in the outbox, in
    the reader's language (`language`, when the caller has read it already); None when the
    reader gave no address. A party award tells a player of each of their characters in one
    mail."""
    reader = notes[0].user
    if not reader.email:
        return None
    language = language or account_language(reader) or settings.LANGUAGE_CODE
    with translation.override(language):
        body = "\n\n".join(
            _("{message}\n\nOpen the character: {path}").format(
                message=notification_said(note),
                path=reverse("character_builder", args=[note.character_id]),
            )
            for note in notes
        )
        subject = _("Fairsheet: {message}").format(message=one_line(notification_said(notes[0])))
        if len(notes) > 1:
            more = len(notes) - 1
            subject = ngettext(
                "{subject} (and {count} more)", "{subject} (and {count} more)", more
            ).format(subject=subject, count=more)
    limit = OutgoingMail._meta.get_field("subject").max_length
    mail = mail_queue(address=reader.email, subject=subject[:limit], body=body, language=language)
    Notification.objects.filter(pk__in=[note.pk for note in notes]).update(mail=mail)
    return mail


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
