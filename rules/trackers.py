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


def clamp(tracker: Tracker, value: int) -> int:
    return max(0, min(tracker.size, value))
