"""A character outside any campaign keeps the house rules of the file it was imported from
(issue 28: every field of the character file survives an import)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("characters", "0014_gm_stored_once")]

    operations = [
        migrations.AddField(
            model_name="character",
            name="house_rules",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
