"""Every reader of a file from outside (the character file, the ruleset file, a Foundry actor)
answers a value of the wrong shape anywhere in it with its own error or an import note, never
a crash: a list or an object where a word or a number belongs is unhashable, so a table lookup
on it raises a TypeError, a 500 on the page that imports it."""

import copy
import json

import pytest

from rules.charfile import CharacterFileError, read_character
from rules.foundry import read_actor
from rules.ruleset_file import RulesetFileError, read_ruleset, ruleset_to_json
from rules.rulesets import BUILTIN
from tests.rules.test_charfile import SAMPLE_DIR
from tests.rules.test_foundry import FOUNDRY_MADE, export, read

WRONG_SHAPES = [[], ["gifts"], {}, {"list": "gifts"}, None, 7, "x"]


def leaf_paths(value, path=()):
    """Every place in a JSON document that holds a value, as a path of keys and indexes."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from leaf_paths(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from leaf_paths(inner, (*path, index))
    yield path


def distinct_paths(document):
    """leaf_paths, one per place in the file's shape: a list's entries of one kind (the
    catalogue's skills, its powers) are read by one branch of the reader, so the first entry
    of each kind at each place stands for the rest."""
    seen = set()
    for path in leaf_paths(document):
        shape, parent = [], document
        for key in path:
            value = parent[key]
            kind = value.get("kind") if isinstance(value, dict) else None
            shape.append((0, kind) if isinstance(key, int) else key)
            parent = value
        if (shape := tuple(shape)) not in seen:
            seen.add(shape)
            yield path


def replaced(document, path, value):
    """`document` with `value` at `path`: the lists and objects on the path are copied, the
    rest is shared with `document` (a whole copy of a ruleset for each of its thousands of
    places was a quarter of the walk). The test checks that no reader changed what it shares."""
    if not path:
        return value
    head, *rest = path
    copied = copy.copy(document)
    copied[head] = replaced(document[head], rest, value)
    return copied


def brogo_file():
    return json.loads((SAMPLE_DIR / "brogo.json").read_text())


READERS = {
    "character file": (read_character, CharacterFileError, brogo_file),
    "ruleset file, mudge": (
        read_ruleset,
        RulesetFileError,
        lambda: ruleset_to_json(BUILTIN["mudge"]),
    ),
    "ruleset file, dip": (
        read_ruleset,
        RulesetFileError,
        lambda: ruleset_to_json(BUILTIN["microfudged-dip"]),
    ),
    "foundry actor, exported": (read_actor, CharacterFileError, lambda: export(read("brogo"))),
    "foundry actor, made in foundry": (read_actor, CharacterFileError, lambda: FOUNDRY_MADE),
}


@pytest.mark.parametrize("reader", READERS)
def test_a_value_of_any_shape_anywhere_is_read_or_refused_never_raised(reader):
    read_file, refusal, document = READERS[reader]
    document = document()
    untouched = copy.deepcopy(document)
    crashes = []
    for path in distinct_paths(document):
        for wrong in WRONG_SHAPES:
            try:
                read_file(replaced(document, path, wrong))
            except refusal:
                pass
            except Exception as error:  # what this test exists to find
                crashes.append(f"{'.'.join(map(str, path))} = {wrong!r}: {error!r}")
    assert crashes == []
    assert document == untouched  # the shared parts were read, never written


def test_the_walk_reaches_every_value():
    paths = set(leaf_paths({"a": [1, {"b": 2}]}))
    assert paths == {(), ("a",), ("a", 0), ("a", 1), ("a", 1, "b")}
