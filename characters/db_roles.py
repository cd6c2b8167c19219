"""The two PostgreSQL roles Fairsheet runs with (README, "Database roles").

- The owner (DATABASE_OWNER_URL) owns the tables: it runs the migrations and nothing else.
- The runtime role (DATABASE_URL) is what the app servers connect as. It owns nothing, so it
  cannot ALTER, DROP or TRUNCATE a table, disable a trigger or switch the session to
  replica mode, nor create a table anywhere (no CREATE on any schema, no TEMP), so no table
  of its own can stand in for one of the app's. It may SELECT, INSERT, UPDATE and DELETE
  rows, except on the append-only audit tables below, where it may only SELECT and INSERT.

`grant_runtime_role` sets that up, idempotently: `manage.py setup_app_role`, and every
`manage.py migrate` as the owner, run it (so a new table is usable at once).
"""

import re
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import connections

OWNER_ALIAS = "owner"
# Tables whose rows are never changed or removed (their triggers refuse it as well, see
# migrations 0002, 0010 and 0030): the runtime role gets no UPDATE or DELETE on them. One
# line per table.
APPEND_ONLY_TABLES = (
    "characters_characterevent",
    "characters_campaignevent",
    "characters_threadmessage",
)
ROW_PRIVILEGES = "SELECT, INSERT, UPDATE, DELETE"
ROLE_NAME = re.compile(r"[a-z_][a-z0-9_$]{0,62}")
# Role attributes that would let the runtime role step around the tables' owner.
TOO_POWERFUL = ("rolsuper", "rolcreaterole", "rolcreatedb", "rolreplication", "rolbypassrls")


# The schemas a role may create tables in; another session's temporary schemas do not count.
CREATABLE_SCHEMAS = (
    "SELECT nspname FROM pg_namespace WHERE has_schema_privilege(%s, oid, 'CREATE') "
    "AND nspname NOT LIKE 'pg\\_temp\\_%%' AND nspname NOT LIKE 'pg\\_toast\\_temp\\_%%' "
    "ORDER BY nspname"
)

_migrating_as_owner = ContextVar("migrating_as_owner", default=False)


@contextmanager
def every_query_as_owner():
    """While `manage.py migrate` runs as the owner, send every ORM query there too."""
    token = _migrating_as_owner.set(True)
    try:
        yield
    finally:
        _migrating_as_owner.reset(token)


class OwnerWhileMigratingRouter:
    """Some third-party data migrations query through a model's default manager instead of
    `schema_editor.connection` (django-tasks-db's 0016), which routes to `default`: the
    runtime role, which may not exist yet and has no rights on a table created a moment ago."""

    def db_for_read(self, model, **hints):
        return OWNER_ALIAS if _migrating_as_owner.get() else None

    db_for_write = db_for_read


class RoleSetupError(Exception):
    """The runtime role cannot be set up safely; the message says what to do instead."""


def grant_runtime_role(*, role: str, password: str | None = None, using: str = OWNER_ALIAS):
    """Create the runtime role if it is missing and give it exactly its rights on the tables
    of `using`'s database and schema, connected as their owner. Returns what it did."""
    if not ROLE_NAME.fullmatch(role or ""):
        raise RoleSetupError(
            f"{role!r} cannot be the runtime role: use a lower-case name of letters, digits "
            "and underscores (the user in DATABASE_URL)."
        )
    connection = connections[using]
    if connection.vendor != "postgresql":
        raise RoleSetupError("Database roles are a PostgreSQL feature: SQLite has no roles.")
    quoted = connection.ops.quote_name(role)
    done = []
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user, current_database(), current_schema()")
        owner, database, schema = cursor.fetchone()
        if role == owner:
            raise RoleSetupError(
                f"DATABASE_URL and DATABASE_OWNER_URL both use the role {role}: the app must "
                "connect as a role that owns nothing."
            )
        cursor.execute(f"SELECT {', '.join(TOO_POWERFUL)} FROM pg_roles WHERE rolname = %s", [role])
        attributes = cursor.fetchone()
        if attributes is None:
            _create_role(cursor, role, quoted)
            done.append(f"created the role {role}")
        elif any(attributes):
            flags = [name[3:] for name, on in zip(TOO_POWERFUL, attributes, strict=True) if on]
            raise RoleSetupError(
                f"The runtime role {role} has {', '.join(flags)}: that steps around the "
                f"tables' owner. Run as an administrator: ALTER ROLE {role} "
                + " ".join(f"NO{flag.upper()}" for flag in flags)
                + ";"
            )
        _refuse_ownership_or_membership(cursor, role, owner)
        _revoke_creating(cursor, role, quoted, database, connection)
        if password:
            cursor.execute(f"ALTER ROLE {quoted} PASSWORD %s", [password])
        for sql in _grants(quoted, connection.ops.quote_name(database), schema, connection):
            cursor.execute(sql)
    done.append(
        f"granted {role} {ROW_PRIVILEGES} on {database}.{schema}, "
        f"without UPDATE or DELETE on {', '.join(APPEND_ONLY_TABLES)}"
    )
    return done


