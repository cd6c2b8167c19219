from django.apps import AppConfig
from django.db.models.signals import post_delete


class CharactersConfig(AppConfig):
    name = "characters"
    verbose_name = "Fairsheet characters and campaigns"

    def ready(self):
        from characters.models import PackJob
        from characters.services.printing import pack_file_delete

        # However a pack is deleted (pruned, or with its campaign), its file goes too.
        post_delete.connect(
            lambda instance, **_: pack_file_delete(job=instance),
            sender=PackJob,
            weak=False,
            dispatch_uid="pack_file_delete",
        )
