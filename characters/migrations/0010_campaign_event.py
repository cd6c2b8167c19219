"""The campaign's audit trail (CampaignEvent), append-only in the database like the
character's (migration 0002, which explains the design and the maintenance switches the
test suite uses): triggers refuse every UPDATE and DELETE, and TRUNCATE on PostgreSQL,
with integrity errors on both databases. characters.db_roles.APPEND_ONLY_TABLES lists the
table, so the runtime role gets no UPDATE or DELETE on it and test flushes get past it.

SQLite drops these triggers when it rebuilds the table to alter it: characters.db_triggers
holds their SQL and installs them again after every migrate.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from characters import db_triggers

TABLE = "characters_campaignevent"
MESSAGE = "the campaign audit trail (characters_campaignevent) is append-only"

INSTALL = {
    "postgresql": [
        f"""
        CREATE FUNCTION characters_campaignevent_append_only() RETURNS trigger
        LANGUAGE plpgsql AS $$
        BEGIN
            -- No percent-sign placeholder: the schema editor passes this through psycopg.
            RAISE EXCEPTION USING
                MESSAGE = '{MESSAGE}: ' || TG_OP || ' refused',
                ERRCODE = 'restrict_violation',
                HINT = 'Record a new event instead of changing an old one.';
        END;
        $$
        """,
        f"""
        CREATE TRIGGER characters_campaignevent_no_change
        BEFORE UPDATE OR DELETE ON {TABLE}
        FOR EACH ROW EXECUTE FUNCTION characters_campaignevent_append_only()
        """,
        f"""
        CREATE TRIGGER characters_campaignevent_no_truncate
        BEFORE TRUNCATE ON {TABLE}
        FOR EACH STATEMENT EXECUTE FUNCTION characters_campaignevent_append_only()
        """,
    ],
    # SQLite's, with the one post_migrate installs again after a table rebuild.
    "sqlite": db_triggers.creates("0010_campaign_event"),
}
UNINSTALL = {
    "postgresql": [
        f"DROP TRIGGER characters_campaignevent_no_truncate ON {TABLE}",
        f"DROP TRIGGER characters_campaignevent_no_change ON {TABLE}",
        "DROP FUNCTION characters_campaignevent_append_only()",
    ],
    "sqlite": db_triggers.drops("0010_campaign_event"),
}


def _statements(statements, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor not in statements:
        # An audit trail that is append-only on some databases only is not append-only.
        raise NotImplementedError(f"No append-only triggers for {vendor}: add them here.")
    return statements[vendor]


def install(apps, schema_editor):
    for sql in _statements(INSTALL, schema_editor):
        schema_editor.execute(sql)


def uninstall(apps, schema_editor):
    for sql in _statements(UNINSTALL, schema_editor):
        schema_editor.execute(sql)


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0009_lifecycle"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="CampaignEvent",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("action", models.CharField(max_length=40)),
                ("target", models.CharField(blank=True, max_length=200)),
                ("before", models.JSONField(blank=True, null=True)),
                ("after", models.JSONField(blank=True, null=True)),
                ("reason", models.TextField(blank=True)),
                (
                    "actor",
                    models.ForeignKey(
                        null=True,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "campaign",
                    models.ForeignKey(
                        db_constraint=False,
                        on_delete=django.db.models.deletion.DO_NOTHING,
                        related_name="events",
                        to="characters.campaign",
                    ),
                ),
            ],
            options={
                "ordering": ["created_at", "id"],
            },
        ),
        migrations.RunPython(install, uninstall),
    ]
