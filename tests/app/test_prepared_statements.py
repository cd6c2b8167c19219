"""Prepared statements on PostgreSQL (config/settings.py, issue 40): the values are bound by
the server, and a connection that has run a statement DATABASE_PREPARE_AFTER times runs it
prepared, without planning it again. The builder's edit then plans none of its reads; `0`
turns it off, for a pooler that cannot keep prepared statements."""

import json
import os
import subprocess
import sys

import pytest
from django.db import connection

from characters.models import Trait
from tests.conftest import ROOT
from tests.support.builder_fixtures import *  # noqa: F403

preparing = pytest.mark.skipif(
    not connection.settings_dict.get("OPTIONS", {}).get("prepare_threshold"),
    reason="prepared statements are PostgreSQL's, and DATABASE_PREPARE_AFTER=0 turns them off",
)

OPTIONS = """
from django.conf import settings
print(__import__("json").dumps(settings.DATABASES["default"].get("OPTIONS", {})))
"""


def options(**env) -> dict:
    """The default database's OPTIONS in a process with `env`: settings only, no connection."""
    process = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", OPTIONS],
        cwd=ROOT,
        env={**{k: v for k, v in os.environ.items() if k != "DATABASE_PREPARE_AFTER"}, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert process.returncode == 0, process.stderr
    return json.loads(process.stdout)


POSTGRES = "postgres://fairsheet_app@127.0.0.1:5432/fairsheet"


@pytest.mark.parametrize(
    "env, expected",
    [
        ({}, {"server_side_binding": True, "prepare_threshold": 5}),
        ({"DATABASE_PREPARE_AFTER": "2"}, {"server_side_binding": True, "prepare_threshold": 2}),
        # Off: Django's own way, the values bound in the app, nothing prepared.
        ({"DATABASE_PREPARE_AFTER": "0"}, {}),
        # What the URL's query string asks stays, beside it.
        (
            {"DATABASE_URL": POSTGRES + "?sslmode=require&connect_timeout=5"},
            {
                "sslmode": "require",
                "connect_timeout": 5,
                "server_side_binding": True,
                "prepare_threshold": 5,
            },
        ),
    ],
)
def test_postgres_prepares_what_it_runs_again_unless_turned_off(env, expected):
    assert options(**{"DATABASE_URL": POSTGRES, **env}) == expected


def test_sqlite_keeps_its_own_options():
    assert options(DATABASE_URL="sqlite:///tmp/fairsheet-options.sqlite3")["transaction_mode"] == (
        "IMMEDIATE"
    )


@preparing
@pytest.mark.django_db
def test_the_builders_edit_runs_its_reads_prepared(player_client, character):
    """Eight edits of Strength on one connection (psycopg prepares a statement run more than
    five times): its session, character and traits reads and its writes are each prepared
    once, then run as prepared (PostgreSQL's own list)."""
    strength = character.traits.get(kind=Trait.Kind.ATTRIBUTE, name="Strength")
    url = f"/characters/{character.pk}/traits/{strength.pk}/"
    for n in range(8):
        character.refresh_from_db()
        response = player_client.post(
            url,
            {"version": character.version, "name": "Strength", "level": (n + 1) % 2},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]

    def prepared_once(start: str, holding: str = "") -> int:
        return sum(s.startswith(start) and holding in s for s in prepared)

    assert prepared_once('SELECT "characters_usersession"') == 1
    assert prepared_once('SELECT "characters_character"."id"', 'AS "history_to_prune"') == 1
    assert prepared_once('SELECT "characters_trait"."id"') == 1
    assert prepared_once('UPDATE "characters_trait" SET "level" = $1') == 1
    assert prepared_once('INSERT INTO "characters_characterevent"') == 1
