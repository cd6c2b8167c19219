"""The audit trail is append-only in the database itself, not only by convention: triggers
refuse every UPDATE and DELETE of characters_characterevent, whoever sends it (the ORM,
raw SQL, a shell), and on PostgreSQL a statement trigger refuses TRUNCATE as well, so
`manage.py flush` against a real database fails instead of wiping the record. INSERT stays
open: services add events. The errors are integrity errors on both databases
(SQLite RAISE(ABORT) is SQLITE_CONSTRAINT; PostgreSQL uses SQLSTATE 23001,
restrict_violation), so callers see django.db.IntegrityError either way.

The triggers have no escape hatch of their own (no flag an application query could set).
The only ways past them are the databases' own maintenance switches, which are not SQL an
application sends:

- PostgreSQL: `SET session_replication_role = replica` skips ordinary triggers for one
  session. Only a superuser (or a role granted SET on that parameter) may set it: run the
  application as an ordinary role that does not own the tables (an owner can also DROP
  TRIGGER), and it can never change or remove an event.
- SQLite: the SQLITE_DBCONFIG_ENABLE_TRIGGER option of one connection, set through the
  driver (Python's Connection.setconfig), not by any statement. SQLite is Fairsheet's local
  development database; whoever can write its file can do anything to it.

The test suite needs exactly that maintenance access once per transactional test:
pytest-django's transactional and live-server tests end with a flush, which on SQLite
DELETEs every row (firing the DELETE trigger) and on PostgreSQL TRUNCATEs every table
(firing the TRUNCATE trigger). The fixture `audit_trail_flushable` (tests/conftest.py,
applied to every such test) runs after the test and before its flush: on SQLite it
disables triggers on its own connection just long enough to empty this table, on
PostgreSQL it switches its session to replica mode, which ends when Django closes that
connection right after the flush. Ordinary tests run inside a transaction that is rolled
back and never meet the triggers' refusal.

SQLite rebuilds a table to alter it (create, copy, drop, rename), and dropping the old
table drops these triggers: characters.db_triggers holds their SQL and installs them again
after every migrate (tests/app/test_protective_triggers.py checks they exist after one).
"""

from django.db import migrations

from characters import db_triggers

TABLE = "characters_characterevent"
MESSAGE = "the audit trail (characters_characterevent) is append-only"

INSTALL = {
    "postgresql": [
        f"""
        CREATE FUNCTION characters_characterevent_append_only() RETURNS trigger
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
        CREATE TRIGGER characters_characterevent_no_change
        BEFORE UPDATE OR DELETE ON {TABLE}
        FOR EACH ROW EXECUTE FUNCTION characters_characterevent_append_only()
        """,
        f"""
        CREATE TRIGGER characters_characterevent_no_truncate
        BEFORE TRUNCATE ON {TABLE}
        FOR EACH STATEMENT EXECUTE FUNCTION characters_characterevent_append_only()
        """,
    ],
    # SQLite's, with the one post_migrate installs again after a table rebuild.
    "sqlite": db_triggers.creates("0002_audit_append_only"),
}
UNINSTALL = {
    "postgresql": [
        f"DROP TRIGGER characters_characterevent_no_truncate ON {TABLE}",
        f"DROP TRIGGER characters_characterevent_no_change ON {TABLE}",
        "DROP FUNCTION characters_characterevent_append_only()",
    ],
    "sqlite": db_triggers.drops("0002_audit_append_only"),
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
    dependencies = [("characters", "0001_initial")]

    operations = [migrations.RunPython(install, uninstall)]
