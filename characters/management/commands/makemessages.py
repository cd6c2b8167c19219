"""`manage.py makemessages`, as Django's, plus the rules engine's markers: `say` and
`say_plural` (rules.words) mark the engine's English templates for the catalogue, as gettext
marks Django's (docs/translations.md). The tests and benchmarks hold no text for people.

    .venv/bin/python manage.py makemessages -l fr -l es
"""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=say",
        "--keyword=say_plural:1,2",
    ]

    def handle(self, *args, **options):
        options["ignore_patterns"] = [*options["ignore_patterns"], "tests/*", "bench/*"]
        super().handle(*args, **options)