def _create_role(cursor, role, quoted):
    cursor.execute("SELECT rolcreaterole OR rolsuper FROM pg_roles WHERE rolname = current_user")
    if not cursor.fetchone()[0]:
        raise RoleSetupError(
            f"The role {role} does not exist and the owner may not create roles. Ask an "
            f"administrator to run: CREATE ROLE {role} LOGIN PASSWORD '...'; then run this again."
        )
    cursor.execute(
        f"CREATE ROLE {quoted} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS"
    )


def _refuse_ownership_or_membership(cursor, role, owner):
    cursor.execute(
        "SELECT count(*) FROM pg_class WHERE relowner = "
        "(SELECT oid FROM pg_roles WHERE rolname = %s)",
        [role],
    )
    if cursor.fetchone()[0]:
        raise RoleSetupError(
            f"The runtime role {role} owns tables in this database (were the migrations run "
            f"as {role}?). Hand them to the owner, as an administrator: REASSIGN OWNED BY "
            f"{role} TO {owner}; then run this again."
        )
    cursor.execute("SELECT pg_has_role(%s, %s, 'MEMBER')", [role, owner])
    if cursor.fetchone()[0]:
        raise RoleSetupError(
            f"The runtime role {role} is a member of the owner {owner}, so it has the "
            f"owner's rights. As an administrator: REVOKE {owner} FROM {role};"
        )


def _revoke_creating(cursor, role, quoted, database, connection):
    """No TEMP on the database and no CREATE on any schema: a table of the runtime role's
    own, in pg_temp or elsewhere, could shadow one of the app's for a lookup by name
    (issue 31: a TEMP table named characters_characterevent let a DELETE through a trigger
    that looked the table up unqualified). PUBLIC holds both by default, so they are
    revoked from PUBLIC too; what the owner may not revoke is refused with what to run."""
    cursor.execute(
        f"REVOKE TEMPORARY ON DATABASE {connection.ops.quote_name(database)} FROM PUBLIC, {quoted}"
    )
    cursor.execute(CREATABLE_SCHEMAS, [role])
    for (schema,) in cursor.fetchall():
        cursor.execute(
            f"REVOKE CREATE ON SCHEMA {connection.ops.quote_name(schema)} FROM PUBLIC, {quoted}"
        )
    cursor.execute("SELECT has_database_privilege(%s, %s, 'TEMPORARY')", [role, database])
    if cursor.fetchone()[0]:
        raise RoleSetupError(
            f"The runtime role {role} may create temporary tables, which could stand in for "
            f"the app's own. As the database's owner or an administrator: REVOKE TEMPORARY ON "
            f"DATABASE {database} FROM PUBLIC, {role}; (and from any role {role} belongs to)."
        )
    cursor.execute(CREATABLE_SCHEMAS, [role])
    schemas = ", ".join(schema for (schema,) in cursor.fetchall())
    if schemas:
        raise RoleSetupError(
            f"The runtime role {role} may create tables in the schema {schemas}. As its "
            f"owner: REVOKE CREATE ON SCHEMA {schemas} FROM PUBLIC, {role};"
        )


def _grants(role, database, schema, connection):
    schema = connection.ops.quote_name(schema)
    append_only = ", ".join(connection.ops.quote_name(t) for t in APPEND_ONLY_TABLES)
    return [
        f"GRANT CONNECT ON DATABASE {database} TO {role}",
        f"GRANT USAGE ON SCHEMA {schema} TO {role}",
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {role}",
        f"GRANT {ROW_PRIVILEGES} ON ALL TABLES IN SCHEMA {schema} TO {role}",
        f"REVOKE UPDATE, DELETE ON {append_only} FROM {role}",
        f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {schema} FROM {role}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {role}",
    ]
