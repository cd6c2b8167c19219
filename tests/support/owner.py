"""What the tables' owner can do behind the app, on PostgreSQL with the two roles
(characters/db_roles.py): the tests of tamper evidence play that owner."""

import psycopg
from django.db import connections

from characters.db_roles import APPEND_ONLY_TABLES, OWNER_ALIAS
from tests.conftest import login_of


def as_owner(*statements, triggers_off=APPEND_ONLY_TABLES):
    """`statements` ((sql, params) pairs) committed as the owner, with the user triggers of
    `triggers_off` off meanwhile: what an owner (or anyone with its password) can do."""
    settings = connections["default"].settings_dict
    login = login_of(OWNER_ALIAS)
    with psycopg.connect(
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        dbname=settings["NAME"],
        user=login["USER"],
        password=login["PASSWORD"] or None,
    ) as raw:
        for table in triggers_off:
            raw.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        for sql, params in statements:
            raw.execute(sql, params)
        raw.commit()  # the foreign keys' checks, deferred to here, before the triggers are on
        for table in triggers_off:
            raw.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
