"""The app's own database role cannot touch the audit trail (characters/db_roles.py), and the
characters the trail names are archived, never removed (migration 0004).

The role tests run as the runtime role itself: PostgreSQL with DATABASE_OWNER_URL, as
`bash .ci/run` sets it up (tests/conftest.py). Every statement below is really sent."""

from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import IntegrityError, ProgrammingError, connection, connections, transaction

from characters.db_roles import (
    APPEND_ONLY_TABLES,
    OWNER_ALIAS,
    RoleSetupError,
    grant_runtime_role,
)
from characters.management.commands.migrate import Command as MigrateCommand
from characters.models import Campaign, Character, CharacterEvent, CommentThread, ThreadMessage
from characters.services.audit import record_campaign_event
from characters.services.keeping import character_archive
from tests.conftest import RUNTIME_LOGIN, role_split
from tests.support.builder_fixtures import *  # noqa: F403

EVENTS = "characters_characterevent"
as_runtime_role = pytest.mark.skipif(
    not role_split(),
    reason="needs PostgreSQL with DATABASE_OWNER_URL (bash .ci/run sets up both roles)",
)


def run(sql, params=None):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall() if cursor.description else None


def refused_as_runtime_role(sql, message):
    with pytest.raises(ProgrammingError, match=message), transaction.atomic():
        run(sql)


# -- the runtime role ----------------------------------------------------------------------------


@as_runtime_role
def test_the_tests_run_as_a_runtime_role_that_owns_nothing(db):
    [(user, attributes, owned)] = run(
        "SELECT current_user, ARRAY[rolsuper, rolcreaterole, rolcreatedb, rolreplication, "
        "rolbypassrls, rolinherit AND pg_has_role(current_user, %s, 'MEMBER')], "
        "(SELECT count(*) FROM pg_class WHERE relowner = pg_roles.oid) "
        "FROM pg_roles WHERE rolname = current_user",
        [settings.DATABASES[OWNER_ALIAS]["USER"]],
    )
    assert user == RUNTIME_LOGIN["USER"] != settings.DATABASES[OWNER_ALIAS]["USER"]
    assert attributes == [False] * 6
    assert owned == 0


@as_runtime_role
@pytest.mark.parametrize("table", APPEND_ONLY_TABLES)
@pytest.mark.parametrize(
    "statement, message",
    [
        ("UPDATE {table} SET id = id", "permission denied for table {table}"),
        ("DELETE FROM {table}", "permission denied for table {table}"),
        ("TRUNCATE {table}", "permission denied for table {table}"),
        ("ALTER TABLE {table} DISABLE TRIGGER ALL", "must be owner of table {table}"),
        ("ALTER TABLE {table} DISABLE TRIGGER USER", "must be owner of table {table}"),
        ("ALTER TABLE {table} OWNER TO CURRENT_USER", "must be owner of table {table}"),
        ("DROP TABLE {table}", "must be owner of table {table}"),
        ("SET session_replication_role = replica", "permission denied to set parameter"),
        ("SET LOCAL session_replication_role = replica", "permission denied to set parameter"),
        ("ALTER ROLE CURRENT_USER SUPERUSER", "must be superuser"),
        ("CREATE TABLE {table}_copy (id int)", "permission denied for schema public"),
    ],
)
def test_the_runtime_role_cannot_change_or_empty_the_audit_trail(
    character, table, statement, message
):
    record_campaign_event(campaign=character.campaign, actor=None, action="campaign_created")
    thread = CommentThread.objects.create(character=character, started_by=character.owner)
    ThreadMessage.objects.create(thread=thread, author=character.owner, body="Kept", version=1)
    before = run(f"SELECT * FROM {table} ORDER BY id")
    assert before, "the character's creation, the campaign's and a message are on record"
    refused_as_runtime_role(statement.format(table=table), message.format(table=table))
    assert run(f"SELECT * FROM {table} ORDER BY id") == before


@as_runtime_role
def test_the_runtime_role_cannot_drop_or_replace_the_triggers(character):
    [(trigger, function)] = run(
        "SELECT tgname, tgfoid::regproc::text FROM pg_trigger WHERE tgrelid = %s::regclass "
        "AND NOT tgisinternal AND tgtype & 32 = 32",  # the TRUNCATE trigger
        [EVENTS],
    )
    refused_as_runtime_role(f"DROP TRIGGER {trigger} ON {EVENTS}", "must be owner of")
    refused_as_runtime_role(
        f"CREATE OR REPLACE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql "
        "AS $$ BEGIN RETURN NULL; END $$",
        "must be owner of function|permission denied for schema",
    )
    refused_as_runtime_role(f"DROP FUNCTION {function}() CASCADE", "must be owner of function")


