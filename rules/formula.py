"""A derived value's formula (docs/ruleset-file.md, "derived"): a small expression language a
GM writes in the designer, such as `level("Constitution") + scale("Strength") + 3`.

It is parsed with Python's own parser and then every node is checked against a short list
of what is allowed (whole and decimal numbers, + - * / //, brackets, a few functions, the
game's names); nothing is ever run with `eval`. A formula cannot loop, raise to a power or
grow without bound: it is at most MAX_LENGTH characters and every step's value is kept
within MAX_VALUE, so working one out is a few microseconds whatever the GM writes.
"""

import ast
import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from rules.words import Phrase, say

MAX_LENGTH = 200
MAX_VALUE = 1_000_000
# What scale() takes: the character's Scale (Mudge 2.34), of Strength or of Mass.
SCALES = ("strength", "mass")
# function -> (fewest arguments, most): level and has take one name, in quotes.
FUNCTIONS = {
    "level": (1, 1),  # a trait's level, Fair 0: an attribute, skill or power
    "has": (1, 1),  # 1 when the character has the gift, fault, skill or power, else 0
    "scale": (1, 1),  # the character's Scale: scale("Strength"), scale("Mass")
    "min": (2, 10),
    "max": (2, 10),
    "abs": (1, 1),
    "floor": (1, 1),
    "ceil": (1, 1),
}
NAME_FUNCTIONS = ("level", "has", "scale")
_OPERATORS = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: Fraction(math.floor(a / b)),
}


class FormulaError(ValueError):
    """A formula that cannot be used, or worked out: `phrase` says why, for the GM."""

    def __init__(self, phrase: Phrase):
        self.phrase = phrase
        super().__init__(str(phrase))


@dataclass(frozen=True)
class Formula:
    """A checked formula: its text, its parsed tree, and the names it reads."""

    text: str
    tree: ast.expr
    keys: frozenset[str]  # the derived values it reads
    traits: frozenset[str]  # the names level() and has() ask about


# A game's few formulas are read on every page that shows its derived values, twice each
# (rules.derived's reading order, then the values): parsed once per process instead. A
# Formula is never changed once made; a refused text is not kept and raises again.
@functools.lru_cache(maxsize=1024)
def parse_formula(text: str) -> Formula:
    """`text` checked, or FormulaError saying what is wrong and where."""
    text = text.strip()
    if not text:
        raise FormulaError(say("must not be empty"))
    if len(text) > MAX_LENGTH:
        raise FormulaError(
            say(
                "is {count} characters long; the most is {limit}", count=len(text), limit=MAX_LENGTH
            )
        )
    try:
        tree = ast.parse(text, mode="eval").body
    except SyntaxError as error:
        raise FormulaError(
            say(
                "cannot be read at character {column}: check its brackets and signs",
                column=error.offset or 1,
            )
        ) from None
    keys: set[str] = set()
    traits: set[str] = set()
    _check(tree, keys, traits)
    return Formula(text, tree, frozenset(keys), frozenset(traits))


def _check(node, keys: set, traits: set) -> None:
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, int | float):
            raise FormulaError(
                say(
                    "{value} is not a number: a name goes in quotes inside level() or has()",
                    value=repr(node.value),
                )
            )
        return
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        _check(node.left, keys, traits)
        _check(node.right, keys, traits)
        if isinstance(node.op, ast.Div | ast.FloorDiv) and _is_zero(node.right):
            raise FormulaError(say("divides by zero"))
        return
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        _check(node.operand, keys, traits)
        return
    if isinstance(node, ast.Name):
        keys.add(node.id)
        return
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        _check_call(node, keys, traits)
        return
    raise FormulaError(
        say(
            "'{part}' is not allowed: use numbers, + - * / //, brackets, names and {functions}",
            part=ast.unparse(node)[:40],
            functions=", ".join(f"{f}()" for f in FUNCTIONS),
        )
    )


def _check_call(node: ast.Call, keys: set, traits: set) -> None:
    name = node.func.id
    if name not in FUNCTIONS:
        raise FormulaError(
            say(
                "{name}() is not a function here: use {functions}",
                name=name,
                functions=", ".join(f"{f}()" for f in FUNCTIONS),
            )
        )
    fewest, most = FUNCTIONS[name]
    if node.keywords or not fewest <= len(node.args) <= most:
        raise FormulaError(
            say(
                "{name}() takes from {fewest} to {most} values", name=name, fewest=fewest, most=most
            )
            if fewest != most
            else say("{name}() takes {count} value", name=name, count=fewest)
        )
    if name in NAME_FUNCTIONS:
        arg = node.args[0]
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.strip()):
            raise FormulaError(
                say('{name}() takes a name in quotes: {name}("Strength")', name=name)
            )
        if name == "scale":
            if arg.value.strip().casefold() not in SCALES:
                raise FormulaError(say('scale() takes "Strength" or "Mass"'))
            return
        traits.add(arg.value.strip())
        return
    for arg in node.args:
        _check(arg, keys, traits)


def _is_zero(node) -> bool:
    return isinstance(node, ast.Constant) and node.value == 0


class Scope(Protocol):
    """What a formula's names mean for one character (rules.derived makes one)."""

    def level(self, name: str) -> int: ...

    def has(self, name: str) -> bool: ...

    def scale(self, kind: str) -> int:
        """The character's Scale of "strength" or "mass"."""
        ...

    def value(self, name: str) -> Fraction:
        """A derived value's key."""
        ...


def evaluate(formula: Formula, scope: Scope) -> Fraction:
    """The formula's value for `scope`, exactly (a Fraction), or FormulaError (a division by
    zero the character's numbers make, a value past MAX_VALUE)."""
    return _value(formula.tree, scope)


def _value(node, scope: Scope) -> Fraction:
    if isinstance(node, ast.Constant):
        result = Fraction(str(node.value))
    elif isinstance(node, ast.BinOp):
        left, right = _value(node.left, scope), _value(node.right, scope)
        if isinstance(node.op, ast.Div | ast.FloorDiv) and right == 0:
            raise FormulaError(say("divides by zero"))
        result = _OPERATORS[type(node.op)](left, right)
    elif isinstance(node, ast.UnaryOp):
        operand = _value(node.operand, scope)
        result = -operand if isinstance(node.op, ast.USub) else operand
    elif isinstance(node, ast.Name):
        result = Fraction(scope.value(node.id))
    else:
        result = _call(node, scope)
    if abs(result) > MAX_VALUE:
        raise FormulaError(say("is past {limit}", limit=MAX_VALUE))
    return result


def _call(node: ast.Call, scope: Scope) -> Fraction:
    name = node.func.id
    if name == "level":
        return Fraction(scope.level(node.args[0].value.strip()))
    if name == "has":
        return Fraction(int(scope.has(node.args[0].value.strip())))
    if name == "scale":
        return Fraction(scope.scale(node.args[0].value.strip().casefold()))
    values = [_value(arg, scope) for arg in node.args]
    if name == "min":
        return min(values)
    if name == "max":
        return max(values)
    if name == "abs":
        return abs(values[0])
    if name == "floor":
        return Fraction(math.floor(values[0]))
    return Fraction(math.ceil(values[0]))
