"""Database helpers Django has no API for: the connection a read by hand goes through,
datetimes read by a raw cursor, the name of GREATEST in the SQL the hot paths write by hand,
model instances from their rows, one row inserted without the ORM's compiler, and statements
sent together in one round trip (``Pending``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any, TypeVar, cast
from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, connections, router
from django.db.models import Model
from django.db.models.expressions import Col
from django.utils import timezone

M = TypeVar("M", bound=Model)


def reading(model: type[Model]) -> Any:
    """The connection the ORM would read ``model`` through (the routers decide, as for a
    queryset): for reads written by hand."""
    return connections[router.db_for_read(model)]


def sql_greatest(connection: Any) -> str:
    """GREATEST on PostgreSQL; on SQLite the scalar (two-argument) MAX does the same."""
    return "GREATEST" if connection.vendor == "postgresql" else "MAX"


def db_datetime(value: Any) -> datetime:
    """An aware datetime from a raw cursor's column: SQLite answers text (naive UTC) or a
    naive datetime (by its column's converter)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return cast(datetime, value)


def loaded(model: type[M], *, using: str = DEFAULT_DB_ALIAS, **values: Any) -> M:
    """An instance of ``model`` as the ORM loads one from a row of database ``using``
    (``from_db``: no signals, no defaults), from these column values (by attname), the other
    columns deferred: for reads written by hand on a hot path."""
    fields = [f.attname for f in model._meta.concrete_fields if f.attname in values]
    return model.from_db(using, fields, [values[name] for name in fields])


# Per connection and model: the attnames of the concrete fields and, for each, its column and
# the converters the ORM would apply (Django's compiler works them out per query; a hot
# path's rows need them once).
_ROW_PLANS: WeakKeyDictionary[Any, dict[type[Model], tuple[list[str], list[Any]]]] = (
    WeakKeyDictionary()
)


def _row_plan(model: type[Model], connection: Any) -> tuple[list[str], list[Any]]:
    # Keyed by the thread's wrapper itself (``django.db.connection`` is a proxy to it).
    plans = _ROW_PLANS.setdefault(connections[connection.alias], {})
    plan = plans.get(model)
    if plan is None:
        fields = model._meta.concrete_fields
        columns = []
        for field in fields:
            column = Col(model._meta.db_table, field)
            converters = (
                *connection.ops.get_db_converters(column),
                *field.get_db_converters(connection),
            )
            columns.append((column, converters))
        plan = plans[model] = ([f.attname for f in fields], columns)
    return plan


def from_row(model: type[M], connection: Any, values: list[Any]) -> M:
    """An instance of ``model`` from a raw cursor's values of all its concrete fields, in
    their order, converted as the ORM converts them (a SQLite boolean or datetime, say) and
    loaded as the ORM loads a row (``from_db``)."""
    attnames, columns = _row_plan(model, connection)
    converted = []
    for (column, converters), value in zip(columns, values, strict=True):
        for converter in converters:
            value = converter(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, attnames, converted)


# Per connection and (model, attnames): the INSERT statement ``insert_row`` sends, and the
# fields that prepare its values.
_INSERTS: WeakKeyDictionary[
    Any, dict[tuple[type[Model], tuple[str, ...]], tuple[str, list[Any]]]
] = WeakKeyDictionary()


def insert_statement(model: type[Model], connection: Any, **values: Any) -> tuple[str, list[Any]]:
    """The INSERT of one row of ``model`` that ``insert_row`` sends, with its parameters
    (RETURNING the new id), for a caller that sends it with others (``Pending``)."""
    names = tuple(values)
    statements = _INSERTS.setdefault(connections[connection.alias], {})
    statement = statements.get((model, names))
    if statement is None:
        by_attname = {field.attname: field for field in model._meta.concrete_fields}
        fields = [by_attname[name] for name in names]
        quote = connection.ops.quote_name
        pk = model._meta.pk
        assert pk is not None
        statement = statements[(model, names)] = (
            f"INSERT INTO {quote(model._meta.db_table)} "  # noqa: S608  (the model's table and columns; values bound)
            f"({', '.join(quote(field.column) for field in fields)}) "
            f"VALUES ({', '.join(['%s'] * len(names))}) RETURNING {quote(pk.column)}",
            fields,
        )
    sql, fields = statement
    params = [
        field.get_db_prep_save(value, connection)
        for field, value in zip(fields, values.values(), strict=True)
    ]
    return sql, params


def insert_row(model: type[M], connection: Any, **values: Any) -> M:
    """INSERT one row of ``model`` from these values (by attname, each prepared as the ORM
    prepares it for saving: a JSON field's value, an aware datetime) and answer it as the ORM
    would have loaded it (``loaded``, with its new id). What ``objects.create()`` does without
    building and compiling a query each time (most of the CPU of an insert on a hot path;
    docs/decisions.md#inserts-by-hand), and without its signals, defaults or ``auto_now_add``:
    give every column that has no database default."""
    sql, params = insert_statement(model, connection, **values)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        pk = cursor.fetchone()[0]
    return loaded(model, using=connection.alias, **{model._meta.pk.attname: pk}, **values)


class Pending:
    """Statements sent together and answered together, inside a transaction: on PostgreSQL
    in psycopg's pipeline mode (one round trip for all of them, however many), elsewhere one
    by one. ``add`` sends one and answers its index; ``rows(i)`` its rows (the first call
    reads every answer; a statement that failed raises there, or when the block ends). For
    statements none of which needs another's answer: a write that holds a contended lock
    (the vote's, on its nomination) holds it over one round trip instead of one each.

    Every error of the driver in the block, its pipeline's included (a sync or the pipeline's
    exit on a connection the server ended), is raised as Django's (``OperationalError``...),
    as a statement's own error is: a database that goes away answers 503, not 500."""

    def __init__(self, connection: Any) -> None:
        self.connection = connection
        self.cursors: list[Any] = []
        self.answers: list[list[Any]] | None = None
        self.pipeline: Any = None
        self.stack = ExitStack()

    def __enter__(self) -> Pending:
        # Entered first, so left last: it sees what the pipeline's exit raises.
        self.stack.enter_context(self.connection.wrap_database_errors)
        try:
            self.connection.ensure_connection()
            if self.connection.vendor == "postgresql":
                self.pipeline = self.stack.enter_context(self.connection.connection.pipeline())
        except BaseException:
            self.stack.__exit__(*sys.exc_info())
            raise
        return self

    def add(self, sql: str, params: Sequence[Any]) -> int:
        cursor = self.stack.enter_context(self.connection.cursor())
        cursor.execute(sql, params)
        self.cursors.append(cursor)
        return len(self.cursors) - 1

    def rows(self, index: int) -> list[Any]:
        if self.answers is None:
            if self.pipeline is not None:
                with self.connection.wrap_database_errors:
                    self.pipeline.sync()
            self.answers = [
                [] if cursor.description is None else cursor.fetchall() for cursor in self.cursors
            ]
        return self.answers[index]

    def __exit__(self, *exc: Any) -> None:
        self.stack.__exit__(*exc)
