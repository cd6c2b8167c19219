"""`manage.py migrate`, as Django's, plus what every migrated database needs: the cache
table (throttling, config/settings.py CACHES) and, when DATABASE_OWNER_URL is set, running
as the owner by default and then granting the runtime role its rights on the tables."""

from django.conf import settings
from django.core.management import call_command
from django.core.management.commands import migrate

from characters.db_roles import OWNER_ALIAS, every_query_as_owner


class Command(migrate.Command):
    def add_arguments(self, parser):
        super().add_arguments(parser)
        # The runtime role may not create or alter tables: migrate as their owner.
        if OWNER_ALIAS in settings.DATABASES:
            parser.set_defaults(database=OWNER_ALIAS)

    def handle(self, *args, **options):
        if options["database"] == OWNER_ALIAS:
            with every_query_as_owner():
                super().handle(*args, **options)
        else:
            super().handle(*args, **options)
        if options["plan"] or options["check_unapplied"]:
            return  # nothing was migrated
        database = options["database"]
        # Quiet unless asked: it would say "already exists" on every run.
        call_command(
            "createcachetable", database=database, verbosity=max(options["verbosity"] - 1, 0)
        )
        if database == OWNER_ALIAS:
            call_command("setup_app_role", verbosity=options["verbosity"])
