"""The trait ladder (Mudge 1.2, MicroFudged DIP V): level words and their numeric offsets.

Levels are ints relative to Fair = 0, so costs are plain arithmetic. MicroFudged's card
rating is the same scale shifted so that Abysmal = 0 (DIP V: Poor is 2, Fair 4).
"""

import re
from dataclasses import dataclass
from functools import cached_property

from rules.words import say

WORDS = ("Abysmal", "Terrible", "Poor", "Mediocre", "Fair", "Good", "Great", "Superb", "Legendary")
ABYSMAL, TERRIBLE, POOR, MEDIOCRE, FAIR, GOOD, GREAT, SUPERB, LEGENDARY = range(-4, 5)
# Fairsheet's ladder ends here: far past any character in the rule texts (Legendary is the
# top word), and a bound every store and sheet can rely on.
BEYOND_TOP = 20
TOP = LEGENDARY + BEYOND_TOP
WORD_LEVELS = {word.lower(): offset for offset, word in zip(range(-4, 5), WORDS, strict=True)}


class LevelError(ValueError):
    """A level word that is not on the ladder. Raised with a Phrase (rules.words): str() of
    the error is the English, `phrase` the message for characters.wording to say."""

    @property
    def phrase(self):
        return self.args[0]


@dataclass(frozen=True)
class Ladder:
    """A ruleset's trait ladder: its words from lowest to highest and which one is Fair (0).
    Levels stay ints relative to Fair, so costs are the same arithmetic on any ladder; only
    the words change (fudge-rpg's Extended ladder puts Heroic +4 and Legendary +5 above
    Superb). Above the top word a level reads 'Legendary+2', up to BEYOND_TOP past it."""

    words: tuple[str, ...] = WORDS
    fair: int = WORDS.index("Fair")  # the index of the Fair word in `words`

    @property
    def bottom(self) -> int:
        return -self.fair

    @property
    def top_word_level(self) -> int:
        """The level of the top word: the first level no character starts at unless the GM
        allows it (Legendary on the standard ladder)."""
        return len(self.words) - 1 - self.fair

    @property
    def top(self) -> int:
        return self.top_word_level + BEYOND_TOP

    @cached_property
    def levels(self) -> dict[str, int]:
        """Casefolded word -> level."""
        return {word.casefold(): index - self.fair for index, word in enumerate(self.words)}

    @cached_property
    def _beyond(self) -> re.Pattern:
        return re.compile(re.escape(self.words[-1].casefold()) + r"\s*\+\s*(\d{1,3})")

    def parse(self, text: str) -> int:
        if not isinstance(text, str):
            raise LevelError(
                say("a level must be a word of the trait ladder, not {value}", value=repr(text))
            )
        key = " ".join(text.split()).casefold()
        if key in self.levels:
            return self.levels[key]
        match = self._beyond.fullmatch(key)
        if match:
            level = self.top_word_level + int(match.group(1))
            if level > self.top:
                raise LevelError(
                    say(
                        "'{word}' is out of range: the ladder goes up to {top}",
                        word=text,
                        top=self.name(self.top),
                    )
                )
            return level
        raise LevelError(
            say(
                "'{word}' is not a level: use one of {words} or {top}+N",
                word=text,
                words=", ".join(self.words),
                top=self.words[-1],
            )
        )

    def name(self, level: int) -> str:
        if level > self.top_word_level:
            return f"{self.words[-1]}+{level - self.top_word_level}"
        if level < self.bottom:
            raise LevelError(
                say(
                    "{level} is below {bottom}, the bottom of the ladder",
                    level=level,
                    bottom=self.words[0],
                )
            )
        return self.words[level + self.fair]


STANDARD = Ladder()


def parse_level(text: str, ladder: Ladder = STANDARD) -> int:
    """'Good' -> 1, 'legendary+2' -> 6. Case-insensitive; raises LevelError."""
    return ladder.parse(text)


def level_name(level: int, ladder: Ladder = STANDARD) -> str:
    """1 -> 'Good', 6 -> 'Legendary+2'. Levels below the ladder's bottom have no word."""
    return ladder.name(level)


def card_rating(level: int) -> int:
    """MicroFudged card rating: Abysmal 0, Poor 2, Fair 4, Legendary 8 (DIP V)."""
    return level - ABYSMAL


def signed(level: int) -> str:
    """The modifier a level adds to a roll or a damage factor: '+2', '0', '-1'."""
    return f"{level:+d}" if level else "0"
