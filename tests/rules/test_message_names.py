"""A name inside an engine message is marked for what it is (rules.words): a trait's or an
item's as a Name, which the reader's language says as the rows do ("Sens du danger" beside
a row that says it, not "Danger Sense"), a ruleset's as a Term. A bare `.name` handed to
`say` stays English on every page: the report, the ledger, a template's minimums and an
experience plan once said some that way."""

import ast
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2] / "rules"
MODULES = sorted(RULES.rglob("*.py"))
SAYING = {"say", "say_plural"}


def is_bare_name(value: ast.expr) -> bool:
    """`x.name`, or several of them (a tuple, a generator, ", ".join(...)), unmarked."""
    if isinstance(value, ast.Attribute):
        return value.attr == "name"
    if isinstance(value, ast.Tuple | ast.List):
        return any(is_bare_name(element) for element in value.elts)
    if isinstance(value, ast.GeneratorExp | ast.ListComp):
        return is_bare_name(value.elt)
    if isinstance(value, ast.Call) and getattr(value.func, "attr", None) == "join":
        return any(is_bare_name(argument) for argument in value.args)
    return False


def bare_names(source: str, filename: str) -> list[str]:
    """Each bare name handed to `say` in `source`: as a keyword, or in a dict of values
    that a `say` takes with **."""
    tree = ast.parse(source, filename)
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) in SAYING
    ]
    values = [(keyword.arg, keyword.value) for call in calls for keyword in call.keywords]
    splatted = {value.id for key, value in values if key is None and isinstance(value, ast.Name)}
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.value, ast.Dict)
            and any(getattr(target, "id", None) in splatted for target in node.targets)
        ):
            values += [
                (getattr(k, "value", None), v)
                for k, v in zip(node.value.keys, node.value.values, strict=True)
            ]
    return [
        f"{filename}:{value.lineno} {key}={ast.unparse(value)}"
        for key, value in values
        if key is not None and is_bare_name(value)
    ]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(RULES).as_posix())
def test_every_name_in_a_message_is_marked(path):
    assert bare_names(path.read_text(), str(path.relative_to(RULES))) == []


def test_the_walk_finds_a_bare_name_however_it_is_handed():
    source = (
        'say("Adding {name}", name=item.name)\n'
        'say("{names} are too many", names=", ".join(t.name for t in traits))\n'
        'values = {"name": bought.name}\n'
        'say("it raises {name}", **values)\n'
        'say("Adding {name}", name=Name(item.name), ruleset=Term(ruleset.name, "ruleset"))\n'
    )
    assert bare_names(source, "x.py") == [
        "x.py:1 name=item.name",
        "x.py:2 names=', '.join((t.name for t in traits))",
        "x.py:3 name=bought.name",
    ]
