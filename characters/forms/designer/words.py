"""The built-in words a designed game's file holds in English, as the designer shows them.

A game started from a built-in ruleset keeps its words as the rule texts write them (its
lists' names, its GM's title, its wounds, its attributes, its catalogue's names and notes),
which every page says in the reader's language. The designer shows each in the GM's language
too, and keeps it in English while the GM leaves it so: each player then reads it in theirs,
as they read a built-in ruleset. A word the GM types of their own is kept as typed. (The
ladder, a whole that is the standard one or the GM's own, is vocabulary.ladder_said's.)

A section (and a row form) says which of its fields hold which kind of word (`words`):
a kind of vocabulary.TERMS, or one of those below.
"""

from characters import vocabulary
from characters.rules_content import rules_name, rules_text, typed_key, typed_text

ONE_OF_A_LIST = "one of a list"  # "skill": a list's noun, one of it (vocabulary.NOUNS)
RULES_NAME = "rules name"  # "Climbing", "Strength": the rules content's names
RULES_TEXT = "rules text"  # a catalogue entry's note, a power's lines
RULES_NAMES = "rules names"  # one a line: a template's gifts
RULES_TEXTS = "rules texts"  # one a line: a template's notes
NAMED_LEVELS = "named levels"  # one a line, "Strength: Good": a template's least attributes


def shown(value, kind: str):
    """`value` as the designer shows it to the GM: a built-in word in the GM's language."""
    if not isinstance(value, str) or not value:
        return value
    if kind in _SAID_AND_KEPT:
        return _SAID_AND_KEPT[kind][0](value)
    return _said(kind).get(value, value)


def kept(value, kind: str):
    """What the file keeps of `value` as the GM typed it: a built-in word's English where it
    is one, as written, in the GM's language, else the value as typed (the English too)."""
    if not isinstance(value, str) or not value:
        return value
    if kind in _SAID_AND_KEPT:
        return _SAID_AND_KEPT[kind][1](value)
    english = {said: word for word, said in _said(kind).items()}
    return english.get(value.strip(), value)


def shown_values(values: dict, words: dict[str, str]) -> dict:
    return {
        name: shown(value, words[name]) if name in words else value
        for name, value in values.items()
    }


def kept_values(values: dict, words: dict[str, str], read: dict | None) -> dict:
    """`values` as the file keeps them; a value left as shown keeps what was `read` there
    (two English notes may be one sentence in French: the one the file had stays)."""
    read = read or {}
    kept_ = {}
    for name, value in values.items():
        was = read.get(name)
        if name not in words:
            kept_[name] = value
        elif isinstance(value, str) and was is not None and _same(value, shown(was, words[name])):
            kept_[name] = was
        else:
            kept_[name] = kept(value, words[name])
    return kept_


def _same(typed: str, shown_) -> bool:
    return isinstance(shown_, str) and typed.strip() == shown_.strip()


def _each_line(say):
    """`say` for a value of one a line."""
    return lambda value: "\n".join(say(line.strip()) for line in value.splitlines())


def _named_level(name, level):
    """For a line "Strength: Good": its name said by `name`, its level by `level` (a line
    without a colon as a name)."""

    def say(line: str) -> str:
        trait, colon, rest = line.partition(":")
        return f"{name(trait.strip())}: {level(rest.strip())}" if colon else name(line)

    return say


# The kinds said and kept by a function each, (as shown, as kept), rather than a table of words.
_SAID_AND_KEPT = {
    RULES_NAME: (rules_name, typed_key),
    RULES_TEXT: (rules_text, typed_text),
    RULES_NAMES: (_each_line(rules_name), _each_line(typed_key)),
    RULES_TEXTS: (_each_line(rules_text), _each_line(typed_text)),
    NAMED_LEVELS: (
        _each_line(_named_level(rules_name, vocabulary.ladder_text)),
        _each_line(_named_level(typed_key, lambda level: vocabulary.ladder_typed([level])[0])),
    ),
}


def _said(kind: str) -> dict[str, str]:
    """Each built-in word of `kind` (its English) in the active language."""
    if kind == ONE_OF_A_LIST:
        return {one: vocabulary.noun(one, many, 1) for one, many in vocabulary.NOUNS}
    return {str(word): str(said) for word, said in vocabulary.TERMS[kind].items()}
