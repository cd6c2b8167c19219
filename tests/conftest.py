"""Shared fixtures. Area-specific fixtures live in their own test modules."""

import json
import sqlite3
from pathlib import Path

import pytest
from django.db import connection

# The browser fixtures, registered once: a session-wide Playwright must not be started twice.
pytest_plugins = ["tests.browser"]

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "rules" / "samples"
RULES_SOURCES = ROOT.parent / "shared" / "rules-sources"


@pytest.fixture
def sample_file():
    """Load a sample character file from rules/samples by stem, as parsed JSON."""

    def load(stem: str) -> dict:
        return json.loads((SAMPLES / f"{stem}.json").read_text())

    return load


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
def audit_trail_flushable(transactional_db):
    """After the test, before the flush, open the triggers with the database's own
    maintenance switch, for this one connection (migration 0002 explains the design).
    Depending on transactional_db puts this teardown before the flush."""
    yield
    connection.ensure_connection()
    if connection.vendor == "postgresql":
        # Replica mode skips ordinary triggers for this session only; Django closes this
        # connection right after the flush, which ends it.
        with connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = replica")
    else:
        # The in-memory test database outlives its connection's close(), so triggers are
        # off just long enough to empty the table; the flush's DELETE then finds no rows.
        raw = connection.connection
        raw.setconfig(sqlite3.SQLITE_DBCONFIG_ENABLE_TRIGGER, False)
        try:
            with connection.cursor() as cursor:
                cursor.execute("DELETE FROM characters_characterevent")
        finally:
            raw.setconfig(sqlite3.SQLITE_DBCONFIG_ENABLE_TRIGGER, True)
