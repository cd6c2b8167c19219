"""Values a process keeps under the rules they were worked out with (issue 40): the builder's
drawn verdicts (pages.builder), the party view's cards (selectors.party) and the drawings the
builder and party pages keep (templatetags.kept_drawings).

A value is kept by its key and holds its rules (a Ruleset: adapters.ruleset_for keeps one per
base, house rules and catalogue) by a weak reference, so the kept values keep no old rules
alive; an entry whose rules are gone or other than the caller's says so, and the caller
decides what that means. At most `limit` entries: the oldest goes first."""

import threading
import weakref


class KeptUnderRules:
    def __init__(self, limit: int):
        self.limit = limit
        self._kept: dict = {}
        self._lock = threading.Lock()

    def get(self, key) -> tuple[object, object] | None:
        """(the rules the value was kept under, or None when they are gone; the value), or
        None for a key not kept."""
        kept = self._kept.get(key)
        return None if kept is None else (kept[0](), kept[1])

    def put(self, key, rules, value) -> None:
        with self._lock:
            if len(self._kept) >= self.limit:
                del self._kept[next(iter(self._kept))]  # the oldest
            self._kept[key] = (weakref.ref(rules), value)
