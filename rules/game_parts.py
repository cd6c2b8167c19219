"""What a GM adds to their game beyond numbers (docs/ruleset-file.md, "trackers",
"prerequisites", "derived"), as data: the Ruleset holds them, rules.derived works derived
values out, rules.prerequisites checks a character against them and rules.trackers says
where each tracker starts."""

from dataclasses import dataclass

from rules.words import GameWords

# (language code, name, note): an entry's own words in another language, as the catalogue's.
Translations = tuple[tuple[str, str, str], ...]

TRACKER_KINDS = ("boxes", "count", "clock")  # boxes to tick, a count to a maximum, a clock
CHANGED_BY = ("player", "gm")  # who may change a tracker in play (the GM always may)
MAX_TRACKER_SIZE = 100


def part_words(text: str, translations: Translations, index: int = 1) -> GameWords:
    """A derived value's or tracker's name (index 1) or note (index 2) with the GM's words
    for it in other languages, as GameWords says them in the reader's."""
    return GameWords(
        text, tuple((entry[0], entry[index]) for entry in translations if entry[index])
    )


@dataclass(frozen=True)
class Derived:
    key: str  # what formulas, trackers and prerequisites name it by: "damage_capacity"
    name: str  # what the sheet says: "Damage capacity"
    formula: str  # rules.formula: 'level("Constitution") + scale_strength + 3'
    note: str = ""
    translations: Translations = ()


@dataclass(frozen=True)
class Tracker:
    """A pool or track of the game's own: Luck points, Sanity, Corruption, a clock."""

    key: str
    name: str
    kind: str  # one of TRACKER_KINDS
    size: int  # how many boxes, the count's maximum, the clock's segments
    start: int | str = 0  # a number, or a derived value's key
    changed_by: str = "player"
    resets_on_rest: bool = False  # back to its start when the character rests
    note: str = ""
    translations: Translations = ()


@dataclass(frozen=True)
class Prerequisite:
    """What a trait needs, in the GM's own words: "Spells need Magery", "Sword Mastery needs
    Sword at Great", "At most one patron".

    It guards `guards` (names of gifts, skills, powers or attributes) and every power of the
    kind `guards_kind`; a guarded trait the character has needs `needs` (a trait or gift the
    character has, at `at_least` or at the value of the derived value `at_least_derived`
    when either is given), or, with `at_most`, no more than that many of the guarded traits
    may be taken together."""

    key: str
    message: str  # the GM's words, in the game's own language
    guards: tuple[str, ...] = ()
    guards_kind: str = ""
    needs: str = ""
    at_least: int | None = None
    at_least_derived: str = ""
    at_most: int | None = None
    section: str = ""  # the game's text it cites; "" cites the game's creation section
    translations: tuple[tuple[str, str], ...] = ()  # (language code, message)
