"""Shared fixtures. Area-specific fixtures live in their own test modules.

On PostgreSQL with DATABASE_OWNER_URL set (`.ci/run` sets it), the tests use the same two
roles as production (characters/db_roles.py): the test database is created and migrated as
the owner, then every test connects as the runtime role, which owns nothing.
"""

import json
import sqlite3
from pathlib import Path

import pytest
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.test import override_settings
from django.utils import translation

from characters import rules_content
from characters.db_roles import APPEND_ONLY_TABLES, OWNER_ALIAS, grant_runtime_role

# The browser fixtures, registered once: a session-wide Playwright must not be started twice.
pytest_plugins = ["tests.support.browser"]

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "rules" / "samples"
LOGIN_KEYS = ("USER", "PASSWORD")
# As config/settings.py lists them, before _fast_password_hasher puts a fast one first: what a
# server started as its own process checks passwords with.
PRODUCTION_HASHERS = list(settings.PASSWORD_HASHERS)


def pytest_configure(config):
    """The translations compiled before any test reads them (docs/translations.md): `make
    test` compiles them first, and a bare pytest run of one file gets them too. Only the
    controller compiles: pytest-xdist's workers start after it has. Quick when nothing
    changed (compilemessages skips an up-to-date .mo)."""
    if hasattr(config, "workerinput"):
        return
    from django.core.management import call_command

    call_command("compilemessages", ignore_patterns=[".venv"], verbosity=0)


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A request leaves its language active in the thread (LocaleMiddleware activates one per
    request and never deactivates it): a French page in one test must not make the next
    test's direct calls French. Nor its campaign's own words (adapters.speak_campaign, which
    a direct call sets outside any request): their loader reads that test's database, which
    a next test without one may not touch."""
    yield
    translation.deactivate()
    rules_content.use_gm_words(None)


@pytest.fixture(autouse=True, scope="session")
def _files_in_a_temporary_folder(tmp_path_factory):
    """The files the app writes (campaign packs) go to a folder of the run's own, for this
    process and for the workers and servers it starts (they read FAIRSHEET_FILES_DIR)."""
    folder = tmp_path_factory.mktemp("files")
    location = folder / "packs"  # as config/settings.py places it under FAIRSHEET_FILES_DIR
    packs = {"BACKEND": settings.STORAGES["packs"]["BACKEND"], "OPTIONS": {"location": location}}
    with (
        pytest.MonkeyPatch.context() as environment,
        override_settings(MEDIA_ROOT=folder, STORAGES={**settings.STORAGES, "packs": packs}),
    ):
        environment.setenv("FAIRSHEET_FILES_DIR", str(folder))
        yield folder


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hasher():
    """Passwords hashed in microseconds: production's PBKDF2 costs about a second of CPU for
    every user made with a password and every sign-in, and the suite makes hundreds. The
    production hashers stay behind it, so a hash made by them (a server started as its own
    process, with the real settings) is still checked. No test is about the hash's cost."""
    fast = ["django.contrib.auth.hashers.MD5PasswordHasher", *PRODUCTION_HASHERS]
    with override_settings(PASSWORD_HASHERS=fast):
        yield


@pytest.fixture
def sample_file():
    """Load a sample character file from rules/samples by stem, as parsed JSON."""

    def load(stem: str) -> dict:
        return json.loads((SAMPLES / f"{stem}.json").read_text())

    return load


# -- two roles on PostgreSQL ------------------------------------------------------------------


def role_split() -> bool:
    """True when the tests run as the runtime role, with the owner beside it."""
    return connection.vendor == "postgresql" and OWNER_ALIAS in settings.DATABASES


def login_of(alias: str) -> dict:
    return {key: settings.DATABASES[alias][key] for key in LOGIN_KEYS}


RUNTIME_LOGIN = login_of(DEFAULT_DB_ALIAS)


def connect_default_as(login: dict) -> None:
    """The default connection logs in as `login` from its next query on."""
    connections[DEFAULT_DB_ALIAS].close()
    connections[DEFAULT_DB_ALIAS].settings_dict.update(login)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    if role_split():
        connect_default_as(login_of(OWNER_ALIAS))  # create and migrate as the owner


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's setup (as the owner, see above), then the runtime role's grants; the
    tests run as that role, and the database is dropped by its owner at the end."""
    if not role_split():
        yield
        return
    with django_db_blocker.unblock():
        grant_runtime_role(
            role=RUNTIME_LOGIN["USER"], password=RUNTIME_LOGIN["PASSWORD"], using=DEFAULT_DB_ALIAS
        )
    connect_default_as(RUNTIME_LOGIN)
    yield
    hand_back_after_flush()  # the last test's flush, before the database is dropped
    connections.close_all()  # the owner's own connection too, or the drop waits for it
    connect_default_as(login_of(OWNER_ALIAS))


# -- letting the end-of-test flush through the append-only triggers ----------------------------


@pytest.fixture(autouse=True)
def _flushable_audit_trail(request):
    """Transactional and live-server tests end with pytest-django's flush, which the audit
    trail's append-only triggers refuse (migration 0002): let that one flush through."""
    marker = request.node.get_closest_marker("django_db")
    transactional = marker is not None and marker.kwargs.get("transaction", False)
    if transactional or "live_server" in request.fixturenames:
        request.getfixturevalue("audit_trail_flushable")
    yield


