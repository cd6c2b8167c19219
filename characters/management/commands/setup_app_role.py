"""`manage.py setup_app_role`: create the runtime role (DATABASE_URL's user) if it is missing
and grant it its rights on the tables, connected as their owner (DATABASE_OWNER_URL).
Idempotent; `manage.py migrate` runs it too. README, "Database roles"."""

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS

from characters.db_roles import OWNER_ALIAS, RoleSetupError, grant_runtime_role


class Command(BaseCommand):
    help = (
        "Create the runtime role of DATABASE_URL if needed and grant it SELECT, INSERT, "
        "UPDATE and DELETE on the app's tables (SELECT and INSERT only on the audit trail), "
        "connected as the owner of DATABASE_OWNER_URL. Safe to run again."
    )

    def handle(self, *args, **options):
        if OWNER_ALIAS not in settings.DATABASES:
            raise CommandError(
                "Set DATABASE_OWNER_URL to the role that owns the tables (and DATABASE_URL to "
                "the runtime role): README, 'Database roles'."
            )
        runtime = settings.DATABASES[DEFAULT_DB_ALIAS]
        try:
            done = grant_runtime_role(role=runtime["USER"], password=runtime["PASSWORD"] or None)
        except RoleSetupError as error:
            raise CommandError(str(error)) from None
        for line in done:
            self.stdout.write(line)
