"""The ruleset file, version 1 (docs/ruleset-file.md): a Ruleset as JSON, so a GM can design
a game of their own and share it, and a built-in ruleset is the same file
(`manage.py export_ruleset mudge`).

`ruleset_to_json` writes every field of a Ruleset; `read_ruleset` is its inverse
(read(write(r)) == r for every built-in) and refuses nonsense with every problem at once, each
with the field it is in and the reason: RulesetFileError.problems. The budgets and limits sit
under the keys house rules use (rules/house_rules.py) and are read by the same code, so a GM
who knows one knows the other.
"""

from rules.ruleset_file.file_format import FORMAT, RulesetFileError
from rules.ruleset_file.reading import parse_ruleset_json, read_ruleset, ruleset_problems
from rules.ruleset_file.writing import (
    blank_ruleset_file,
    dumps_ruleset,
    move_to_ladder,
    ruleset_to_json,
)

__all__ = [
    "FORMAT",
    "RulesetFileError",
    "blank_ruleset_file",
    "dumps_ruleset",
    "move_to_ladder",
    "parse_ruleset_json",
    "read_ruleset",
    "ruleset_problems",
    "ruleset_to_json",
]
