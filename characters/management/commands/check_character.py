"""`manage.py check_character FILE [FILE ...] [--ruleset RULESET.json ...] [--lang fr]`: the
build report of each character file (docs/character-file.md), against a built-in ruleset or
a designed one (docs/ruleset-file.md). The checking itself is rules.check, shared with the
HTTP endpoint. The messages are English (the report is a public contract) unless --lang asks
for another of the site's languages; codes and section numbers never change."""

import json
import sys
from contextlib import nullcontext

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from characters.management.charfiles import RULESET_HELP, read_rulesets
from characters.wording import SPEAKER
from rules.check import UNREADABLE, check_file
from rules.words import ENGLISH


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
        parser.add_argument(
            "--lang",
            metavar="LANGUAGE",
            help="the language of the messages: "
            + ", ".join(code for code, _ in settings.LANGUAGES)
            + " (English when not given)",
        )

    def handle(self, *args, files, ruleset, lang, **options):
        if lang is None:
            speaker, language = ENGLISH, nullcontext()
        else:
            try:
                code = translation.get_supported_language_variant(lang)
            except LookupError:
                raise CommandError(
                    f"--lang {lang}: use one of "
                    + ", ".join(code for code, _ in settings.LANGUAGES),
                    returncode=2,  # a usage error, as argparse's are
                ) from None
            speaker, language = SPEAKER, translation.override(code)
        rulesets = read_rulesets(ruleset, self.stderr)
        exit_code = 0
        with language:
            for path in files:
                exit_code = max(exit_code, self.check(path, rulesets, speaker, len(files) > 1))
        if exit_code:
            sys.exit(exit_code)

    def check(self, path, rulesets, speaker, several: bool) -> int:
        """Prints one file's report; returns its exit code."""
        result = check_file(path, rulesets, speaker)
        if result.exit_code == UNREADABLE:
            self.stderr.write(f"{path}: {result.problem}")
        # ASCII output: names written in any script (even a lone surrogate a JSON file may
        # carry) cannot fail to encode, whatever the terminal's encoding.
        if several:
            self.stdout.write(json.dumps({"file": path, **result.report}))
        elif result.exit_code != UNREADABLE:
            self.stdout.write(json.dumps(result.report, indent=2))
        return result.exit_code
