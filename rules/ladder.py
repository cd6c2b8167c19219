"""The trait ladder (Mudge 1.2, MicroFudged DIP V): level words and their numeric offsets.

Levels are ints relative to Fair = 0, so costs are plain arithmetic. MicroFudged's card
rating is the same scale shifted so that Abysmal = 0 (DIP V: Poor is 2, Fair 4).
"""

import re

WORDS = ("Abysmal", "Terrible", "Poor", "Mediocre", "Fair", "Good", "Great", "Superb", "Legendary")
ABYSMAL, TERRIBLE, POOR, MEDIOCRE, FAIR, GOOD, GREAT, SUPERB, LEGENDARY = range(-4, 5)
# Fairsheet's ladder ends here: far past any character in the rule texts (Legendary is the
# top word), and a bound every store and sheet can rely on.
TOP = LEGENDARY + 20
WORD_LEVELS = {word.lower(): offset for offset, word in zip(range(-4, 5), WORDS, strict=True)}
_LEGENDARY_PLUS = re.compile(r"legendary\s*\+\s*(\d{1,3})")


class LevelError(ValueError):
    """A level word that is not on the ladder."""


def parse_level(text: str) -> int:
    """'Good' -> 1, 'legendary+2' -> 6. Case-insensitive; raises LevelError."""
    if not isinstance(text, str):
        raise LevelError(f"a level must be a word of the trait ladder, not {text!r}")
    key = " ".join(text.split()).lower()
    if key in WORD_LEVELS:
        return WORD_LEVELS[key]
    match = _LEGENDARY_PLUS.fullmatch(key)
    if match:
        level = LEGENDARY + int(match.group(1))
        if level > TOP:
            raise LevelError(f"'{text}' is out of range: the ladder goes up to {level_name(TOP)}")
        return level
    raise LevelError(f"'{text}' is not a level: use one of {', '.join(WORDS)} or Legendary+N")


def level_name(level: int) -> str:
    """1 -> 'Good', 6 -> 'Legendary+2'. Levels below Abysmal have no word."""
    if level > LEGENDARY:
        return f"Legendary+{level - LEGENDARY}"
    if level < ABYSMAL:
        raise LevelError(f"{level} is below Abysmal, the bottom of the ladder")
    return WORDS[level - ABYSMAL]


def card_rating(level: int) -> int:
    """MicroFudged card rating: Abysmal 0, Poor 2, Fair 4, Legendary 8 (DIP V)."""
    return level - ABYSMAL


def signed(level: int) -> str:
    """The modifier a level adds to a roll or a damage factor: '+2', '0', '-1'."""
    return f"{level:+d}" if level else "0"