@pytest.fixture
def audit_trail_flushable(request, transactional_db):
    """After the test, before the flush, open the triggers with the database's own
    maintenance switch (migration 0002 explains the design). Depending on transactional_db
    puts this teardown before the flush."""
    yield
    if role_split():
        # The runtime role may not TRUNCATE: the flush runs as the owner, who switches the
        # append-only triggers off until pytest_runtest_teardown below switches them on.
        connect_default_as(login_of(OWNER_ALIAS))
        alter_append_only_triggers("DISABLE")
        FLUSH_AS_OWNER.add(request.node.nodeid)
        return
    connection.ensure_connection()
    if connection.vendor == "postgresql":
        # Replica mode skips ordinary triggers for this session only; Django closes this
        # connection right after the flush, which ends it.
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = replica")
    else:
        # The in-memory test database outlives its connection's close(), so triggers are
        # off just long enough to empty the tables; the flush's DELETE then finds no rows.
        raw = connection.connection
        raw.setconfig(sqlite3.SQLITE_DBCONFIG_ENABLE_TRIGGER, False)
        try:
            with connection.cursor() as cursor:
                for table in APPEND_ONLY_TABLES:
                    cursor.execute(f"DELETE FROM {table}")
        finally:
            raw.setconfig(sqlite3.SQLITE_DBCONFIG_ENABLE_TRIGGER, True)


def alter_append_only_triggers(action: str) -> None:
    """ENABLE or DISABLE the user triggers of the append-only tables, as their owner, on a
    connection of its own (outside Django's test machinery, which blocks or wraps its own)."""
    import psycopg

    owner = connections[DEFAULT_DB_ALIAS].settings_dict  # the test database's name
    with psycopg.connect(
        host=owner["HOST"] or None,
        port=owner["PORT"] or None,
        dbname=owner["NAME"],
        autocommit=True,
        **{key.lower(): value or None for key, value in login_of(OWNER_ALIAS).items()},
    ) as raw:
        for table in APPEND_ONLY_TABLES:
            raw.execute(f"ALTER TABLE {table} {action} TRIGGER USER")


FLUSH_AS_OWNER: set[str] = set()  # the test whose flush runs as the owner, if any


# -- a flush that deletes rows rather than truncating tables ----------------------------------

# The rows post_migrate writes back after every flush (each model's content type and
# permissions): kept, they are not deleted and written again after every transactional test.
KEPT_THROUGH_A_FLUSH = frozenset({"django_content_type", "auth_permission"})


@pytest.fixture(autouse=True, scope="session")
def _flush_by_deleting():
    """The end-of-test flush of transactional and live-server tests DELETEs rows rather than
    TRUNCATE every table: PostgreSQL's TRUNCATE makes each of the forty-odd tables anew on
    disk (most of such a test's teardown) for the few rows a test leaves. The audit
    trail's rows go first: characters_character_keep_recorded refuses to delete a character
    they name (their own triggers are off for the flush: audit_trail_flushable). Foreign keys
    are checked when the flush's transaction ends. A flush that asks for more (sequences
    reset, CASCADE) is Django's own."""
    if connection.vendor != "postgresql":
        yield
        return
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or allow_cascade:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        emptied = sorted(
            set(tables) - KEPT_THROUGH_A_FLUSH, key=lambda t: t not in APPEND_ONLY_TABLES
        )
        return ["SET CONSTRAINTS ALL DEFERRED"] + [
            f"DELETE FROM {self.quote_name(table)}" for table in emptied
        ]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", sql_flush)
        yield


def hand_back_after_flush() -> None:
    """After a flush that ran as the owner: triggers on, the runtime role connects again."""
    if FLUSH_AS_OWNER:
        FLUSH_AS_OWNER.clear()
        alter_append_only_triggers("ENABLE")
        connect_default_as(RUNTIME_LOGIN)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    """Once every fixture of a test is torn down, its flush included."""
    try:
        return (yield)
    finally:
        hand_back_after_flush()
