"""A Phrase (rules.words) kept as data, to be said later in the language of whoever reads it
(issue 38): a ledger entry's reason, an audit event's, a notification. What is stored is the
English template (the catalogue's message id) and each value by its kind, as JSON:

    {"text": "Raise {name} from {old} to {new}",
     "values": {"name": {"name": "Climbing"},
                "old": {"level": 1, "words": ["Terrible", ..., "Legendary"], "fair": 3},
                "new": {"level": 2, "words": [...], "fair": 3}}}

A level keeps its ladder's words, so a GM's own ladder is said as written and the standard
one in the reader's language, as a level said at the time would be. `phrase_of(phrase_data(p))
== p` for every phrase whose values are of the kinds below.
"""

from fractions import Fraction

from rules.ladder import Ladder
from rules.words import GameWords, Level, Name, Noun, Phrase, Term, Thousands


def phrase_data(phrase: Phrase) -> dict:
    """`phrase` as JSON-ready data."""
    data = {"text": phrase.text, "values": {k: _value_data(v) for k, v in phrase.values}}
    if phrase.many is not None:
        data["many"], data["count"] = phrase.many, phrase.count
    return data


def phrase_of(data: dict) -> Phrase:
    """The phrase `data` (phrase_data's) keeps."""
    values = tuple((key, _value_of(value)) for key, value in data.get("values", {}).items())
    return Phrase(data["text"], values, data.get("many"), data.get("count", 1))


def _value_data(value):
    if isinstance(value, Phrase):
        return {"phrase": phrase_data(value)}
    if isinstance(value, Level):
        words = list(value.ladder.words)
        fair = getattr(value.ladder, "fair", words.index("Fair") if "Fair" in words else 0)
        return {"level": value.level, "words": words, "fair": fair}
    if isinstance(value, Term):
        return {"term": value.text, "kind": value.kind}
    if isinstance(value, Noun):
        return {
            "noun": [value.one, value.many],
            "count": value.count,
            "capital": value.capital,
            "article": value.article,
        }
    if isinstance(value, Name):
        return {"name": value.text}
    if isinstance(value, GameWords):  # a GM's words keep the GM's translations
        return {"game_words": value.text, "translations": [list(t) for t in value.translations]}
    if isinstance(value, Thousands):
        return {"thousands": int(value)}
    if isinstance(value, Fraction):
        return {"fraction": [value.numerator, value.denominator]}
    if isinstance(value, tuple | list):
        return {"list": [_value_data(item) for item in value]}
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return str(value)
    return value


def _value_of(data):
    if not isinstance(data, dict):
        return data
    if "phrase" in data:
        return phrase_of(data["phrase"])
    if "level" in data:
        return Level(data["level"], Ladder(tuple(data["words"]), data["fair"]))
    if "term" in data:
        return Term(data["term"], data["kind"])
    if "noun" in data:
        one, many = data["noun"]
        return Noun(one, many, data["count"], data["capital"], data["article"])
    if "name" in data:
        return Name(data["name"])
    if "game_words" in data:
        translations = tuple((language, text) for language, text in data["translations"])
        return GameWords(data["game_words"], translations)
    if "thousands" in data:
        return Thousands(data["thousands"])
    if "fraction" in data:
        return Fraction(*data["fraction"])
    if "list" in data:
        return tuple(_value_of(item) for item in data["list"])
    return str(data)
