"""Limits on guessing: failed logins (per username and per address), invite-code guesses and
sign-ups (README, "Throttling"), and requests per API token. Each is a count of attempts in a
window that opens with the first one; at the limit, further attempts get a 429 saying when to
try again, until the window closes.

An attempt is counted before it is checked, in one statement that raises the count and
reads it (ThrottleCount, in the database every app server shares): of 40 parallel guesses
only the limit's worth go on to be checked. An attempt that turns out no failure (a right
password, a good invite code) gives its count back when it is done.
"""

import hashlib
import math
import random
import time
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime

from django.conf import settings
from django.contrib import messages
from django.db import connection
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from characters.models import ThrottleCount

clock = time.time  # seconds; the tests move it on

_TABLE = ThrottleCount._meta.db_table
# Raise the count, or start a new window when the last one is over, and read the result:
# one statement, so no two requests see the same count (PostgreSQL and SQLite alike).
_TAKE = f"""
INSERT INTO {_TABLE} (key, count, reopens) VALUES (%s, 1, %s)
ON CONFLICT (key) DO UPDATE SET
  count = CASE WHEN {_TABLE}.reopens <= %s THEN 1 ELSE {_TABLE}.count + 1 END,
  reopens = CASE WHEN {_TABLE}.reopens <= %s THEN excluded.reopens ELSE {_TABLE}.reopens END
RETURNING count, reopens
"""
_GIVE_BACK = f"UPDATE {_TABLE} SET count = count - 1 WHERE key = %s AND count > 0"


@dataclass(frozen=True)
class Throttle:
    name: str
    limit: int  # attempts allowed in a window
    window: int  # seconds
    what: str  # what is being counted, for the message

    def _key(self, who: str) -> str:
        return f"{self.name}:{hashlib.sha256(who.encode()).hexdigest()}"

    def wait(self, who: str) -> int:
        """Seconds until `who` may try again; 0 when they may now."""
        row = ThrottleCount.objects.filter(key=self._key(who)).values_list("count", "reopens")
        count, reopens = row.first() or (0, 0)
        now = clock()
        return math.ceil(reopens - now) if count >= self.limit and reopens > now else 0

    def take(self, who: str) -> int:
        """Count one attempt by `who`; the seconds to wait when it is past the limit (the
        attempt must not go ahead), else 0."""
        now = clock()
        with connection.cursor() as cursor:
            cursor.execute(_TAKE, [self._key(who), now + self.window, now, now])
            count, reopens = cursor.fetchone()
        if random.random() < 0.01:  # now and then, forget the windows long closed
            ThrottleCount.objects.filter(reopens__lt=now - self.window).delete()
        return max(math.ceil(reopens - now), 1) if count > self.limit else 0

    def give_back(self, who: str) -> None:
        with connection.cursor() as cursor:
            cursor.execute(_GIVE_BACK, [self._key(who)])


@dataclass
class Attempt:
    """What `attempt` yields: `wait` and `throttle` when it is refused; `keep()` when it
    turned out a failure (or is counted whatever its outcome)."""

    checks: list
    wait: int = 0
    throttle: Throttle | None = None
    kept: bool = field(default=False)

    def keep(self) -> None:
        self.kept = True


@contextmanager
def attempt(checks):
    """Counts an attempt against every (throttle, who) of `checks` before it is made; gives
    the counts back at the end unless `keep()` was called. A refused attempt (past a limit)
    gives them back too: only attempts that went ahead are counted."""
    checks = list(checks)
    current = Attempt(checks)
    taken = []
    try:
        for throttle, who in checks:
            taken.append((throttle, who))
            wait = throttle.take(who)
            if wait > current.wait:
                current.wait, current.throttle = wait, throttle
        yield current
    finally:
        if not current.kept or current.wait:
            for throttle, who in taken:
                throttle.give_back(who)


def username_key(username: str) -> str:
    """A username as authentication reads it (Django's UsernameField: NFKC, so player2 in
    full-width letters, U+FF50 on, logs in as player2), without case: the account a login
    counts against."""
    return unicodedata.normalize("NFKC", username).strip().casefold()


FIFTEEN_MINUTES = 15 * 60
LOGIN_BY_USERNAME = Throttle(
    "login-username", 10, FIFTEEN_MINUTES, _("failed logins to this account")
)
LOGIN_BY_ADDRESS = Throttle(
    "login-address", 10, FIFTEEN_MINUTES, _("failed logins from your address")
)
JOIN_BY_USER = Throttle("join-user", 10, FIFTEEN_MINUTES, _("invite codes that did not work"))
JOIN_BY_ADDRESS = Throttle("join-address", 10, FIFTEEN_MINUTES, _("invite codes from your address"))
SIGNUP_BY_ADDRESS = Throttle("signup-address", 10, FIFTEEN_MINUTES, _("sign-ups from your address"))


def client_address(request) -> str:
    """The client's address: REMOTE_ADDR, or behind a proxy the header it sets
    (DJANGO_CLIENT_IP_HEADER, e.g. HTTP_X_FORWARDED_FOR: its last entry, the one the
    proxy added, is the only one a client cannot forge)."""
    value = request.META.get(settings.CLIENT_IP_HEADER) or request.META.get("REMOTE_ADDR", "")
    return value.split(",")[-1].strip()


def too_many(request, seconds: int, throttle: Throttle, render):
    """The page `render()` makes, as a 429 saying when to try again (and Retry-After)."""
    minutes = math.ceil(seconds / 60)
    at = datetime.fromtimestamp(clock() + seconds, UTC).strftime("%H:%M UTC")
    messages.error(
        request,
        ngettext(
            "Too many {what} ({limit} in {window} minutes). Try again in {minutes} minute, "
            "at {at}.",
            "Too many {what} ({limit} in {window} minutes). Try again in {minutes} minutes, "
            "at {at}.",
            minutes,
        ).format(
            what=throttle.what,
            limit=throttle.limit,
            window=throttle.window // 60,
            minutes=minutes,
            at=at,
        ),
    )
    response = render()
    response.status_code = 429
    response["Retry-After"] = str(seconds)
    return response
