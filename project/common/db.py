"""Database helpers Django has no API for: datetimes read by a raw cursor, the name of
GREATEST in the SQL the hot paths write by hand, and model instances from their rows."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from django.db import DEFAULT_DB_ALIAS
from django.db.models import Model
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
