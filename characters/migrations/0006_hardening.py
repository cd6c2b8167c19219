"""Characters the audit trail names are never removed: deleting one archives it
(Character.archived_at, characters.services.characters.character_delete), and a trigger
refuses a DELETE of a character row while any event names it, whoever sends it (the ORM, a
cascade from its campaign or owner, raw SQL as the runtime role). Like the audit trail's own
triggers (0002) the errors are integrity errors on both databases. SQLite drops a table's
triggers when a migration rebuilds it: characters.db_triggers holds its SQL and installs it
again after every migrate (tests/app/test_protective_triggers.py checks it is there).
"""

from django.db import migrations, models

from characters import db_triggers

MESSAGE = "the audit trail names this character: archive it instead of deleting it"

INSTALL = {
    "postgresql": [
        f"""
        CREATE FUNCTION characters_character_keep_recorded() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            IF EXISTS (SELECT 1 FROM characters_characterevent WHERE character_id = OLD.id) THEN
                RAISE EXCEPTION USING
                    MESSAGE = '{MESSAGE} (character ' || OLD.id || ')',
                    ERRCODE = 'restrict_violation';
            END IF;
            RETURN OLD;
        END;
        $$
        """,
        """
        CREATE TRIGGER characters_character_keep_recorded
        BEFORE DELETE ON characters_character
        FOR EACH ROW EXECUTE FUNCTION characters_character_keep_recorded()
        """,
    ],
    # SQLite's, with the one post_migrate installs again after a table rebuild.
    "sqlite": db_triggers.creates("0006_hardening"),
}
UNINSTALL = {
    "postgresql": [
        "DROP TRIGGER characters_character_keep_recorded ON characters_character",
        "DROP FUNCTION characters_character_keep_recorded()",
    ],
    "sqlite": db_triggers.drops("0006_hardening"),
}


def _run(statements, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor not in statements:
        raise NotImplementedError(f"No keep-recorded trigger for {vendor}: add it here.")
    for sql in statements[vendor]:
        schema_editor.execute(sql)


def install(apps, schema_editor):
    _run(INSTALL, schema_editor)


def uninstall(apps, schema_editor):
    _run(UNINSTALL, schema_editor)


class Migration(migrations.Migration):
    dependencies = [("characters", "0005_table")]

    operations = [
        migrations.AlterModelOptions(
            name="character",
            options={"default_manager_name": "objects", "ordering": ["name"]},
        ),
        migrations.AddField(
            model_name="character",
            name="archived_at",
            field=models.DateTimeField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(install, uninstall),
    ]
