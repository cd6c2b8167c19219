"""The audit trails are hash chains (issue 31): each event carries the hash of the event before
it in its chain (`previous_hash`: a character's events, or a campaign's) and its own
(`record_hash`: SHA-256 over the previous hash and the event's recorded fields, canonical
JSON). An event edited behind the app no longer hashes to its `record_hash`; one deleted
leaves the next naming a hash no event has. `manage.py verify_audit` walks every chain.

The canonical form is a contract with every hash already stored (migration 0016 computed
the ones before it): a field added to an event later must not join CHAINED_FIELDS, or
every old event would stop matching.
"""

import hashlib
import json
from datetime import UTC

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


def _json_value(value):
    if hasattr(value, "astimezone"):  # a datetime: UTC, to the microsecond, as stored
        return value.astimezone(UTC).isoformat(timespec="microseconds")
    # What a JSON column gives back (a tuple comes back a list): the hash of an event as it
    # is written equals the hash of it as it is read.
    return json.loads(json.dumps(value))


def event_hash(event, previous: str) -> str:
    """The hash `event` (a CharacterEvent or CampaignEvent, saved or not) carries when the
    event before it in its chain has the hash `previous` ("" for the first)."""
    record = {
        name: _json_value(getattr(event, name)) for name in CHAINED_FIELDS[event._meta.model_name]
    }
    canonical = json.dumps(
        {"previous": previous, "event": record},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


def chain_key(event) -> int:
    """Whose chain an event belongs to: its character's or its campaign's id."""
    return event.character_id if event._meta.model_name == "characterevent" else event.campaign_id


def link(event, previous: str) -> None:
    """Set an unsaved event's place in its chain, after the event whose hash is `previous`."""
    event.previous_hash = previous
    event.record_hash = event_hash(event, previous)
