"""Reads compiled to SQL once per process (issue 40): the few that every signed-in request or
every builder edit makes; and the edit's writes, their SQL written once (update_rows,
insert_rows).

The ORM compiles a queryset to SQL each time it is evaluated. For the builder's character
query (a join and three subqueries) that took longer than PostgreSQL took to run it (0.34 ms
of 0.76), and reading a character's sixty traits spent as long compiling as fetching. A
CompiledRead compiles its queryset once, with stand-in values where the caller's go, and each
read binds the caller's values to that SQL and builds the rows as the ORM builds them:
select_related, annotations, each row's known parent and all.

It gives a list, never a queryset: a queryset chained from one would carry the SQL compiled
for another. A value is a row, a whole number or a text, and must reach the SQL as a
parameter, as a filter's value does; one that changes the SQL itself (None, which compiles
to IS NULL) is refused, and so is a kind of value each database adapts its own way.
"""

import copy
from contextlib import ExitStack, contextmanager
from functools import cache

from django.db import DatabaseError, connections, router, transaction
from django.db.models import Model
from django.http import Http404

_FIRST_STAND_IN = 900_001


class CompiledRead:
    def __init__(self, make):
        """`make(*values)` is the queryset; it is called with stand-ins once per database,
        then, where its rows know their parent (a related manager's `.all()`), with the
        caller's values at each read, for what the ORM reads off the queryset besides its
        SQL: its model, its database, each row's known parent."""
        self._make = make
        self._compiled = {}  # database alias -> (compiler, sql, where each value goes)
        # The stand-ins' queryset, once compiled, where no row knows a parent: each read
        # copies it rather than making its own, whose filters cost a fifth of a millisecond
        # to build for the builder's character read, their SQL never used.
        self._plain = None

    def __call__(self, *values) -> list:
        # A copy of its own: the compiler set on it below never reaches a queryset anyone
        # else holds (a related manager hands out the list it keeps, once prefetched).
        plain = self._plain
        queryset = (plain if plain is not None else self._make(*values)).all()
        alias = queryset.db
        compiled = self._compiled.get(alias) or self._compile(alias, values)
        compiler, sql, slots = compiled
        params = tuple(param if slot is None else _param(values[slot]) for param, slot in slots)
        # A copy for this read, on this thread's connection: the compiled one is shared.
        read = copy.copy(compiler)
        read.connection = connections[alias]
        read.as_sql = lambda *args, **kwargs: (sql, params)
        queryset.query.get_compiler = lambda *args, **kwargs: read
        return list(queryset)

    def _compile(self, alias: str, values: tuple):
        stand_ins = [_stand_in(value, n) for n, value in enumerate(values)]
        queryset = self._make(*stand_ins)
        compiler = queryset.query.get_compiler(using=alias)
        sql, params = compiler.as_sql()
        marks = [_param(stand_in) for stand_in in stand_ins]
        slots = tuple((param, _slot(param, marks)) for param in params)
        missing = set(range(len(values))) - {slot for _, slot in slots}
        if missing:
            raise ValueError(f"values {sorted(missing)} do not reach the SQL as parameters")
        self._compiled[alias] = compiler, sql, slots
        if not (queryset._known_related_objects or queryset._hints):
            self._plain = queryset
        return self._compiled[alias]


def update_rows(model: type[Model], *, where: dict, values: dict) -> int:
    """`model`'s rows matching `where` (each field equal to its value, or IS NULL for None)
    set to `values`, as queryset.update() sets them: each value prepared by its field as
    the ORM prepares it, in one statement whose SQL is written once per shape and process.
    The count of rows it changed. For the writes every builder edit makes (the claim of the
    character's row, the trait's new level): the ORM built and compiled such an update at
    each call, three times as long as PostgreSQL took to run it (issue 40)."""
    alias = router.db_for_write(model)
    connection = connections[alias]
    meta = model._meta
    exact = tuple(name for name, value in where.items() if value is not None)
    null = tuple(name for name, value in where.items() if value is None)
    sql = _update_sql(model, alias, tuple(values), exact, null)
    params = [meta.get_field(name).get_db_prep_save(values[name], connection) for name in values]
    params += [meta.get_field(name).get_db_prep_value(where[name], connection) for name in exact]
    with transaction.mark_for_rollback_on_error(alias), connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def update_row(row: Model, fields: list[str]) -> None:
    """row.save(update_fields=fields) by update_rows: no signal is sent (none is connected
    to these models) and, as save() does, a row no longer there raises DatabaseError."""
    changed = update_rows(
        type(row), where={"id": row.pk}, values={name: getattr(row, name) for name in fields}
    )
    if not changed:
        raise DatabaseError("Save with update_fields did not affect any rows.")


