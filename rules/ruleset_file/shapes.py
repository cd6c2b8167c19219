"""How the ruleset file's reader reads a value of each shape (an object, a list, a name, a
level, a number) and records what is wrong with one, going on with the next field."""

from fractions import Fraction

from rules.house_rules import MAX_NUMBER
from rules.ladder import STANDARD, LevelError
from rules.ruleset_file.file_format import MAX_ENTRIES, MAX_NAME, MAX_PROBLEMS, MAX_TEXT
from rules.text import name_problem
from rules.words import Phrase, Thousands, say, say_plural


class Refused(Exception):
    """One field's problem, already recorded: the reader goes on with the next field."""


class Problems:
    """What a reader found wrong, each (where, message): the first MAX_PROBLEMS, and how many
    more there were."""

    def __init__(self):
        self.listed: list[tuple[str, Phrase | str]] = []
        self.more = 0

    def append(self, problem: tuple[str, Phrase | str]) -> None:
        if len(self.listed) < MAX_PROBLEMS:
            self.listed.append(problem)
        else:
            self.more += 1

    def __bool__(self) -> bool:
        return bool(self.listed)

    def all(self) -> list[tuple[str, Phrase | str]]:
        """The listed problems, then a line saying how many more there were, if any."""
        if not self.more:
            return list(self.listed)
        more = say_plural(
            "… and {count} more problem",
            "… and {count} more problems",
            self.more,
            count=Thousands(self.more),
        )
        return [*self.listed, ("", more)]


class Shapes:
    def __init__(self):
        self.problems = Problems()
        self.ladder = STANDARD
        # A refused ladder refuses no level word elsewhere: which words it meant is unclear.
        self.ladder_refused = False

    def refuse(self, where: str, message: Phrase | str):
        self.problems.append((where, message))
        raise Refused

    def field(self, read, *args, fallback=None):
        """read(*args), or `fallback` when it refused (its problem is recorded)."""
        try:
            return read(*args)
        except Refused:
            return fallback

    def object(self, value, where, known=None, *, required=True):
        if value is None and not required:
            return {}
        if value is None:
            self.refuse(where, say("is required: an object"))
        if not isinstance(value, dict):
            self.refuse(where, say("must be an object, not {kind}", kind=_kind(value)))
        if known is not None:
            unknown = [k for k in value if k not in known]
            if unknown:
                self.refuse(
                    f"{where}.{unknown[0]}" if where else unknown[0],
                    say(
                        "is not a field of the ruleset file here: use {fields}",
                        fields=", ".join(known),
                    ),
                )
        return value

    def list(self, value, where, *, limit=MAX_ENTRIES):
        if not isinstance(value, list):
            self.refuse(where, say("must be a list, not {kind}", kind=_kind(value)))
        if len(value) > limit:
            self.refuse(
                where,
                say("has {count} entries; the most is {limit}", count=len(value), limit=limit),
            )
        return value

    def text(self, value, where, *, limit=MAX_TEXT, required=False):
        if not isinstance(value, str):
            self.refuse(where, say("must be text, not {kind}", kind=_kind(value)))
        value = value.strip()
        if required and not value:
            self.refuse(where, say("must not be empty"))
        if len(value) > limit:
            self.refuse(
                where,
                say(
                    "is {count} characters long; the most is {limit}",
                    count=len(value),
                    limit=limit,
                ),
            )
        return value

    def name(self, value, where):
        name = self.text(value, where, limit=MAX_NAME, required=True)
        problem = name_problem(name)
        if problem:
            self.refuse(where, say("the name {problem}", problem=problem))
        return name

    def names(self, value, where, *, limit=MAX_ENTRIES) -> tuple[str, ...]:
        names = tuple(
            self.field(self.name, n, f"{where}[{i}]", fallback="")
            for i, n in enumerate(self.list(value, where, limit=limit))
        )
        self.unique(names, where)
        return names

    def unique(self, names, where, field=""):
        """Each name once; a second is refused at its entry (`field`: the entry's key that
        holds the name, ".name")."""
        seen = set()
        for index, name in enumerate(names):
            if name and name.casefold() in seen:
                self.problems.append(
                    (f"{where}[{index}]{field}", say("'{name}' appears twice", name=name))
                )
            seen.add(name.casefold())

    def boolean(self, value, where):
        if not isinstance(value, bool):
            self.refuse(where, say("must be true or false, not {kind}", kind=_kind(value)))
        return value

    def integer(self, value, where, low=-MAX_NUMBER, high=MAX_NUMBER):
        if isinstance(value, bool) or not isinstance(value, int):
            self.refuse(where, say("must be a whole number, not {kind}", kind=_kind(value)))
        if not low <= value <= high:
            self.refuse(
                where,
                say("must be from {low} to {high}, not {value}", low=low, high=high, value=value),
            )
        return value

    def amount(self, value, where):
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
            self.refuse(where, say("must be a number, not {kind}", kind=_kind(value)))
        if not 0 <= value <= MAX_NUMBER:
            self.refuse(
                where,
                say("must be from 0 to {high}, not {value}", high=MAX_NUMBER, value=str(value)),
            )
        amount = Fraction(value).limit_denominator(100)
        return amount.numerator if amount.denominator == 1 else amount

    def level(self, value, where):
        try:
            return self.ladder.parse(value)
        except LevelError as error:
            if self.ladder_refused and isinstance(value, str):
                return 0
            self.refuse(where, error.phrase)

    def choice(self, value, where, choices):
        if value not in choices:
            self.refuse(
                where,
                say(
                    "must be one of {choices}, not {value}",
                    choices=", ".join(choices),
                    value=repr(value),
                ),
            )
        return value


def _kind(value) -> Phrase:
    if value is None:  # null in the file, a field left empty in the designer
        return say("empty")
    if isinstance(value, bool):
        return say("true or false")
    if isinstance(value, int | float):
        return say("a number")
    if isinstance(value, str):
        return say("text")
    return say("a list") if isinstance(value, list) else say("an object")
