"""`manage.py makemessages`, as Django's, plus the rules engine's markers: `say` and
`say_plural` (rules.words) mark the engine's English templates for the catalogue, as gettext
marks Django's (docs/translations.md). The tests and benchmarks hold no text for people.

It also writes the rules content catalogue: locale/rules.pot from every built-in text
(rules.content), merged into each language's locale/<language>/LC_MESSAGES/rules.po, new
entries empty and changed ones fuzzy, as Django's own catalogue is.

    .venv/bin/python manage.py makemessages -l fr -l es -l de
"""

import subprocess
from pathlib import Path

from django.conf import settings
from django.core.management.commands import makemessages

from characters.rules_content import DOMAIN
from rules.content import entries


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=say",
        "--keyword=say_plural:1,2",
    ]

    def handle(self, *args, **options):
        options["ignore_patterns"] = [*options["ignore_patterns"], "tests/*", "bench/*"]
        super().handle(*args, **options)
        locale_dir = Path(settings.LOCALE_PATHS[0])
        template = locale_dir / f"{DOMAIN}.pot"
        template.write_text(rules_template(), encoding="utf-8")
        languages = options["locale"] or []
        if options["all"]:
            languages = sorted(p.parent.name for p in locale_dir.glob("*/LC_MESSAGES"))
        for language in languages:
            merge_rules_catalogue(locale_dir / language / "LC_MESSAGES", template, language)


TEMPLATE_SAYS = (
    "the\n# template manage.py makemessages writes; each language's rules.po translates it."
)
LANGUAGE_SAYS = (
    "in {language}:\n# merged from locale/rules.pot by manage.py makemessages; "
    "translate the msgstr lines."
)


def rules_template() -> str:
    """The rules content catalogue's template: one entry per built-in text, its context
    saying whether it is a name or a text, a comment saying what it is."""
    lines = [
        "# The rules content of Fairsheet's built-in rulesets (rules/content.py): the",
        "# template manage.py makemessages writes; each language's rules.po translates it.",
        'msgid ""',
        'msgstr ""',
        '"Project-Id-Version: Fairsheet rules content\\n"',
        '"Report-Msgid-Bugs-To: \\n"',
        '"PO-Revision-Date: YEAR-MO-DA HO:MI+ZONE\\n"',
        '"Last-Translator: Fairsheet\\n"',
        '"Language-Team: Fairsheet\\n"',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        '"Content-Transfer-Encoding: 8bit\\n"',
        "",
    ]
    for entry in entries():
        lines += [
            f"#. {entry.what}",
            f"msgctxt {_quoted(entry.context)}",
            f"msgid {_quoted(entry.english)}",
            'msgstr ""',
            "",
        ]
    return "\n".join(lines)


def merge_rules_catalogue(directory: Path, template: Path, language: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    catalogue = directory / f"{DOMAIN}.po"
    if catalogue.exists():
        subprocess.run(
            [
                "msgmerge",
                "--quiet",
                "--update",
                "--backup=none",
                "--no-wrap",
                "--previous",
                str(catalogue),
                str(template),
            ],
            check=True,
        )
        subprocess.run(
            ["msgattrib", "--no-obsolete", "--no-wrap", "-o", str(catalogue), str(catalogue)],
            check=True,
        )
    else:  # a new language: the template, said to be that language's
        header = (
            f'"Language: {language}\\n"\n"MIME-Version: 1.0\\n"\n'
            '"Content-Type: text/plain; charset=UTF-8\\n"\n'
            '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"\n'
        )
        text = template.read_text(encoding="utf-8")
        text = text.replace('"Content-Type: text/plain; charset=UTF-8\\n"\n', header, 1)
        text = text.replace(TEMPLATE_SAYS, LANGUAGE_SAYS.format(language=language), 1)
        catalogue.write_text(text, encoding="utf-8")


def _quoted(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'
