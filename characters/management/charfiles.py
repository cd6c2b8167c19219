"""Reading character files for the commands: one line on standard error and exit code 2 for
a file that cannot be read, as `check_character` does (docs/character-file.md)."""

from django.core.management.base import CommandError

from rules.charfile import CharacterFileError, parse_character_json
from rules.check import MAX_PROBLEM_CHARS, UNREADABLE, read_file
from rules.ruleset_file import RulesetFileError, parse_ruleset_json
from rules.rulesets import Ruleset

RULESET_HELP = "a ruleset file (docs/ruleset-file.md) characters may name by its slug; repeatable"


def read_path(path: str, parse=parse_character_json):
    """`parse` applied to the file's bytes (a character file's by default)."""
    try:
        return parse(read_file(path))
    except CharacterFileError as error:
        raise unreadable(path, str(error)) from None


def unreadable(path: str, problem: str) -> CommandError:
    # One line, however the file's text was laid out: a level "word" may hold line breaks.
    line = " ".join(f"{path}: {problem}".split())
    if len(line) > MAX_PROBLEM_CHARS:
        line = line[: MAX_PROBLEM_CHARS - 1] + "…"
    return CommandError(line, returncode=UNREADABLE)


def read_rulesets(paths: list[str], stderr) -> dict[str, Ruleset]:
    """The ruleset files at `paths`, by slug; one that cannot be used stops the command with
    exit code 2 and each of its problems on a line of `stderr`."""
    rulesets = {}
    for path in paths:
        try:
            designed = parse_ruleset_json(read_file(path))
        except CharacterFileError as error:
            raise unreadable(path, str(error)) from None
        except RulesetFileError as error:
            *first, (where, message) = error.problems  # every problem, in the file's order
            for at, problem in first:
                stderr.write(" ".join(f"{path}: {at}: {problem}".split()))
            raise unreadable(path, f"{where}: {message}" if where else message) from None
        rulesets[designed.slug] = designed
    return rulesets
