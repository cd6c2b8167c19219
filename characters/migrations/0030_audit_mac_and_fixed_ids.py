"""The audit trail keyed, and nothing it names renumbered (issue 31, second probe).

1. Every event gets a MAC (characters.audit_chain): HMAC-SHA256 with the audit key in force
   when this migration runs (DJANGO_AUDIT_KEY; its id is stored with each event). Only an
   event that still hashes to its `record_hash` is signed: one changed before this
   migration stays unsigned, and `manage.py verify_audit` names it. The append-only
   triggers are off for that one UPDATE (as the tables' owner, in this transaction).
2. Triggers refuse an UPDATE of the id of a character, a campaign or a thread (what events
   name, beside users, whose ids the events' foreign keys hold): the runtime role renumbered
   a recorded character, then deleted it, orphaning its events.
3. Thread messages are append-only like the events (the app never edits or removes one):
   triggers refuse UPDATE, DELETE and TRUNCATE, and the runtime role loses UPDATE and DELETE
   on the table (characters.db_roles.APPEND_ONLY_TABLES).

PostgreSQL functions name their tables with the schema and run with a fixed search_path, as
0016's. SQLite rebuilds both event tables to add the columns, which drops their triggers
(0002, 0006, 0010): they are installed again, as 0016 does. The SQLite triggers' SQL is
characters.db_triggers', which installs any a later rebuild drops after every migrate.
"""

import importlib

from django.db import migrations, models

from characters import db_triggers
from characters.audit_chain import event_hash, sign

EVENT_TABLES = ("characters_characterevent", "characters_campaignevent")
FIXED_ID_TABLES = ("characters_character", "characters_campaign", "characters_commentthread")
MESSAGES = "characters_threadmessage"
BATCH = 1000
SQLITE_TRIGGERS = ("0002_audit_append_only", "0006_hardening", "0010_campaign_event")
FIXED = "SET search_path = pg_catalog, pg_temp"


def postgres_install(schema: str) -> list[str]:
    statements = [
        f"""
        CREATE OR REPLACE FUNCTION {schema}.characters_keep_id() RETURNS trigger
        LANGUAGE plpgsql {FIXED} AS $$
        BEGIN
            RAISE EXCEPTION USING
                MESSAGE = 'the audit trail names rows of ' || TG_TABLE_NAME || ' by id: '
                    || 'renumbering ' || OLD.id || ' refused',
                ERRCODE = 'restrict_violation';
        END;
        $$
        """,
        f"""
        CREATE OR REPLACE FUNCTION {schema}.{MESSAGES}_append_only() RETURNS trigger
        LANGUAGE plpgsql {FIXED} AS $$
        BEGIN
            RAISE EXCEPTION USING
                MESSAGE = 'thread messages ({MESSAGES}) are append-only: ' || TG_OP || ' refused',
                ERRCODE = 'restrict_violation',
                HINT = 'Write a new message instead of changing an old one.';
        END;
        $$
        """,
        f"""
        CREATE TRIGGER {MESSAGES}_no_change BEFORE UPDATE OR DELETE ON {schema}.{MESSAGES}
        FOR EACH ROW EXECUTE FUNCTION {schema}.{MESSAGES}_append_only()
        """,
        f"""
        CREATE TRIGGER {MESSAGES}_no_truncate BEFORE TRUNCATE ON {schema}.{MESSAGES}
        FOR EACH STATEMENT EXECUTE FUNCTION {schema}.{MESSAGES}_append_only()
        """,
    ]
    for table in FIXED_ID_TABLES:
        statements.append(
            f"""
            CREATE TRIGGER {table}_keep_id BEFORE UPDATE OF id ON {schema}.{table}
            FOR EACH ROW WHEN (NEW.id IS DISTINCT FROM OLD.id)
            EXECUTE FUNCTION {schema}.characters_keep_id()
            """
        )
    return statements


def sqlite_install() -> list[str]:
    return db_triggers.creates("0030_audit_mac_and_fixed_ids")


def sign_existing_and_protect(apps, schema_editor):
    connection = schema_editor.connection
    postgres = connection.vendor == "postgresql"
    if postgres:
        for table in EVENT_TABLES:
            schema_editor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
    for name in ("CharacterEvent", "CampaignEvent"):
        _sign(apps.get_model("characters", name), connection.alias)
    if postgres:
        for table in EVENT_TABLES:
            schema_editor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
        with connection.cursor() as cursor:
            cursor.execute("SELECT current_schema()")
            schema = connection.ops.quote_name(cursor.fetchone()[0])
        statements = postgres_install(schema)
    else:
        for module in SQLITE_TRIGGERS:
            importlib.import_module(f"characters.migrations.{module}").install(apps, schema_editor)
        statements = sqlite_install()
    for sql in statements:
        schema_editor.execute(sql)


def _sign(model, alias) -> None:
    """Sign every event that still hashes to what it recorded; leave the others unsigned."""
    batch = []
    for event in model.objects.using(alias).order_by("id").iterator(chunk_size=BATCH):
        if event.record_hash != event_hash(event, event.previous_hash):
            continue
        sign(event)
        batch.append(event)
        if len(batch) == BATCH:
            model.objects.using(alias).bulk_update(batch, ["key_id", "mac"])
            batch = []
    model.objects.using(alias).bulk_update(batch, ["key_id", "mac"])


def unprotect(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor == "postgresql":
        for table in FIXED_ID_TABLES:
            schema_editor.execute(f"DROP TRIGGER {table}_keep_id ON {table}")
        schema_editor.execute(f"DROP TRIGGER {MESSAGES}_no_change ON {MESSAGES}")
        schema_editor.execute(f"DROP TRIGGER {MESSAGES}_no_truncate ON {MESSAGES}")
        schema_editor.execute("DROP FUNCTION characters_keep_id()")
        schema_editor.execute(f"DROP FUNCTION {MESSAGES}_append_only()")
    else:
        # IF EXISTS: migrating back past 0033 rebuilds characters_character, dropping its own.
        for statement in db_triggers.drops("0030_audit_mac_and_fixed_ids"):
            schema_editor.execute(statement)


def drop_keep_recorded_on_sqlite(apps, schema_editor):
    importlib.import_module("characters.migrations.0016_audit_integrity").drop_keep_recorded_on_sqlite(
        apps, schema_editor
    )


class Migration(migrations.Migration):
    dependencies = [
        ("characters", "0029_decision_tokens_issued"),
    ]

    operations = [
        migrations.RunPython(drop_keep_recorded_on_sqlite, migrations.RunPython.noop),
        migrations.AddField(
            model_name="campaignevent",
            name="key_id",
            field=models.CharField(blank=True, max_length=20),
        ),
        migrations.AddField(
            model_name="campaignevent",
            name="mac",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AddField(
            model_name="characterevent",
            name="key_id",
            field=models.CharField(blank=True, max_length=20),
        ),
        migrations.AddField(
            model_name="characterevent",
            name="mac",
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.RunPython(sign_existing_and_protect, unprotect),
    ]
