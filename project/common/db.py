"""Database helpers Django has no API for: datetimes read by a raw cursor."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from django.utils import timezone


def db_datetime(value: Any) -> datetime:
    """An aware datetime from a raw cursor's column: SQLite answers text (naive UTC) or a
    naive datetime (by its column's converter)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return cast(datetime, value)
