"""`manage.py audit_heads`: every audit chain's head (its newest event's id and MAC), as JSON
on standard output, to keep outside the database (README, "Database roles"). `manage.py
verify_audit --heads FILE` then reports any chain that no longer extends those heads: the
tables' owner, who can switch the triggers off, cut a chain short or rewrite it, cannot
change a file it never sees."""

import json

from django.core.management.base import BaseCommand
from django.utils import timezone

from characters.selectors.integrity import chain_heads


class Command(BaseCommand):
    help = (
        "Print every audit chain's head (chain, newest event id, its MAC) as JSON, to keep "
        "outside the database for `verify_audit --heads FILE`."
    )

    def handle(self, *args, **options):
        exported = {"exported_at": timezone.now().isoformat(), "heads": chain_heads()}
        self.stdout.write(json.dumps(exported, indent=1))
