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
LADDER = "ladder"  # one word of the standard ladder (a NAMED_LEVELS line's level)


def shown(value, kind: str):
    """`value` as the designer shows it to the GM: a built-in word in the GM's language."""
    if not isinstance(value, str) or not value:
        return value
    if kind == RULES_NAME:
        return rules_name(value)
    if kind == RULES_TEXT:
        return rules_text(value)
    if kind == RULES_TEXTS:
        return _each_line(value, kind, rules_text)
    if kind in (RULES_NAMES, NAMED_LEVELS):
        return _each_line(value, kind, rules_name, vocabulary.ladder_text)
    return _said(kind).get(value, value)


def kept(value, kind: str):
    """What the file keeps of `value` as the GM typed it: a built-in word's English where it
    is one in the GM's language (or in English), else the value as typed."""
    if not isinstance(value, str) or not value:
        return value
    if kind == RULES_NAME:
        return typed_key(value)
    if kind == RULES_TEXT:
        return typed_text(value)
    if kind == RULES_TEXTS:
        return _each_line(value, kind, typed_text)
    if kind in (RULES_NAMES, NAMED_LEVELS):
        return _each_line(value, kind, typed_key, lambda level: kept(level, LADDER))
    english = {said.casefold(): word for word, said in _said(kind).items()}
    english.update((word.casefold(), word) for word in _said(kind))
    return english.get(value.strip().casefold(), value)


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


def _each_line(value: str, kind: str, name, level=None) -> str:
    """Each line said by `name`; for NAMED_LEVELS, the name before its colon, the level
    after it by `level` (a line without a colon as a name)."""
    said = []
    for line in value.splitlines():
        trait, colon, rest = line.partition(":")
        if kind == NAMED_LEVELS and colon:
            said.append(f"{name(trait.strip())}: {level(rest.strip())}")
        else:
            said.append(name(line.strip()))
    return "\n".join(said)


def _said(kind: str) -> dict[str, str]:
    """Each built-in word of `kind` (its English) in the active language."""
    if kind == ONE_OF_A_LIST:
        return {one: vocabulary.noun(one, many, 1) for one, many in vocabulary.NOUNS}
    if kind == LADDER:
        return {word: vocabulary.ladder_word(word) for word in vocabulary.LADDER}
    return {str(word): str(said) for word, said in vocabulary.TERMS[kind].items()}
