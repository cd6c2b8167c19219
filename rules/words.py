"""What the engine says to people, as templates and the values they carry, so that the adapter
layer can say it in the reader's language (docs/translations.md, "Engine messages").

The engine speaks English and knows no other language: no Django, no catalogue. A sentence it
makes for a person is a Phrase, an English template with named placeholders and the values
that fill them. `str(phrase)` is the English sentence, word for word what the engine has
always said (the character file's report is English by default: a public contract).
characters/wording.py says the same phrase in another language: the template is the message
id of Django's catalogue, and each value is said by its kind.

Values that are words of the rules are not plain strings, so another language can say them
too: a Level (a step of the ruleset's ladder), a Noun (what the ruleset calls one of its lists,
"attribute" or "abilities", for a count) and a Term (another word a ruleset names a thing
with: "GM", "meta points", "very hard"). Numbers stay numbers (a French reader
gets "1,5"). A name a person wrote (a trait's, a character's, a campaign's) is a plain
string and is never translated; nor are codes and rule-section citations.

`say` and `say_plural` are the markers `manage.py makemessages` collects (the project's own
makemessages command adds them to xgettext's keywords): call them with literal templates.
"""

from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol


class LadderWords(Protocol):
    """What a Level says itself with: rules.ladder.Ladder, which this module cannot import,
    since rules.ladder says its own errors with `say`."""

    words: tuple[str, ...]

    def name(self, level: int) -> str: ...


@dataclass(frozen=True)
class Phrase:
    text: str  # the English template: "Only {limit} {nouns} may be {level}."
    values: tuple[tuple[str, object], ...] = ()  # (placeholder, value) pairs
    many: str | None = None  # the template for a plural count, if it has one
    count: int = 1  # which of the two English uses; another language has its own forms

    def __str__(self) -> str:
        return say_in(self, ENGLISH)


@dataclass(frozen=True)
class Level:
    """A level, said in its ladder's words: 'Good', 'Legendary+2'."""

    level: int
    ladder: LadderWords

    def __str__(self) -> str:
        return self.ladder.name(self.level)


@dataclass(frozen=True)
class Term:
    """A word a ruleset names a thing with, in the form the sentence needs. `kind` says what
    it names (docs/translations.md lists them: "game master", "points", "difficulty",
    "ruleset", ...), so a word the built-in rulesets use can be looked up in the
    catalogue under that context; a word of the GM's own is said as written."""

    text: str
    kind: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Noun:
    """What one of a ruleset's lists is called, for `count` of them: 'attribute' for 1,
    'attributes' otherwise (English), with 'a' or 'an' before it when `article`. A language
    with other plural forms picks its own, for the same count."""

    one: str
    many: str
    count: int = 1
    capital: bool = False
    article: bool = False

    def __str__(self) -> str:
        word = self.one if self.count == 1 else self.many
        if self.article:
            word = f"{'an' if word[0] in 'aeiou' else 'a'} {word}"
        return word.capitalize() if self.capital else word


@dataclass(frozen=True)
class Name:
    """A name of the built-in rules content inside a sentence ("Climbing", "Danger Sense",
    "Halfling"): said in the reader's language where the rules content catalogue has it
    (characters.rules_content), as written otherwise (a player's own trait, a GM's gift)."""

    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class GameWords:
    """Words a GM wrote for their game (a prerequisite's message), with the GM's own
    translations, (language code, text): said in the reader's language where the GM gave
    it, as written otherwise."""

    text: str
    translations: tuple[tuple[str, str], ...] = ()

    def __str__(self) -> str:
        return self.text

    def in_language(self, language: str) -> str:
        """The GM's words for `language` ("fr", "fr-ca" reads "fr"), else as written."""
        own = dict(self.translations)
        return own.get(language) or own.get(language.split("-")[0]) or self.text


class Thousands(int):
    """A whole number written with its thousands grouped, as a long text's length is said:
    "20,001" in English, "20 001" in French."""


def say(text: str, /, **values) -> Phrase:
    """A sentence for a person: `text` an English template literal, `values` its fillings."""
    return Phrase(text, tuple(values.items()))


def say_plural(one: str, many: str, count, /, **values) -> Phrase:
    """A sentence whose words follow a number: `one` for 1 in English, `many` otherwise; a
    language with other plural forms takes its own from the catalogue. `count` may be a
    fraction (half a fault): see plural_count."""
    return Phrase(one, tuple(values.items()), many, plural_count(count))


def plural_count(value) -> int:
    """The whole number a plural form is picked by. English says '1 fault' but '0.5 faults'
    and '1.5 faults'; French says '0,5 défaut' and '1,5 défaut'. A fraction below 2 counts
    as 0, which gives each of them its form (English: 0 is plural; French: 0 is singular)."""
    value = abs(Fraction(value))
    if value.denominator != 1 and value < 2:
        return 0
    return int(value)


def number_text(value) -> str:
    """A number as the report's JSON writes it: 3, 0.5."""
    value = Fraction(value)
    return str(int(value)) if value.denominator == 1 else str(float(value))


class English:
    """Says a phrase as the engine always has: its templates, the rulesets' own words."""

    def template(self, phrase: Phrase) -> str:
        return phrase.text if phrase.many is None or phrase.count == 1 else phrase.many

    def level(self, value: Level) -> str:
        return str(value)

    def term(self, value: Term) -> str:
        return str(value)

    def noun(self, value: Noun) -> str:
        return str(value)

    def number(self, value) -> str:
        return f"{value:,}" if isinstance(value, Thousands) else number_text(value)

    def name(self, value: Name) -> str:
        return value.text

    def game_words(self, value: GameWords) -> str:
        return value.in_language("en")


ENGLISH = English()


def say_in(phrase, speaker) -> str:
    """`phrase` in `speaker`'s language (English, or characters.wording's); a plain string
    (a message not yet made a phrase) is said as it is."""
    if not isinstance(phrase, Phrase):
        return str(phrase)
    template = speaker.template(phrase)
    values = {name: _value(value, speaker) for name, value in phrase.values}
    return template.format(**values)


def _value(value, speaker) -> str:
    if isinstance(value, Phrase):
        return say_in(value, speaker)
    if isinstance(value, Level):
        return speaker.level(value)
    if isinstance(value, Term):
        return speaker.term(value)
    if isinstance(value, Noun):
        return speaker.noun(value)
    if isinstance(value, Name):
        return speaker.name(value)
    if isinstance(value, GameWords):
        return speaker.game_words(value)
    if isinstance(value, int | Fraction | float) and not isinstance(value, bool):
        return speaker.number(value)
    if isinstance(value, tuple):  # a list of values: "2 Superb of 1, 3 Great of 2"
        return ", ".join(_value(item, speaker) for item in value)
    return str(value)
