"""Every protective trigger the migrations define is there after `manage.py migrate`, on
SQLite too, where a migration that rebuilds a table drops its triggers (characters.db_triggers
installs them again): before, a fresh SQLite database lost characters_character_keep_recorded,
characters_character_keep_id and characters_campaign_keep_id to 0033-0042.

The SQLite database is a fresh file migrated by `manage.py migrate` in a subprocess, as
`make run` does (DATABASE_URL=sqlite:///..., no DATABASE_OWNER_URL): the suite's own database
is PostgreSQL in CI, set up once per session with this process's Django already configured on
it, so only a process of its own runs the whole command, signals included, on a database of
its own. One migrate (about 6 s) serves every case. The suite's own database is checked too,
for its engine's names (PostgreSQL's triggers differ: one row trigger refuses UPDATE and
DELETE, another TRUNCATE)."""

import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from django.db import connection

from characters import db_triggers

ROOT = Path(__file__).resolve().parents[2]

# What each trigger refuses: the statement run on a table with one row, the text of the
# refusal, the SQLite trigger and the PostgreSQL one (None: that engine has no such statement).
PROTECTIONS = (
    [
        pytest.param(
            table,
            statement,
            refusal,
            f"{table}_no_{verb}",
            f"{table}_no_change",
            id=f"{table}-{verb}",
        )
        for table, refusal in (
            ("characters_characterevent", "is append-only"),
            ("characters_campaignevent", "is append-only"),
            ("characters_threadmessage", "are append-only"),
        )
        for verb, statement in (
            ("update", f"UPDATE {table} SET id = id"),
            ("delete", f"DELETE FROM {table}"),
        )
    ]
    + [
        pytest.param(table, None, None, None, f"{table}_no_truncate", id=f"{table}-truncate")
        for table in db_triggers.APPEND_ONLY
    ]
    + [
        pytest.param(
            "characters_character",
            "DELETE FROM characters_character",  # a character an event names
            "archive it instead of deleting it",
            "characters_character_keep_recorded",
            "characters_character_keep_recorded",
            id="characters_character-delete-recorded",
        )
    ]
    + [
        pytest.param(
            table,
            f"UPDATE {table} SET id = id + 1000",
            f"names rows of {table} by id",
            f"{table}_keep_id",
            f"{table}_keep_id",
            id=f"{table}-renumber",
        )
        for table in ("characters_character", "characters_campaign", "characters_commentthread")
    ]
)


def manage_migrate(database: Path, *args: str) -> subprocess.CompletedProcess:
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_OWNER_URL"}
    env["DATABASE_URL"] = f"sqlite:///{database}"
    return subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", *args],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=180,
        capture_output=True,
        text=True,
    )


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> Path:
    database = tmp_path_factory.mktemp("triggers") / "fresh.sqlite3"
    manage_migrate(database, "-v", "0")
    return database


@pytest.fixture
def fresh(migrated):
    """The migrated file, in a transaction rolled back after the test."""
    with closing(sqlite3.connect(migrated, isolation_level=None)) as raw:
        raw.execute("BEGIN")
        yield raw
        raw.execute("ROLLBACK")


def sqlite_triggers(raw) -> dict[str, str]:
    return dict(raw.execute("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger'"))


def suite_triggers() -> dict[str, str]:
    """The characters app's triggers in the suite's database, by name, with their table."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT t.tgname, c.relname FROM pg_trigger t "
                "JOIN pg_class c ON c.oid = t.tgrelid "
                "WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace "
                "AND c.relname LIKE 'characters\\_%%'"
            )
        else:
            cursor.execute("SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger'")
        return dict(cursor.fetchall())


def insert_row(raw, table: str, **given) -> int:
    """A row with a value in every NOT NULL column; foreign keys are not enforced on this
    connection (SQLite's default), so any id will do."""
    values = dict(given)
    for _, name, kind, not_null, default, primary in raw.execute(f"PRAGMA table_info({table})"):
        if name in values or primary or not not_null or default is not None:
            continue
        kind = kind.lower()
        if "date" in kind:
            values[name] = "2026-01-01 00:00:00"
        elif "int" in kind or "bool" in kind:
            values[name] = 1
        else:
            values[name] = "1"  # valid JSON as well as text
    columns = ", ".join(values)
    marks = ", ".join("?" * len(values))
    return raw.execute(
        f"INSERT INTO {table} ({columns}) VALUES ({marks})", [*values.values()]
    ).lastrowid


@pytest.mark.parametrize("table, statement, refusal, sqlite_name, postgres_name", PROTECTIONS)
def test_every_protective_trigger_is_there_after_migrate_and_refuses(
    migrated, fresh, db, table, statement, refusal, sqlite_name, postgres_name
):
    expected = {"postgresql": postgres_name, "sqlite": sqlite_name}[connection.vendor]
    if expected is not None:
        assert suite_triggers().get(expected) == table
    if sqlite_name is None:
        return  # SQLite has no TRUNCATE
    assert sqlite_triggers(fresh).get(sqlite_name) == table
    row = insert_row(fresh, table)
    if sqlite_name.endswith("keep_recorded"):
        insert_row(fresh, "characters_characterevent", character_id=row)
    with pytest.raises(sqlite3.IntegrityError, match=refusal):
        fresh.execute(statement)
    assert fresh.execute(f"SELECT id FROM {table}").fetchall() == [(row,)]


def test_the_list_above_is_every_trigger_on_either_database(migrated, fresh, db):
    """A trigger added later is added to PROTECTIONS, so the test above checks it."""
    names = {
        "sqlite": {case.values[3] for case in PROTECTIONS} - {None},
        "postgresql": {case.values[4] for case in PROTECTIONS},
    }
    assert set(sqlite_triggers(fresh)) == names["sqlite"]
    assert {t.name for t in db_triggers.TRIGGERS} == names["sqlite"]
    assert set(suite_triggers()) == names[connection.vendor]


def test_the_next_migrate_installs_again_what_a_rebuild_dropped(migrated, tmp_path):
    """An SQLite database made before characters.db_triggers lost three triggers: the next
    `manage.py migrate`, with nothing to apply, puts them back, and only those."""
    database = tmp_path / "old.sqlite3"
    shutil.copyfile(migrated, database)
    lost = {"characters_character_keep_recorded", "characters_character_keep_id"}
    lost |= {"characters_campaign_keep_id"}
    with closing(sqlite3.connect(database)) as raw, raw:
        before = sqlite_triggers(raw)
        for name in lost:
            raw.execute(f"DROP TRIGGER {name}")
    output = manage_migrate(database, "-v", "2").stdout
    with closing(sqlite3.connect(database)) as raw:
        assert sqlite_triggers(raw) == before
    [line] = [line for line in output.splitlines() if "Installed again" in line]
    assert set(line.split(": ")[1].split(", ")) == lost
