from django.apps import AppConfig
from django.core import checks
from django.core.exceptions import ImproperlyConfigured


class CharactersConfig(AppConfig):
    name = "characters"
    verbose_name = "Fairsheet characters and campaigns"

    def ready(self):
        checks.register(audit_keys_check)


def audit_keys_check(app_configs, **kwargs):
    """A malformed DJANGO_AUDIT_KEY or DJANGO_AUDIT_OLD_KEYS stops `manage.py check` and
    `migrate`, not the first write of an event."""
    from characters.audit_chain import audit_keys

    try:
        audit_keys()
    except ImproperlyConfigured as error:
        return [checks.Error(str(error), id="characters.E001")]
    return []
