"""Database helpers Django has no API for: datetimes read by a raw cursor, the name of
GREATEST in the SQL the hot paths write by hand, and model instances from their rows."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from django.db import DEFAULT_DB_ALIAS
from django.db.models import Model
from django.db.models.expressions import Col
from django.utils import timezone

M = TypeVar("M", bound=Model)


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


def from_row(model: type[M], connection: Any, values: list[Any]) -> M:
    """An instance of ``model`` from a raw cursor's values of all its concrete fields, in
    their order, converted as the ORM converts them (a SQLite boolean or datetime, say) and
    loaded as the ORM loads a row (``from_db``)."""
    fields = model._meta.concrete_fields
    converted = []
    for field, value in zip(fields, values, strict=True):
        column = Col(model._meta.db_table, field)
        for converter in (
            *connection.ops.get_db_converters(column),
            *field.get_db_converters(connection),
        ):
            value = converter(value, column, connection)
        converted.append(value)
    return model.from_db(connection.alias, [f.attname for f in fields], converted)
