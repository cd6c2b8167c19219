"""`manage.py export_ruleset SLUG [-o OUT]`: a built-in ruleset as a ruleset file
(docs/ruleset-file.md), the same file a GM designs a game in: loading it back gives the
same ruleset, and every character the same report."""

from pathlib import Path

from django.core.management.base import BaseCommand

from characters.management.charfiles import unreadable
from rules.ruleset_file import dumps_ruleset
from rules.rulesets import BUILTIN


class Command(BaseCommand):
    help = (
        "Write a built-in ruleset as a Fairsheet ruleset file (format fairsheet.ruleset/1): "
        "to stdout, or to OUT with -o."
    )
    requires_system_checks = []  # rules data in, a file out: no model or database involved

    def add_arguments(self, parser):
        parser.add_argument("slug", metavar="SLUG", choices=list(BUILTIN), help="a ruleset")
        parser.add_argument("-o", "--output", metavar="OUT", help="write here, not to stdout")

    def handle(self, *args, slug, output, **options):
        text = dumps_ruleset(BUILTIN[slug])
        if output is None:
            self.stdout.write(text, ending="")
            return
        try:
            Path(output).write_text(text)
        except OSError as error:
            raise unreadable(output, f"cannot write the file ({error.strerror or error})") from None
        self.stdout.write(f"Wrote {output}: {BUILTIN[slug].name} as a ruleset file.")
