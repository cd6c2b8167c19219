"""`manage.py verify_audit`: check every audit chain and every approved build (issue 31).
Prints each break, where and what, and exits 1 if there is any; 0 and one line if none.
With `--heads FILE` (what `manage.py audit_heads` wrote), also every chain that no longer
extends its head there."""

import json

from django.core.management.base import BaseCommand, CommandError

from characters.selectors.integrity import audit_breaks


class Command(BaseCommand):
    help = (
        "Check that no event of the audit trails was changed, deleted or written without the "
        "audit key (each carries the hash of the one before and a MAC), that every event's "
        "character or campaign is there, and that every approved character's build is the "
        "one its trail records. Exits 1 on any break, listing each."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--heads",
            metavar="FILE",
            help="the chains' heads as `manage.py audit_heads` exported them: report every "
            "chain that no longer extends its head there",
        )

    def handle(self, *args, heads=None, **options):
        exported = _read_heads(heads) if heads else None
        breaks = 0
        for found in audit_breaks(exported):
            breaks += 1
            self.stdout.write(str(found))
        if breaks:
            raise CommandError(
                f"The audit trail does not hold: {breaks} break{'s' if breaks != 1 else ''} "
                "(listed above).",
                returncode=1,
            )
        checked = " and the heads exported" if heads else ""
        self.stdout.write(
            f"The audit trail holds: every chain{checked} and every approved build checks out."
        )


def _read_heads(path: str) -> list[dict]:
    try:
        with open(path, encoding="utf-8") as file:
            heads = json.load(file)["heads"]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise CommandError(
            f"{path} is not a head export of `manage.py audit_heads`: {error}", returncode=2
        ) from error
    if not isinstance(heads, list) or not all(isinstance(head, dict) for head in heads):
        raise CommandError(f"{path} is not a head export of `manage.py audit_heads`.", returncode=2)
    return heads
