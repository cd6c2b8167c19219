"""Where a game's trackers start for a character, and what a change to one may be
(docs/ruleset-file.md, "trackers"): a count from 0 to its maximum, boxes ticked from 0 to
their number, a clock's segments filled."""

from rules.game_parts import Tracker


def tracker_start(tracker: Tracker, derived: dict[str, int | None]) -> int:
    """The tracker's starting value: its number, or its derived value's for the character
    (0 when that cannot be worked out), kept within 0 and its size."""
    start = tracker.start
    if isinstance(start, str):
        start = derived.get(start) or 0
    return clamp(tracker, start)


def tracker_value(tracker: Tracker, start: int, stored: dict) -> int:
    """The tracker's value in play from a play state's `stored` values (key -> value): a key
    not there (never changed, or reset by a rest) is at its start; a value kept from a
    larger tracker (the GM's game changed since) is brought within its size."""
    value = stored.get(tracker.key)
    return start if not isinstance(value, int) else clamp(tracker, value)


def clamp(tracker: Tracker, value: int) -> int:
    return max(0, min(tracker.size, value))
