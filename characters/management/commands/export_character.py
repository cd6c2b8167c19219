"""`manage.py export_character FILE --to foundry|fairsheet [-o OUT]`: a character file as a
Foundry VTT actor for the fudge-rpg system, or a Foundry actor back as a character file
(docs/foundry.md). The input's format is told from its shape."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from characters.management.charfiles import read_path, read_rulesets, unreadable
from rules.charfile import character_file_with_ruleset, write_character
from rules.foundry import FAIRSHEET, FOUNDRY, parse_any, write_actor


class Command(BaseCommand):
    help = (
        "Convert a character file (or a Foundry actor of the fudge-rpg system) to a Foundry "
        "actor (--to foundry) or a Fairsheet character file (--to fairsheet). Prints the "
        "JSON, or writes it with -o. What an actor holds that Fairsheet cannot keep is listed "
        "on standard error. Exit code 2 if the file cannot be read."
    )
    requires_system_checks = []  # a file in, a file out: no model or database involved

    def add_arguments(self, parser):
        parser.add_argument("file", metavar="FILE", help="a character file or a Foundry actor")
        parser.add_argument("--to", required=True, choices=(FOUNDRY, FAIRSHEET))
        parser.add_argument("-o", "--output", metavar="OUT", help="write here, not to stdout")
        parser.add_argument(
            "--ruleset",
            metavar="RULESET.json",
            help="a ruleset file (docs/ruleset-file.md): the ruleset of an actor that names "
            "none, and of a file that names its slug; a Fairsheet file written carries it",
        )

    def handle(self, *args, file, to, output, ruleset, **options):
        rulesets = read_rulesets([ruleset] if ruleset else [], self.stderr)
        designed = next(iter(rulesets.values()), None)
        options = {"rulesets": rulesets}
        if designed is not None:
            options["default_ruleset"] = designed.slug
        imported = read_path(file, lambda text: parse_any(text, **options))
        for problem in imported.not_mapped:
            self.stderr.write(f"{file}: not mapped: {problem}")
        character = imported.character
        designed = rulesets.get(character.ruleset)
        if to == FOUNDRY:
            data = write_actor(character, ruleset=designed, image=imported.image)
        elif designed is not None:
            data = character_file_with_ruleset(character, designed)
        else:
            data = write_character(character)
        if output is None:
            # ASCII, as check_character prints: any terminal shows it, any JSON reader reads it.
            self.stdout.write(json.dumps(data, indent=2))
            return
        try:
            Path(output).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        except OSError as error:
            raise unreadable(output, f"cannot write the file ({error.strerror or error})") from None
        what = "a Foundry actor (fudge-rpg)" if to == FOUNDRY else "a Fairsheet character file"
        self.stdout.write(f"Wrote {output}: {imported.character.name} as {what}.")
