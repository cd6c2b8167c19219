"""Threads between a campaign's GM and a character's player (issue 26): on the whole build,
a trait or a piece of equipment. The GM starts one (from the review page, or with a review's
comments, services.review); either side answers, marks it resolved or reopens it. Nobody
else reads or writes one.

Each write locks the character's row (one writer at a time on its hash-chained trail),
records its event there, the message in full, and tells the other side. A thread changes
nothing of the build: the character's version stays, so the builder's forms stay current."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from characters.errors import NotAllowed, ServiceError
from characters.models import (
    THREAD_MESSAGE_MAX,
    Character,
    CommentThread,
    Equipment,
    Notification,
    ThreadMessage,
    Trait,
)
from characters.selectors.access import is_gm_of
from characters.selectors.threads import thread_row, thread_target
from characters.services.audit import lock_character, record_event
from characters.services.notifications import notify, one_line
from rules.words import Name, say

EXCERPT = 120  # of a message, in its notification


@transaction.atomic
def comment_thread_start(
    *, character: Character, actor, body: str, about: Trait | Equipment | None = None
) -> CommentThread:
    """The GM's new thread with the character's player, on `about` (one of the character's
    traits or pieces of equipment) or, without it, on the whole build."""
    locked = lock_character(character=character, expected_version=None)
    if not is_gm_of(locked, actor):
        raise NotAllowed(_("Only the campaign's GM starts a thread on a character."))
    if about is not None and about.character_id != locked.pk:
        raise ServiceError(
            _("{row} is not one of {name}'s.").format(row=about.name, name=locked.name),
            field="about",
        )
    body = _cleaned(body)
    thread = open_thread(locked, actor=actor, about=about, body=body)
    _record_and_tell(
        locked,
        actor,
        action="thread_started",
        target=thread.target,
        after={"thread": thread.pk, "message": body},
        kind=Notification.Kind.MESSAGE,
        message=say(
            "{actor} started a thread on {about}: “{excerpt}”",
            actor=actor.username,
            about=_about(locked, thread),
            excerpt=_excerpt(body),
        ),
        to=locked.owner,
    )
    return thread


def open_thread(locked: Character, *, actor, about, body: str) -> CommentThread:
    """A thread and its first message, on the locked character; the caller records the
    event (a review's comment is recorded as one)."""
    thread = CommentThread.objects.create(
        character=locked,
        target=thread_target(about),
        row_pk=about.pk if about is not None else None,
        started_by=actor,
    )
    ThreadMessage.objects.create(thread=thread, author=actor, body=body, version=locked.version)
    return thread


@transaction.atomic
def comment_reply(*, thread: CommentThread, actor, body: str) -> ThreadMessage:
    """A message from the GM or the player on an open thread; the other side is told."""
    locked, thread, other = _lock_thread(thread, actor)
    if thread.is_resolved:
        raise ServiceError(
            _("This thread is resolved, so nothing was sent: reopen it to answer."), field="body"
        )
    body = _cleaned(body)
    message = ThreadMessage.objects.create(
        thread=thread, author=actor, body=body, version=locked.version
    )
    _record_and_tell(
        locked,
        actor,
        action="reply_added",
        target=_target_now(locked, thread),
        after={"thread": thread.pk, "message": body},
        kind=Notification.Kind.MESSAGE,
        message=say(
            "{actor} answered on {about}: “{excerpt}”",
            actor=actor.username,
            about=_about(locked, thread),
            excerpt=_excerpt(body),
        ),
        to=other,
    )
    return message


@transaction.atomic
def comment_thread_resolve(*, thread: CommentThread, actor, resolved: bool = True) -> CommentThread:
    """Mark the thread resolved (or, with `resolved=False`, open it again); either side may."""
    locked, thread, other = _lock_thread(thread, actor)
    if resolved == thread.is_resolved:
        if resolved:
            raise ServiceError(
                _("{name} marked this thread resolved already: nothing changed.").format(
                    name=thread.resolved_by.username
                )
            )
        raise ServiceError(_("This thread is open already: nothing changed."))
    thread.resolved_at = timezone.now() if resolved else None
    thread.resolved_by = actor if resolved else None
    thread.save(update_fields=["resolved_at", "resolved_by"])
    about = _about(locked, thread)
    _record_and_tell(
        locked,
        actor,
        action="thread_resolved" if resolved else "thread_reopened",
        target=_target_now(locked, thread),
        after={"thread": thread.pk},
        kind=Notification.Kind.THREAD_RESOLVED if resolved else Notification.Kind.THREAD_REOPENED,
        message=say(
            "{actor} marked the thread on {about} resolved.", actor=actor.username, about=about
        )
        if resolved
        else say("{actor} reopened the thread on {about}.", actor=actor.username, about=about),
        to=other,
    )
    return thread


# -- the parts -----------------------------------------------------------------------------------


def _record_and_tell(locked: Character, actor, *, action, target, after, kind, message, to):
    """Every thread write's two traces: its event on the character's trail and the news
    for the other side (`to`)."""
    record_event(character=locked, actor=actor, action=action, target=target, after=after)
    notify(character=locked, actor=actor, kind=kind, message=message, to=to)


def _lock_thread(thread: CommentThread, actor):
    """The thread's character locked, the thread as it stands under that lock, and the side
    that is told of the write: the GM for the player, the player for the GM."""
    locked = lock_character(character=thread.character, expected_version=None)
    thread = CommentThread.objects.select_related("resolved_by").get(pk=thread.pk)
    if actor.pk == locked.owner_id:
        other = locked.campaign.gm if locked.campaign_id is not None else None
    elif is_gm_of(locked, actor):
        other = locked.owner
    else:
        raise NotAllowed(
            _("Only the character's player and the campaign's GM write in its threads.")
        )
    if other is None:
        raise ServiceError(
            _(
                "{name} is in no campaign now, so there is no GM to answer: nothing was sent."
            ).format(name=locked.name)
        )
    return locked, thread, other


def _cleaned(body: str) -> str:
    body = (body or "").strip()
    if not body:
        raise ServiceError(_("Write a message first: nothing was sent."), field="body")
    if len(body) > THREAD_MESSAGE_MAX:
        raise ServiceError(
            _(
                "A message is at most {most} characters (this one has {count}): nothing was sent."
            ).format(most=THREAD_MESSAGE_MAX, count=len(body)),
            field="body",
        )
    return body


def _target_now(locked: Character, thread: CommentThread) -> str:
    """What the thread is about as the character's rows name it now (a renamed trait by its
    new name), else as it was named when it started."""
    row = thread_row(locked, thread)
    return thread.target if row is None else thread_target(row)


def _about(locked: Character, thread: CommentThread):
    """What a notification says the thread is on: "Brogo's Climbing", "Brogo's build"; a
    phrase, said in the reader's language with the rest of the notification."""
    if not thread.target:
        return say("{name}'s build", name=locked.name)
    row = thread_row(locked, thread)
    return say(
        "{name}'s {row}",
        name=locked.name,
        row=Name(row.name if row is not None else thread.target.partition(":")[2]),
    )


def _excerpt(body: str) -> str:
    line = one_line(body)
    return line if len(line) <= EXCERPT else line[: EXCERPT - 1] + "…"