@as_runtime_role
def test_the_runtime_role_reads_and_writes_rows_and_appends_events(db):
    tables = connection.introspection.django_table_names(only_existing=True)
    tables.append(settings.CACHES["default"]["LOCATION"])
    rights = {}
    for table in tables:
        [(row,)] = run(
            "SELECT ARRAY["
            + ", ".join(
                f"has_table_privilege(%s, '{p}')"
                for p in ("SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "TRIGGER")
            )
            + "]",
            [table] * 6,
        )
        rights[table] = row
    every_row = [True, True, True, True, False, False]
    append_only = [True, True, False, False, False, False]
    assert rights == {t: append_only if t in APPEND_ONLY_TABLES else every_row for t in tables}


@as_runtime_role
@pytest.mark.django_db(databases=["default", OWNER_ALIAS])
def test_setup_app_role_is_idempotent_and_migrate_runs_as_the_owner():
    def grants():
        return run(
            "SELECT table_name, privilege_type FROM information_schema.role_table_grants "
            "WHERE grantee = current_user ORDER BY 1, 2"
        )

    before = grants()
    out = StringIO()
    call_command("setup_app_role", stdout=out)
    call_command("setup_app_role", stdout=out)
    assert grants() == before
    assert out.getvalue().count(f"granted {RUNTIME_LOGIN['USER']} SELECT, INSERT") == 2
    assert "created the role" not in out.getvalue()
    parser = MigrateCommand().create_parser("manage.py", "migrate")
    assert parser.parse_args([]).database == OWNER_ALIAS


@as_runtime_role
@pytest.mark.django_db(databases=["default", OWNER_ALIAS])
@pytest.mark.parametrize(
    "role, message",
    [
        ("postgres", "has super"),
        (None, "both use the role"),  # the owner itself
        ("Robert'); DROP TABLE x; --", "cannot be the runtime role"),
    ],
)
def test_setup_app_role_refuses_a_role_that_could_step_around_the_owner(role, message):
    role = role or connections[OWNER_ALIAS].settings_dict["USER"]
    with pytest.raises(RoleSetupError, match=message):
        grant_runtime_role(role=role)


def test_setup_app_role_says_what_to_set_without_an_owner(monkeypatch):
    databases = {k: v for k, v in settings.DATABASES.items() if k != OWNER_ALIAS}
    monkeypatch.setattr(settings, "DATABASES", databases)
    with pytest.raises(CommandError, match="Set DATABASE_OWNER_URL"):
        call_command("setup_app_role")
    assert MigrateCommand().create_parser("manage.py", "migrate").parse_args([]).database == (
        "default"
    )


def test_every_append_only_table_is_listed(db):
    """A table with append-only triggers must be in APPEND_ONLY_TABLES, so the runtime role
    gets no UPDATE or DELETE on it (and test flushes get past its triggers)."""
    if connection.vendor == "postgresql":
        found = run(
            "SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger "
            "WHERE tgfoid::regproc::text LIKE '%%append_only'"
        )
    else:
        found = run(
            "SELECT DISTINCT tbl_name FROM sqlite_master "
            "WHERE type = 'trigger' AND sql LIKE '%%append-only%%'"
        )
    assert {table for (table,) in found} == set(APPEND_ONLY_TABLES)


# -- characters on record are archived, never removed ---------------------------------------------


def test_the_keep_recorded_trigger_is_installed(db):
    if connection.vendor == "postgresql":
        sql = "SELECT tgname FROM pg_trigger WHERE tgrelid = 'characters_character'::regclass"
    else:
        sql = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s"
    names = {name for (name,) in run(sql, [] if "regclass" in sql else ["characters_character"])}
    assert "characters_character_keep_recorded" in names


def keeps_its_record(delete):
    with pytest.raises(IntegrityError, match="archive it instead"), transaction.atomic():
        delete()


def test_a_character_on_record_cannot_be_deleted_by_any_route(character, campaign, player):
    keeps_its_record(lambda: run("DELETE FROM characters_character WHERE id = %s", [character.pk]))
    keeps_its_record(lambda: run("DELETE FROM characters_character"))
    keeps_its_record(character.delete)
    keeps_its_record(Campaign.objects.get(pk=campaign.pk).delete)  # a cascade from it
    assert Character.objects.get(pk=character.pk).traits.count() == 7  # Mudge's attributes
    assert CharacterEvent.objects.filter(character_id=character.pk).count() == 1


def test_a_character_no_event_names_can_be_deleted(player):
    stray = Character.objects.create(owner=player, ruleset="mudge", name="Never recorded")
    stray.delete()
    assert not Character.all_objects.filter(pk=stray.pk).exists()


def test_archiving_hides_the_character_and_keeps_every_row(character, player, client):
    client.force_login(player)
    character_archive(character=character, actor=player)
    assert client.get(f"/characters/{character.pk}/").status_code == 404
    assert list(client.get("/table/").context["characters"]) == []  # under Archived only
    assert Character.all_objects.get(pk=character.pk).traits.count() == 7
