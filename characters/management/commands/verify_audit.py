"""`manage.py verify_audit`: check every audit chain and every approved build (issue 31).
Prints each break, where and what, and exits 1 if there is any; 0 and one line if none."""

from django.core.management.base import BaseCommand, CommandError

from characters.selectors.integrity import audit_breaks


class Command(BaseCommand):
    help = (
        "Check that no event of the audit trails was changed or deleted (each carries the "
        "hash of the one before) and that every approved character's build is the one its "
        "trail records. Exits 1 on any break, listing each."
    )

    def handle(self, *args, **options):
        breaks = 0
        for found in audit_breaks():
            breaks += 1
            self.stdout.write(str(found))
        if breaks:
            raise CommandError(
                f"The audit trail does not hold: {breaks} break{'s' if breaks != 1 else ''} "
                "(listed above).",
                returncode=1,
            )
        self.stdout.write("The audit trail holds: every chain and every approved build checks out.")
