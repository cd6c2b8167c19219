"""The audit trails are hash chains (issue 31): each event carries the hash of the event before
it in its chain (`previous_hash`: a character's events, or a campaign's) and its own
(`record_hash`: SHA-256 over the previous hash and the event's recorded fields, canonical
JSON). An event edited behind the app no longer hashes to its `record_hash`; one deleted
leaves the next naming a hash no event has. `manage.py verify_audit` walks every chain.

A hash anyone can recompute: so each event also carries a MAC (`mac`, HMAC-SHA256 of the same
canonical text) made with the audit key (settings.AUDIT_KEY, `DJANGO_AUDIT_KEY`), which is
never in the database, and the id of that key (`key_id`), so keys can be rotated: the old
ones (`DJANGO_AUDIT_OLD_KEYS`) still verify what they signed. A role that may INSERT events,
or the owner who rewrites a chain, recomputes every hash but no MAC.

The canonical form is a contract with every hash already stored (migration 0016 computed
the ones before it): a field added to an event later must not join CHAINED_FIELDS, or
every old event would stop matching; it joins CHAINED_WHEN_SET, hashed when set.
"""

import functools
import hashlib
import hmac
import json
import re
from datetime import UTC

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

KEY_ID = re.compile(r"[A-Za-z0-9_.-]{1,20}")

# What each chain hashes of an event, by model name: who it belongs to, who did it, when,
# what, and what it recorded. Never the id (a restored dump may number rows anew).
CHAINED_FIELDS = {
    "characterevent": (
        "character_id",
        "actor_id",
        "created_at",
        "action",
        "target",
        "before",
        "after",
        "version",
        "reason",
        "build_sha256",
    ),
    "campaignevent": (
        "campaign_id",
        "actor_id",
        "created_at",
        "action",
        "target",
        "before",
        "after",
        "reason",
    ),
}


# Fields added later, hashed only on an event that has them set (issue 38): an event written
# before they existed keeps the canonical form, and so the hash and MAC, it was written with,
# while an event that has one cannot lose it, gain it or have it changed without its hash and
# MAC failing (the canonical form then names it). `phrases` says the event's reason and lines
# in any language, so it is signed like the English it says: a forged phrase would put words
# on a page that the record does not hold.
CHAINED_WHEN_SET = ("phrases",)


def _json_value(value):
    if hasattr(value, "astimezone"):  # a datetime: UTC, to the microsecond, as stored
        return value.astimezone(UTC).isoformat(timespec="microseconds")
    # What a JSON column gives back (a tuple comes back a list): the hash of an event as it
    # is written equals the hash of it as it is read.
    return json.loads(json.dumps(value))


def _canonical(event, previous: str) -> bytes:
    record = {
        name: _json_value(getattr(event, name)) for name in CHAINED_FIELDS[event._meta.model_name]
    }
    for name in CHAINED_WHEN_SET:
        # getattr: the historical models of the migrations that hashed and signed the
        # events first (0016, 0030) have no such field
        value = getattr(event, name, None)
        if value is not None:
            record[name] = _json_value(value)
    canonical = json.dumps(
        {"previous": previous, "event": record},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return canonical.encode()


def event_hash(event, previous: str) -> str:
    """The hash `event` (a CharacterEvent or CampaignEvent, saved or not) carries when the
    event before it in its chain has the hash `previous` ("" for the first)."""
    return hashlib.sha256(_canonical(event, previous)).hexdigest()


def audit_keys() -> tuple[str, dict[str, bytes]]:
    """The id of the key new events are signed with, and every key by id (the current one
    and DJANGO_AUDIT_OLD_KEYS), from "id:secret" settings."""
    return _parsed_keys(settings.AUDIT_KEY, tuple(settings.AUDIT_OLD_KEYS))


@functools.cache
def _parsed_keys(current: str, old: tuple[str, ...]) -> tuple[str, dict[str, bytes]]:
    # Parsed once per setting: every event's MAC check asks (a sheet checks its whole
    # trail), and a test that overrides the settings gets its own entry.
    keys = {}
    for text in (current, *old):
        key_id, _, secret = text.partition(":")
        if not KEY_ID.fullmatch(key_id) or len(secret) < 16:
            raise ImproperlyConfigured(
                "DJANGO_AUDIT_KEY and DJANGO_AUDIT_OLD_KEYS take id:secret, the id of up to "
                "20 letters, digits, '.', '_' or '-', the secret of 16 characters or more."
            )
        keys.setdefault(key_id, secret.encode())
    return current.partition(":")[0], keys


def keyed(key: bytes, message: str | bytes) -> str:
    """HMAC-SHA256 of `message` with `key`, in hex."""
    message = message.encode() if isinstance(message, str) else message
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def mac_problem(event) -> str:
    """Why `event`'s MAC does not hold, in words; "" when it does."""
    _, keys = audit_keys()
    if not event.mac:
        return "it carries no MAC: it was written without the audit key"
    key = keys.get(event.key_id)
    if key is None:
        return (
            f"it is signed with the key {event.key_id!r}, which this server does not hold "
            "(DJANGO_AUDIT_KEY, DJANGO_AUDIT_OLD_KEYS)"
        )
    if not hmac.compare_digest(event.mac, keyed(key, _canonical(event, event.previous_hash))):
        return (
            f"its MAC does not verify with the key {event.key_id!r}: it was written or "
            "changed without the audit key"
        )
    return ""


def mac_holds(event) -> bool:
    return not mac_problem(event)


def chain_key(event) -> int:
    """Whose chain an event belongs to: its character's or its campaign's id."""
    return event.character_id if event._meta.model_name == "characterevent" else event.campaign_id


def link(event, previous: str) -> None:
    """Set an unsaved event's place in its chain, after the event whose hash is `previous`."""
    event.previous_hash = previous
    event.record_hash = event_hash(event, previous)
    sign(event)


def sign(event) -> None:
    """Give a linked event its MAC, with the current audit key."""
    key_id, keys = audit_keys()
    event.key_id = key_id
    event.mac = keyed(keys[key_id], _canonical(event, event.previous_hash))


# -- the approval stamp a sheet prints ----------------------------------------------------------

STAMP_LENGTH = 10  # hex characters of the stamp's MAC: 40 bits, for a code read off paper
STAMP = re.compile(rf"(\d{{1,18}})\.(\d{{1,9}})\.(\d{{1,18}})\.([0-9a-f]{{{STAMP_LENGTH}}})")


def _stamp_mac(key: bytes, character_id: int, version: int, event_id: int) -> str:
    return keyed(key, f"approval-stamp:{character_id}:{version}:{event_id}")[:STAMP_LENGTH]


def stamp_code(character_id: int, version: int, event_id: int) -> str:
    """The code an approval stamp prints: the character, the approved version, the approval's
    event and a short MAC of the three with the current audit key, e.g. 12.7.345.1a2b3c4d5e."""
    key_id, keys = audit_keys()
    mac = _stamp_mac(keys[key_id], character_id, version, event_id)
    return f"{character_id}.{version}.{event_id}.{mac}"


def stamp_read(code: str) -> tuple[int, int, int] | None:
    """The character id, version and event id a stamp's code names when its MAC verifies with
    any audit key this server holds (a sheet printed before a rotation too); else None."""
    found = STAMP.fullmatch(code.strip().lower())
    if found is None:
        return None
    character_id, version, event_id = (int(part) for part in found.groups()[:3])
    _, keys = audit_keys()
    for key in keys.values():
        if hmac.compare_digest(found[4], _stamp_mac(key, character_id, version, event_id)):
            return character_id, version, event_id
    return None
