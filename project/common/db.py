"""Database helpers Django has no API for: ``UPDATE ... RETURNING`` and raw datetimes."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, cast

from django.db import connections
from django.db.models import QuerySet
from django.db.models.sql import UpdateQuery
from django.utils import timezone


def update_returning(
    queryset: QuerySet[Any], values: dict[str, Any], returning: dict[str, Any]
) -> list[dict[str, Any]]:
    """``queryset.update(**values)`` that also answers, for each updated row, the expressions
    of ``returning`` evaluated on the row as updated: one statement where Django alone needs
    a second one to read back (it has no UPDATE ... RETURNING; PostgreSQL and SQLite 3.35+
    do). Values come back as the database driver gives them."""
    query = cast(UpdateQuery, queryset.query.chain(UpdateQuery))
    query.add_update_values(values)
    compiler = query.get_compiler(queryset.db)
    sql, params = compiler.as_sql()
    columns = []
    for name, expression in returning.items():
        resolved = expression.resolve_expression(query, allow_joins=False)
        column_sql, column_params = compiler.compile(resolved)
        columns.append(f"{column_sql} AS {compiler.quote_name_unless_alias(name)}")
        params = (*params, *column_params)
    with connections[queryset.db].cursor() as cursor:
        cursor.execute(f"{sql} RETURNING {', '.join(columns)}", params)
        return [dict(zip(returning, row, strict=True)) for row in cursor.fetchall()]


def db_datetime(value: Any) -> datetime:
    """An aware datetime from a raw cursor's column: SQLite answers text (naive UTC) or a
    naive datetime (by its column's converter)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return cast(datetime, value)
