from django.apps import AppConfig
from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import request_started
from django.db.models.signals import post_delete, post_migrate, pre_migrate


class CharactersConfig(AppConfig):
    name = "characters"
    verbose_name = "Fairsheet characters and campaigns"

    def ready(self):
        checks.register(audit_keys_check)
        # SQLite drops a table's triggers when a migration rebuilds it: every migrate puts
        # back the protective ones (PostgreSQL keeps them; these do nothing there).
        pre_migrate.connect(_triggers_release, sender=self, dispatch_uid="triggers_release")
        post_migrate.connect(_triggers_reinstall, sender=self, dispatch_uid="triggers_reinstall")
        from characters.languages import drop_empty_fallbacks

        # At each request, not now: the catalogues are read once and kept, and a process
        # that compiles them (manage.py compilemessages, the tests' set-up) has started
        # Django before the files exist.
        request_started.connect(
            drop_empty_fallbacks, weak=False, dispatch_uid="drop_empty_fallbacks"
        )
        from characters.models import PackJob

        # However a pack is deleted (pruned, or with its campaign), its file goes too.
        post_delete.connect(
            _pack_file_delete, sender=PackJob, weak=False, dispatch_uid="pack_file_delete"
        )


# characters.db_triggers is imported by a migrate or a flush that needs it, not at every
# process start (its trigger table is 1.9 ms of each `manage.py` command's and worker's start).
def _triggers_release(**kwargs):
    from characters import db_triggers

    db_triggers.release(**kwargs)


def _triggers_reinstall(**kwargs):
    from characters import db_triggers

    return db_triggers.reinstall(**kwargs)


def _pack_file_delete(instance, **_):
    # Imported here, not at start-up: the printing services bring WeasyPrint, half a second
    # of every `manage.py` command's start (check_character's among them) for no pack.
    from characters.services.printing import pack_file_delete

    pack_file_delete(job=instance)


def audit_keys_check(app_configs, **kwargs):
    """A malformed DJANGO_AUDIT_KEY or DJANGO_AUDIT_OLD_KEYS stops `manage.py check` and
    `migrate`, not the first write of an event."""
    from characters.audit_chain import audit_keys

    try:
        audit_keys()
    except ImproperlyConfigured as error:
        return [checks.Error(str(error), id="characters.E001")]
    return []
