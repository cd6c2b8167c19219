"""`manage.py check_character FILE [FILE ...] [--ruleset RULESET.json ...]`: the build report
of each character file (docs/character-file.md), against a built-in ruleset or a designed one
(docs/ruleset-file.md). The checking itself is rules.check, shared with the HTTP endpoint."""

import json
import sys

from django.core.management.base import BaseCommand

from characters.management.charfiles import RULESET_HELP, read_rulesets
from rules.check import UNREADABLE, check_file


class Command(BaseCommand):
    help = (
        "Check character files against their rulesets. One file: its build report as JSON. "
        "Several: one report a line (JSON Lines), each with a 'file' key. Exit code 0 valid, "
        "1 breaks a rule, 2 unreadable (the highest of all files)."
    )
    # It reads files and uses no model or database: the project checks only slow it down.
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", metavar="FILE", help="a character file")
        parser.add_argument(
            "--ruleset",
            action="append",
            default=[],
            metavar="RULESET.json",
            help=RULESET_HELP,
        )

    def handle(self, *args, files, ruleset, **options):
        rulesets = read_rulesets(ruleset, self.stderr)
        exit_code = 0
        for path in files:
            result = check_file(path, rulesets)
            exit_code = max(exit_code, result.exit_code)
            if result.exit_code == UNREADABLE:
                self.stderr.write(f"{path}: {result.problem}")
            # ASCII output: names written in any script (even a lone surrogate a JSON
            # file may carry) cannot fail to encode, whatever the terminal's encoding.
            if len(files) > 1:
                self.stdout.write(json.dumps({"file": path, **result.report}))
            elif result.exit_code != UNREADABLE:
                self.stdout.write(json.dumps(result.report, indent=2))
        if exit_code:
            sys.exit(exit_code)
