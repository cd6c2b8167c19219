from django.db import migrations, models


def heads_from_trails(apps, schema_editor):
    """Each character's head: the record_hash of its newest event, as services.audit keeps it
    from now on (one statement, on PostgreSQL and SQLite alike)."""
    schema_editor.execute(
        "UPDATE characters_character SET audit_head = COALESCE(("
        " SELECT e.record_hash FROM characters_characterevent e"
        " WHERE e.character_id = characters_character.id ORDER BY e.id DESC LIMIT 1"
        "), '')"
    )


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0044_play_trackers"),
    ]

    operations = [
        migrations.AddField(
            model_name="character",
            name="audit_head",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.RunPython(heads_from_trails, migrations.RunPython.noop),
    ]
