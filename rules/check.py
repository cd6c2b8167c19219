"""Check a character file: the build report and the exit code the contract gives it
(spec: character-file.md). `manage.py check_character` and the HTTP check endpoint share it.

Nothing a file holds makes these functions raise: a file that cannot be read (missing,
a directory, too big, not JSON, an unknown ruleset or level word, a wrong type) gives an
`unreadable` report and one line saying what and where.

The messages are English unless a `speaker` (rules.words) says them in another language:
`check_character --lang` and the endpoint's Accept-Language pass characters.wording's.
"""

import os
from collections.abc import Mapping
from dataclasses import dataclass

from rules.charfile import CharacterFileError, load_json, parse_character_json
from rules.foundry import is_actor, read_actor
from rules.house_rules import apply_house_rules
from rules.report import Issue, build_report
from rules.rulesets import BUILTIN, Ruleset
from rules.words import ENGLISH, say, say_in

VALID = 0
BREAKS_A_RULE = 1
UNREADABLE = 2

# Far above any real character (the longest legal file holds about 2 million characters of
# text), low enough that a disk image passed by mistake is refused before it is read.
MAX_FILE_BYTES = 16 * 1024 * 1024
# A message quotes what the file holds; a 10 MB level "word" must not become a 10 MB line.
MAX_PROBLEM_CHARS = 300
FILE_SECTION = "Fairsheet character file"


@dataclass(frozen=True)
class CheckResult:
    report: dict  # the build report's JSON form, or the unreadable report
    exit_code: int  # VALID, BREAKS_A_RULE or UNREADABLE
    problem: str = ""  # unreadable only: "skills[2].level: 'Goood' is not a level: ..."


def check_text(
    text: str | bytes, rulesets: Mapping[str, Ruleset] | None = None, speaker=ENGLISH
) -> CheckResult:
    """Check a character file's content (bytes may be UTF-8, -16 or -32, BOM or not)
    against the ruleset it names: a built-in, one of `rulesets` (designed ones, by slug), or
    the ruleset file it carries."""
    try:
        data = load_json(text)
        if is_actor(data):
            return _check_actor(data, rulesets or {}, speaker)
        result = parse_character_json(text, rulesets)
    except CharacterFileError as error:
        return unreadable(error.where, say_in(error.problem, speaker))
    character = result.character
    # The reader has already refused house rules that do not apply.
    ruleset = apply_house_rules(result.ruleset, character.house_rules)
    report = build_report(character, ruleset, result.ignored)
    return CheckResult(report.to_json(speaker), VALID if report.valid else BREAKS_A_RULE)


def _check_actor(data: dict, rulesets: Mapping[str, Ruleset], speaker) -> CheckResult:
    """A Foundry actor is checked as it would import (docs/foundry.md): the build report of
    the character it becomes, with what the import would not keep (`not_mapped`). Without
    Fairsheet's flags it is priced as Fudge Basics, as an import with no campaign is."""
    imported = read_actor(data, rulesets=rulesets)
    character = imported.character
    base = rulesets.get(character.ruleset) or BUILTIN[character.ruleset]
    report = build_report(character, apply_house_rules(base, character.house_rules))
    not_mapped = [say_in(line, speaker) for line in imported.phrases or imported.not_mapped]
    json = report.to_json(speaker) | {"source": "foundry", "not_mapped": not_mapped}
    return CheckResult(json, VALID if report.valid else BREAKS_A_RULE)


def check_file(
    path: str | os.PathLike, rulesets: Mapping[str, Ruleset] | None = None, speaker=ENGLISH
) -> CheckResult:
    """Read and check a file; a path that cannot be read is an unreadable file."""
    try:
        content = read_file(path)
    except CharacterFileError as error:
        return unreadable(error.where, say_in(error.problem, speaker))
    return check_text(content, rulesets, speaker)


def read_file(path: str | os.PathLike) -> bytes:
    """A file's bytes, or CharacterFileError: missing, a directory, over MAX_FILE_BYTES."""
    try:
        with open(path, "rb") as file:
            content = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise CharacterFileError(
            "", say("cannot read the file ({error})", error=error.strerror or str(error))
        ) from None
    except ValueError as error:  # a path with a NUL byte in it
        raise CharacterFileError(
            "", say("cannot read the file ({error})", error=str(error))
        ) from None
    if len(content) > MAX_FILE_BYTES:
        raise CharacterFileError(
            "", say("the file is larger than {size} MB", size=MAX_FILE_BYTES // 2**20)
        )
    return content


def unreadable(where: str, message: str) -> CheckResult:
    where, message = _one_line(where), _one_line(message)
    issue = Issue("unreadable", message, FILE_SECTION, where=where or None)
    report = {"valid": False, "errors": [issue.to_json()], "warnings": []}
    return CheckResult(report, UNREADABLE, f"{where}: {message}" if where else message)


def _one_line(text: str) -> str:
    text = " ".join(text.split())
    if len(text) > MAX_PROBLEM_CHARS:
        return text[: MAX_PROBLEM_CHARS - 1] + "…"
    return text
