"""Text Fairsheet refuses, wherever it comes from (a character file, a form, a catalogue):

- characters no database can keep: NUL (U+0000; PostgreSQL text cannot hold it) and lone
  surrogates (not Unicode text at all, so not UTF-8);
- in names, the bidirectional controls (U+202A-U+202E, U+2066-U+2069), which make text
  display in another order than it is written: "gnp.exe" showing as "exe.png".
"""

import json

from rules.words import Phrase, say

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
# The keys under which a character file holds names, in any section, now or later.
NAME_KEYS = frozenset(("name", "player", "race"))


def unstorable_problem(text: str) -> Phrase | None:
    """Why `text` cannot be stored, or None (str() of it is the English)."""
    if "\x00" in text:
        return say("contains a NUL character (U+0000), which cannot be stored: remove it")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return say(
            "contains a lone surrogate (half of a UTF-16 pair), which is not text: remove it"
        )
    return None


def name_problem(text: str) -> Phrase | None:
    """Why `text` cannot be a name, or None."""
    problem = unstorable_problem(text)
    if problem is None and not BIDI_CONTROLS.isdisjoint(text):
        control = next(c for c in text if c in BIDI_CONTROLS)
        problem = say(
            "contains a text-direction control ({code}), which can make a name read "
            "backwards: remove it",
            code=f"U+{ord(control):04X}",
        )
    return problem


def first_text_problem(data) -> tuple[str, Phrase] | None:
    """The first string in parsed JSON that cannot be stored, or a name that cannot be a
    name, as (path, problem); paths read like `skills[2].name`. One pass, any section."""
    return None if _plainly_storable(data) else _walked_text_problem(data)


def _walked_text_problem(data) -> tuple[str, Phrase] | None:
    """first_text_problem by walking the data, every string and key with its path."""
    stack = [("", None, data)]
    while stack:
        where, key, value = stack.pop()
        if isinstance(value, str):
            problem = name_problem(value) if key in NAME_KEYS else unstorable_problem(value)
            if problem:
                return where, problem
        elif isinstance(value, dict):
            children = []
            for child_key, child in value.items():
                path = f"{where}.{_printable(child_key)}" if where else _printable(child_key)
                problem = unstorable_problem(child_key)
                if problem:
                    return path, say("the key {problem}", problem=problem)
                children.append((path, child_key, child))
            stack.extend(reversed(children))
        elif isinstance(value, list):
            items = [(f"{where}[{i}]", None, item) for i, item in enumerate(value)]
            stack.extend(reversed(items))
    return None


def _plainly_storable(data) -> bool:
    """Whether every string and key in `data` is plainly fine, seen at once in its JSON text
    (made in C): no NUL (which JSON writes \\u0000), and ASCII, or else UTF-8 (no lone
    surrogate) with no text-direction control anywhere. Walking the data in Python, and
    writing the path of every key on the way, was most of reading a character (issue 40):
    it is now done only when this says "look closer", and finds the problem and its path,
    or that there is none (a direction control outside a name, "\\u0000" written out)."""
    try:
        text = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # not JSON's values: the walk decides
        return False
    if "\\u0000" in text:
        return False
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return BIDI_CONTROLS.isdisjoint(text)


def _printable(key: str) -> str:
    return key.replace("\x00", "\\u0000").encode("utf-8", "backslashreplace").decode("utf-8")
