"""The engine's messages in the reader's language (docs/translations.md, "Engine messages").

The rules engine makes its messages as Phrases (rules.words): an English template, the
catalogue's message id, and the values that fill it. Here a Phrase is said in the active
language: its template from Django's catalogue (locale/*/LC_MESSAGES/django.po), its levels
and rules words from characters.vocabulary, its numbers as the language writes them ("1,5").
A template not translated yet, or translated with other placeholders than the English one,
is said in English rather than not at all.

    {{ issue|said }}                          in a template (characters.templatetags.wording)
    report.to_json(SPEAKER)                   the build report, in the active language
    with translation.override("fr"): ...      any other language than the active one
"""

import dataclasses
from functools import lru_cache
from string import Formatter

from django.utils import formats, translation
from django.utils.translation import gettext, gettext_noop, ngettext, pgettext

from characters import vocabulary
from characters.rules_content import rules_name
from rules.words import (
    ENGLISH,
    GameWords,
    Level,
    Name,
    Noun,
    Phrase,
    Term,
    Thousands,
    number_text,
    say_in,
)


class Speaker:
    """Says a phrase in the active language (rules.words.English's counterpart)."""

    def template(self, phrase: Phrase) -> str:
        if phrase.many is None:
            translated = gettext(phrase.text)
            english = phrase.text
        else:
            translated = ngettext(phrase.text, phrase.many, phrase.count)
            english = phrase.text if phrase.count == 1 else phrase.many
        return translated if _fields(translated) == _fields(english) else english

    def level(self, value: Level) -> str:
        word = value.ladder.name(value.level)
        if not vocabulary.ladder_is_standard(value.ladder.words):
            return word
        top = value.ladder.words[-1]
        if word in vocabulary.LADDER:
            return vocabulary.ladder_word(word)
        # Above the top word: "Legendary+2".
        return vocabulary.ladder_word(top) + word[len(top) :]

    def term(self, value: Term) -> str:
        if value.kind not in vocabulary.TERMS:  # a word the app's catalogue has in a context
            return pgettext(value.kind, value.text)
        return vocabulary.term(value.text, value.kind)

    def name(self, value: Name) -> str:
        return rules_name(value.text)

    def game_words(self, value: GameWords) -> str:
        return value.in_language(translation.get_language() or "en")

    def noun(self, value: Noun) -> str:
        return _said_noun(value, translation.get_language())

    def number(self, value) -> str:
        if isinstance(value, Thousands):
            return formats.number_format(int(value), force_grouping=True)
        text = number_text(value)
        return formats.number_format(float(text) if "." in text else int(text))


SPEAKER = Speaker()


def said(phrase) -> str:
    """A Phrase, an issue (its message) or a plain string in the active language."""
    phrase = getattr(phrase, "phrase", phrase)
    return say_in(phrase, SPEAKER) if isinstance(phrase, Phrase) else str(phrase)


# The engine's issues speak to the player who builds; a GM reviewing the build reads some of
# them reworded for the GM (same placeholders), rather than "spend them now".
FOR_GM = {
    "{left} left unspent: spend them now, or they are lost when play starts.": gettext_noop(
        "{left} left unspent: the player loses them when play starts unless they spend them first."
    ),
}


def said_to_gm(issue) -> str:
    """An issue's message as the reviewing GM reads it (FOR_GM), else as `said` says it."""
    phrase = getattr(issue, "phrase", issue)
    if isinstance(phrase, Phrase) and phrase.text in FOR_GM:
        phrase = dataclasses.replace(phrase, text=FOR_GM[phrase.text])
    return said(phrase)


@lru_cache(maxsize=1024)
def _said_noun(value: Noun, language: str | None) -> str:
    """A noun in `language`, the active one. Kept: a builder page or edit says a score of
    the same nouns, each two lookups in the catalogues (a context's and its fallback's)."""
    if value.article and value.count == 1:
        word = vocabulary.noun_with_article(value.one)
    else:
        word = vocabulary.noun(value.one, value.many, value.count)
    if word is None:  # the GM's own words: said as written
        if _in_english():  # with the engine's "a" or "an", as the English report says it
            return ENGLISH.noun(value)
        word = value.one if value.count == 1 else value.many  # no English article
    return _capitalised(word) if value.capital else word


def _in_english() -> bool:
    """Whether the active language is English, the engine's own (None: translation off)."""
    return (translation.get_language() or "en").split("-")[0] == "en"


def _fields(template: str) -> set:
    try:
        return {field for _, field, _, _ in Formatter().parse(template) if field is not None}
    except ValueError:  # an unbalanced brace: never the same as a good template's fields
        return {None}


def _capitalised(word: str) -> str:
    return word[:1].upper() + word[1:]
