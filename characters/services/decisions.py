"""A decision happens once, and only from a form the server drew. Every decision form (the
kinds of DecisionToken.Kind) carries a token issued with it (`decision_token_issue`, from
the template tag `{% decision_token %}`): a row naming its user and the decision it is for.
The decision marks it used in its own transaction (`decision_once`), so the same post sent
again (a double click, a retry after a timeout, two tabs sending one form, in parallel)
finds it used and changes nothing; a post without a token, with one the server never
issued, another user's, or one issued for another decision does nothing either. A refused
decision rolls its token back with it: the form can be sent again."""

import re
import secrets
import time
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from characters.errors import DecisionRefused
from characters.models import DecisionToken

TOKEN_LIFETIME = timedelta(days=1)  # a form left open longer is reloaded to decide
PRUNE_EVERY = timedelta(minutes=5)  # a process deletes the expired tokens at most this often
TOKEN_BYTES = 32  # 43 characters once URL-safe
_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")  # what a posted token looks like before it is looked up


def decision_token_issue(*, user, kind: str, target: int) -> str:
    """A new token for `user`'s form deciding `kind` on the row `target`."""
    issued = DecisionToken.objects.create(
        token=secrets.token_urlsafe(TOKEN_BYTES),
        user=user,
        kind=DecisionToken.Kind(kind),
        target=target,
    )
    return issued.token


_pruned_at: float | None = None  # time.monotonic() of this process's last prune


def decision_tokens_prune() -> None:
    """Delete the tokens older than TOKEN_LIFETIME, used or not, unless this process did
    less than PRUNE_EVERY ago. Run before a page issues its first token
    (templatetags.decisions): a process that issues tokens prunes at least every
    PRUNE_EVERY while it does, so the table holds about a day of forms drawn, and a day and
    PRUNE_EVERY's at most; the pages in between cost no statement for it (the delete, on
    the issued_at index, finds none almost every time, but is three round trips with its
    transaction). Several processes each prune on their own clock: the same bound."""
    global _pruned_at
    now = time.monotonic()
    if _pruned_at is not None and now - _pruned_at < PRUNE_EVERY.total_seconds():
        return
    _pruned_at = now
    DecisionToken.objects.filter(issued_at__lt=timezone.now() - TOKEN_LIFETIME).delete()


@transaction.atomic
def decision_once(*, actor, token: str, kind: str, target: int, decide):
    """`decide()` in the transaction that uses `token`, if it is `actor`'s, for this decision,
    unused and not expired; else DecisionRefused, saying which, and nothing is done. Two
    posts of one token at once: the second waits on the first's row lock, then finds it used
    (or unused again, if the first was refused and rolled back)."""
    now = timezone.now()
    posted = DecisionToken.objects.filter(token=token)
    if not _TOKEN.fullmatch(token):  # never looked up: not one of ours, whatever it holds
        posted = posted.none()
    used = posted.filter(
        user=actor, kind=kind, target=target, used_at=None, issued_at__gte=now - TOKEN_LIFETIME
    ).update(used_at=now)
    if not used:
        raise _why_refused(token, posted.first(), actor=actor, kind=kind, target=target)
    return decide()


def _why_refused(posted: str, issued, *, actor, kind, target) -> DecisionRefused:
    if not posted:
        return DecisionRefused(
            _(
                "This form came without its one-time token: nothing was done. Reload the page "
                "to make the decision."
            ),
            status=400,
        )
    if issued is None:  # made up, or expired and pruned since
        return DecisionRefused(
            _(
                "This form's one-time token is not one Fairsheet issued, or it expired: nothing "
                "was done. Reload the page to make the decision."
            ),
            status=400,
        )
    if issued.user_id != actor.pk:
        return DecisionRefused(
            _(
                "This form was opened by another account: nothing was done. Reload the page "
                "to make the decision as yourself."
            ),
            status=400,
        )
    if (issued.kind, issued.target) != (kind, target):
        return DecisionRefused(
            _(
                "This form's one-time token is for another decision: nothing was done. Reload "
                "the page to make this one."
            ),
            status=400,
        )
    if issued.used_at is not None:
        return DecisionRefused(
            _(
                "This form was already sent: nothing was done again. Reload the page to make "
                "another decision."
            ),
            status=409,
        )
    return DecisionRefused(  # older than TOKEN_LIFETIME, not pruned yet
        _(
            "This form is more than a day old: nothing was done. Reload the page to make the "
            "decision."
        ),
        status=409,
    )
