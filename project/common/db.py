"""Database helpers Django has no API for: datetimes read by a raw cursor, and the name of
GREATEST in the SQL the hot paths write by hand."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from django.utils import timezone


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
