"""`manage.py render_sheet FILE [FILE ...] -o OUT.pdf [--paper a4|letter] [--flat] [--reference]
[--pencil]`: print character files straight to one PDF, one sheet per file in the order
given (docs/sheets.md).

A file carries no approval, so every sheet says "Draft · not approved". Any unreadable file
stops the run before anything is written: one line on standard error, exit code 2.
"""

from pathlib import Path

from django.core.management.base import BaseCommand

from characters.management.charfiles import RULESET_HELP, read_path, read_rulesets, unreadable
from characters.pdf import PAPER_SIZES, PrintOptions, render_sheets_pdf
from characters.sheets import build_sheet, reference_page
from rules.charfile import parse_character_json
from rules.house_rules import apply_house_rules


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
        parser.add_argument(
            "--flat", action="store_true", help="a flat PDF, without form fields to fill in"
        )
        parser.add_argument(
            "--reference",
            action="store_true",
            help="add the trait ladder and cost tables, on a page of their own",
        )
        parser.add_argument(
            "--pencil",
            action="store_true",
            help="leave experience, points and wounds blank, for pencil play",
        )
        parser.add_argument(
            "--ruleset", action="append", default=[], metavar="RULESET.json", help=RULESET_HELP
        )

    def handle(self, *args, files, output, paper, flat, reference, pencil, ruleset, **options):
        rulesets = read_rulesets(ruleset, self.stderr)
        sheets, references = [], []
        for path in files:
            read = read_path(path, lambda text: parse_character_json(text, rulesets))
            character = read.character
            ruleset = apply_house_rules(read.ruleset, character.house_rules)
            sheets.append(build_sheet(character, ruleset))
            references.append(reference_page(ruleset))
        choice = PrintOptions(paper, fillable=not flat, reference=reference, pencil=pencil)
        document = render_sheets_pdf(sheets, choice, references)
        try:
            Path(output).write_bytes(document)
        except OSError as error:
            raise unreadable(output, f"cannot write the PDF ({error.strerror or error})") from None
        count = f"{len(sheets)} sheet{'s' if len(sheets) != 1 else ''}"
        self.stdout.write(f"Wrote {output}: {count} on {paper} paper.")
