"""`manage.py render_sheet FILE [FILE ...] -o OUT.pdf [--paper a4|letter]`: print character
files straight to one PDF, one sheet per file in the order given (docs/sheets.md).

A file carries no approval, so every sheet says "draft - not approved". Any unreadable file
stops the run before anything is written: one line on standard error, exit code 2.
"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from characters.pdf import PAPER_SIZES, render_sheets_pdf
from characters.sheets import build_sheet
from rules.charfile import CharacterFileError, parse_character_json
from rules.check import MAX_FILE_BYTES, MAX_PROBLEM_CHARS
from rules.house_rules import apply_house_rules
from rules.rulesets import BUILTIN

UNREADABLE = 2  # the exit code check_character gives an unreadable file, too


class Command(BaseCommand):
    help = (
        "Render character files as printable sheets in one PDF, one sheet per file. "
        "Exit code 2, with one line on standard error, if a file cannot be read."
    )
    requires_system_checks = []  # files in, a PDF out: no model or database involved

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="a character file")
        parser.add_argument(
            "-o", "--output", required=True, metavar="OUT.pdf", help="the PDF to write"
        )
        parser.add_argument("--paper", choices=sorted(PAPER_SIZES), default="a4")

    def handle(self, *args, files, output, paper, **options):
        sheets = []
        for path in files:
            character = _read_character(path)
            ruleset = apply_house_rules(BUILTIN[character.ruleset], character.house_rules)
            sheets.append(build_sheet(character, ruleset))
        document = render_sheets_pdf(sheets, paper)
        try:
            Path(output).write_bytes(document)
        except OSError as error:
            raise _unreadable(output, f"cannot write the PDF ({error.strerror or error})") from None
        count = f"{len(sheets)} sheet{'s' if len(sheets) != 1 else ''}"
        self.stdout.write(f"Wrote {output}: {count} on {paper} paper.")


def _read_character(path: str):
    try:
        with open(path, "rb") as file:
            content = file.read(MAX_FILE_BYTES + 1)
    except (OSError, ValueError) as error:  # ValueError: a NUL byte in the path
        reason = getattr(error, "strerror", None) or error
        raise _unreadable(path, f"cannot read the file ({reason})") from None
    if len(content) > MAX_FILE_BYTES:
        raise _unreadable(path, f"the file is larger than {MAX_FILE_BYTES // 2**20} MB")
    try:
        return parse_character_json(content).character
    except CharacterFileError as error:
        raise _unreadable(path, str(error)) from None


def _unreadable(path: str, problem: str) -> CommandError:
    # One line, however the file's text was laid out: a level "word" may hold line breaks.
    line = " ".join(f"{path}: {problem}".split())
    if len(line) > MAX_PROBLEM_CHARS:
        line = line[: MAX_PROBLEM_CHARS - 1] + "…"
    return CommandError(line, returncode=UNREADABLE)
