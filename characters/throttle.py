"""Limits on guessing: failed logins (per username and per address), invite-code guesses and
sign-ups (README, "Throttling"). Each is a count of attempts in a window that opens with the
first one; at the limit, further attempts get a 429 saying when to try again, until the
window closes. The counts live in Django's cache, which config/settings.py keeps in the
database, so every app server sees the same count.
"""

import hashlib
import math
import time
from dataclasses import dataclass
from datetime import UTC, datetime

from django.conf import settings
from django.contrib import messages
from django.core.cache import cache

clock = time.time  # seconds; the tests move it on


@dataclass(frozen=True)
class Throttle:
    name: str
    limit: int  # attempts allowed in a window
    window: int  # seconds
    what: str  # what is being counted, for the message

    def _key(self, who: str) -> str:
        return f"throttle:{self.name}:{hashlib.sha256(who.encode()).hexdigest()}"

    def wait(self, who: str) -> int:
        """Seconds until `who` may try again; 0 when they may now."""
        count, reopens = cache.get(self._key(who), (0, 0))
        now = clock()
        return math.ceil(reopens - now) if count >= self.limit and reopens > now else 0

    def hit(self, who: str) -> None:
        """Count one attempt by `who`."""
        key, now = self._key(who), clock()
        count, reopens = cache.get(key, (0, 0))
        if reopens <= now:  # the last window is over: a new one opens
            count, reopens = 0, now + self.window
        cache.set(key, (count + 1, reopens), timeout=math.ceil(reopens - now))


FIFTEEN_MINUTES = 15 * 60
LOGIN_BY_USERNAME = Throttle("login-username", 10, FIFTEEN_MINUTES, "failed logins to this account")
LOGIN_BY_ADDRESS = Throttle("login-address", 10, FIFTEEN_MINUTES, "failed logins from your address")
JOIN_BY_USER = Throttle("join-user", 10, FIFTEEN_MINUTES, "invite codes that did not work")
JOIN_BY_ADDRESS = Throttle("join-address", 10, FIFTEEN_MINUTES, "invite codes from your address")
SIGNUP_BY_ADDRESS = Throttle("signup-address", 10, FIFTEEN_MINUTES, "sign-ups from your address")


def client_address(request) -> str:
    """The client's address: REMOTE_ADDR, or behind a proxy the header it sets
    (DJANGO_CLIENT_IP_HEADER, e.g. HTTP_X_FORWARDED_FOR: its last entry, the one the
    proxy added, is the only one a client cannot forge)."""
    value = request.META.get(settings.CLIENT_IP_HEADER) or request.META.get("REMOTE_ADDR", "")
    return value.split(",")[-1].strip()


def wait_for(checks) -> tuple[int, Throttle | None]:
    """The longest wait among (throttle, who) pairs, and the throttle imposing it."""
    waits = [(throttle.wait(who), throttle) for throttle, who in checks]
    return max(waits, key=lambda pair: pair[0], default=(0, None))


def too_many(request, seconds: int, throttle: Throttle, render):
    """The page `render()` makes, as a 429 saying when to try again (and Retry-After)."""
    minutes = math.ceil(seconds / 60)
    at = datetime.fromtimestamp(clock() + seconds, UTC).strftime("%H:%M UTC")
    messages.error(
        request,
        f"Too many {throttle.what} ({throttle.limit} in {throttle.window // 60} minutes). "
        f"Try again in {minutes} minute{'s' if minutes != 1 else ''}, at {at}.",
    )
    response = render()
    response.status_code = 429
    response["Retry-After"] = str(seconds)
    return response
