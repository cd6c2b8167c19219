"""What reading an actor keeps as it goes, and how it reads one value (a text, a level, a
count), noting what it cannot take as it was."""

from collections.abc import Mapping

from rules.charfile import CharacterFileError
from rules.foundry.tables import CHANGED, LIST_TYPES, LOST, REPORT_LEVELS
from rules.ladder import STANDARD
from rules.rulesets import BUILTIN, Ruleset
from rules.text import name_problem, unstorable_problem
from rules.words import Level, Phrase, say


class ActorFields:
    def __init__(self, default_ruleset: str, rulesets: Mapping[str, Ruleset]):
        self.default_ruleset = default_ruleset
        self.rulesets = rulesets
        self.known = {**BUILTIN, **rulesets}
        self.ladder = self.known[default_ruleset].ladder
        self.not_mapped: list[str] = []
        self.from_flags: set = set()  # top-level keys, and (list, index, key) of entries
        self.rows = 0  # traits and equipment taken, at most the character file's MAX_ROWS
        self.full = False
        self.ids = {name: [] for name in ("attributes", *LIST_TYPES)}  # items' Foundry ids
        self.foundry_ids: dict[str, str] = {}  # the actor's, its attribute set's and ladder's
        self.kept_items: dict[str, dict] = {}  # item id: its picture, links (rules.foundry.kept)
        self.kept: dict = {}  # the actor's picture in its world, its token's settings
        self.bookkeeping: set[str] = set()  # Foundry's own keys met (rules.foundry.kept)
        self.links: dict[str, str] = {}  # the attribute set's damage links
        self.grouped: list[str] = []  # skills whose groups are not imported
        self.character_id: int | None = None
        self.image = ""

    def note(self, level: str, message: Phrase) -> None:
        self.not_mapped.append((REPORT_LEVELS.index(level), level, message))

    def ladder_note(self) -> Phrase:
        if self.ladder == STANDARD:
            return say("Fairsheet uses its own trait ladder")
        return say(
            "Fairsheet uses the ruleset's ladder ({words})", words=", ".join(self.ladder.words)
        )

    def text(self, value, where: str, limit: int) -> str:
        """A name the character keeps: one that cannot be stored refuses the actor."""
        if not isinstance(value, str):
            if value is not None:
                self.note(
                    LOST,
                    say("{where}: not text ({kind}); left empty.", where=where, kind=_kind(value)),
                )
            return ""
        problem = name_problem(value)
        if problem is not None:
            raise CharacterFileError(where, problem)
        value = value.strip()
        if len(value) > limit:
            self.note(CHANGED, _cut(where, limit))
        return value[:limit].strip()

    def free_text(self, value: str, where: str, limit: int) -> str:
        """Notes the character keeps: text that cannot be stored is left out and listed, as
        is what is over the limit."""
        problem = unstorable_problem(value)
        if problem is not None:
            self.note(LOST, say("{where}: {problem}; not imported.", where=where, problem=problem))
            return ""
        value = value.strip()
        if len(value) > limit:
            self.note(CHANGED, _cut(where, limit))
        return value[:limit].strip()

    def level(self, value, where: str) -> int:
        if value is None:
            return 0
        if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
            self.note(
                CHANGED,
                say(
                    "{where}: {value} is not a whole level; read as {fair}.",
                    where=where,
                    value=repr(value),
                    fair=Level(0, self.ladder),
                ),
            )
            return 0
        level = min(max(int(value), self.ladder.bottom), self.ladder.top)
        if level != value:
            self.note(
                CHANGED,
                say(
                    "{where}: {value} is off Fairsheet's ladder; read as {level}.",
                    where=where,
                    value=f"{int(value):+d}",
                    level=Level(level, self.ladder),
                ),
            )
        return level

    def count(self, value, where: str, top: int) -> int | None:
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
            self.note(
                LOST,
                say(
                    "{where}: {value} is not a whole number; not imported.",
                    where=where,
                    value=repr(value),
                ),
            )
            return None
        if not 0 <= value <= top:
            self.note(
                LOST,
                say(
                    "{where}: {value} is outside 0 to {top}; not imported.",
                    where=where,
                    value=str(int(value)),
                    top=top,
                ),
            )
            return None
        return int(value)


def as_dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _kind(value) -> Phrase:
    return {dict: say("an object"), list: say("a list"), bool: say("true/false")}.get(
        type(value), say("a number")
    )


def _cut(where: str, limit: int) -> Phrase:
    return say("{where}: cut to {limit} characters.", where=where, limit=limit)