def insert_rows(*rows: Model) -> None:
    """row.save(force_insert=True) for each of `rows`, new rows with an automatic id, each by
    one statement whose SQL is written once per model and process: each field's value as
    save() prepares it (its pre_save first: a creation time set), the id the database gave
    it set on the row. No signal is sent (none is connected to these models). For the undo
    step and the event every builder edit writes, where the ORM built and compiled the
    insert at each save (a third of the statement's time, issue 40).

    On PostgreSQL the statements go together and their answers come back together
    (psycopg's pipeline mode): one round trip however many rows, where each was one. Nothing
    else runs meanwhile, so nothing reads an answer before it has come (a row count, an id)."""
    alias = router.db_for_write(type(rows[0]))
    connection = connections[alias]
    statements = [(_insert_sql(type(row), alias), _inserted(row, connection)) for row in rows]
    with transaction.mark_for_rollback_on_error(alias), ExitStack() as cursors:
        opened = [cursors.enter_context(connection.cursor()) for _ in rows]
        with _together(connection, len(rows)):
            for cursor, (sql, params) in zip(opened, statements, strict=True):
                cursor.execute(sql, params)
        for cursor, row in zip(opened, rows, strict=True):
            row.pk = cursor.fetchone()[0]
            row._state.adding, row._state.db = False, alias


def _inserted(row: Model, connection) -> list:
    return [
        field.get_db_prep_save(field.pre_save(row, True), connection)
        for field in _inserted_fields(type(row))
    ]


@contextmanager
def _together(connection, statements: int):
    """Statements sent without waiting for each answer, on PostgreSQL; elsewhere (SQLite, a
    single statement) each as it comes. A database error among them is raised on leaving,
    as Django raises it (an IntegrityError), and the rest are not run."""
    if statements < 2 or connection.vendor != "postgresql":
        yield
        return
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


@cache
def _inserted_fields(model) -> tuple:
    return tuple(f for f in model._meta.local_concrete_fields if f is not model._meta.auto_field)


@cache
def _insert_sql(model, alias: str) -> str:
    name = connections[alias].ops.quote_name
    columns = ", ".join(name(field.column) for field in _inserted_fields(model))
    marks = ", ".join("%s" for _ in _inserted_fields(model))
    return (
        f"INSERT INTO {name(model._meta.db_table)} ({columns}) VALUES ({marks}) "
        f"RETURNING {name(model._meta.auto_field.column)}"
    )


@cache
def _update_sql(model, alias: str, values: tuple, exact: tuple, null: tuple) -> str:
    name = connections[alias].ops.quote_name
    column = {field.name: name(field.column) for field in model._meta.concrete_fields}
    where = [f"{column[field]} = %s" for field in exact] + [f"{column[f]} IS NULL" for f in null]
    setting = ", ".join(f"{column[field]} = %s" for field in values)
    return f"UPDATE {name(model._meta.db_table)} SET {setting} WHERE {' AND '.join(where)}"


def one_or_404(rows: list):
    """The one row a read by id found, or a 404 as get_object_or_404 raises it."""
    if not rows:
        raise Http404("Nothing matches the given query.")
    return rows[0]


def _stand_in(value, n: int):
    """A value of `value`'s kind that no real one is: negative ids, a key with a NUL."""
    number = -(_FIRST_STAND_IN + n)
    if isinstance(value, Model):
        return value.__class__(pk=number)  # a lazy object (request.user) says its class
    if isinstance(value, bool) or value is None:
        raise TypeError(f"{value!r} changes the SQL itself: read it through the ORM")
    if isinstance(value, int):
        return number
    if isinstance(value, str):
        return f"\0stand-in {n}"
    raise TypeError(f"no stand-in for {type(value).__name__}")


def _param(value):
    """What the ORM puts in the SQL's parameters for `value`: a row's key for a row."""
    return value.pk if isinstance(value, Model) else value


def _slot(param, marks: list) -> int | None:
    for n, mark in enumerate(marks):
        if type(param) is type(mark) and param == mark:
            return n
    return None
