"""Finished campaign packs move out of their rows into files of the "packs" storage
(settings.STORAGES): a pack still within its 7 days is written to a file, one row at a time;
an older one is deleted, as the next pack asked for in its campaign would have deleted it."""

from datetime import timedelta

from django.core.files.base import ContentFile
from django.core.files.storage import storages
from django.db import migrations, models
from django.utils import timezone

KEEP = timedelta(days=7)  # services.printing.PACK_KEEP when this was written


def packs_to_files(apps, schema_editor):
    PackJob = apps.get_model("characters", "PackJob")
    PackJob.objects.filter(created_at__lt=timezone.now() - KEEP).delete()
    storage = storages["packs"]
    finished = PackJob.objects.filter(content__isnull=False)
    for pk in finished.values_list("pk", flat=True).iterator():
        content = PackJob.objects.filter(pk=pk).values_list("content", flat=True).get()
        name = storage.save(f"pack-{pk}.pdf", ContentFile(bytes(content)))
        PackJob.objects.filter(pk=pk).update(file_name=name, content=None)


def files_to_packs(apps, schema_editor):
    PackJob = apps.get_model("characters", "PackJob")
    storage = storages["packs"]
    for pk, name in PackJob.objects.exclude(file_name="").values_list("pk", "file_name"):
        with storage.open(name) as file:
            PackJob.objects.filter(pk=pk).update(content=file.read())
        storage.delete(name)


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0030_audit_mac_and_fixed_ids"),
    ]

    operations = [
        migrations.AddField(
            model_name="packjob",
            name="file_name",
            field=models.CharField(blank=True, max_length=200),
        ),
        migrations.RunPython(packs_to_files, files_to_packs),
        migrations.RemoveField(
            model_name="packjob",
            name="content",
        ),
    ]
