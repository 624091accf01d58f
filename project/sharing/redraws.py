"""Share cards redrawn per change: a vote (cast or taken back) changes the count its
nomination's card shows, so it asks for a redraw in its own transaction. The ask is one
statement sent with the vote's others (no round trip of its own): it inserts the nomination's
``CardRedraw`` marker and, only when the marker is new, the redraw's task row (run
SHARE_CARD_REDRAW_DELAY seconds later). A burst of votes therefore enqueues one redraw per
delay, a rolled-back vote enqueues nothing, and the task deletes the marker as it starts.

The redraw also redraws the cards of the sport whose ranks moved: a vote moves other
nominations on the sport's three boards (their top 10), and only cards on those boards, or
that showed a rank before, show one."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import connection, connections, transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from project.jobs.services import command_task_row, task_columns
from project.sharing.models import CardRedraw

COMMAND = "share_cards"


def card_redraw_statements(nomination_id: int, *, now: datetime) -> list[tuple[str, list[Any]]]:
    """The statements that ask for the nomination's card's redraw (one on PostgreSQL), for a
    caller that sends them with its own (``Pending``)."""
    _, _, values = command_task_row(
        COMMAND,
        ["--redraw", str(nomination_id)],
        run_after=now + timedelta(seconds=settings.SHARE_CARD_REDRAW_DELAY),
        connection=connection,
    )
    requested_at = connection.ops.adapt_datetimefield_value(now)
    sqls = _statements(connection.alias)
    if connection.vendor == "postgresql":
        return [(sqls[0], [nomination_id, requested_at, *values])]
    return [(sqls[0], [*values, nomination_id]), (sqls[1], [nomination_id, requested_at])]


@lru_cache(maxsize=8)
def _statements(alias: str) -> tuple[str, ...]:
    """The ask's SQL on the connection ``alias``: its values are bound, so the text is built
    once per process."""
    connection = connections[alias]
    quote = connection.ops.quote_name
    columns = task_columns(alias)
    table = quote(DBTaskResult._meta.db_table)
    marker = quote(CardRedraw._meta.db_table)
    names = ", ".join(quote(column) for column, _ in columns)
    if connection.vendor == "postgresql":
        # Typed: with server-side binding a bare parameter in a select list is text.
        typed = ", ".join(f"CAST(%s AS {db_type})" for _, db_type in columns)
        return (
            f"WITH marked AS (INSERT INTO {marker} (nomination_id, requested_at) "  # noqa: S608  (the models' tables and columns; values bound)
            "VALUES (%s, %s) ON CONFLICT (nomination_id) DO NOTHING RETURNING 1) "
            f"INSERT INTO {table} ({names}) SELECT {typed} FROM marked",
        )
    placeholders = ", ".join(["%s"] * len(columns))
    return (
        f"INSERT INTO {table} ({names}) SELECT {placeholders} "  # noqa: S608  (the models' tables and columns; values bound)
        f"WHERE NOT EXISTS (SELECT 1 FROM {marker} WHERE nomination_id = %s)",
        f"INSERT INTO {marker} (nomination_id, requested_at) VALUES (%s, %s) "  # noqa: S608  (the model's table; values bound)
        "ON CONFLICT (nomination_id) DO NOTHING",
    )


def card_redraw_request(nomination_id: int) -> None:
    """Ask for the nomination's card's redraw in the current transaction (a new nomination,
    an edit): the statements a vote sends with its own, sent here on their own."""
    with transaction.atomic(), connection.cursor() as cursor:
        for sql, params in card_redraw_statements(nomination_id, now=timezone.now()):
            cursor.execute(sql, params)


def card_redraw_started(nomination_id: int) -> None:
    """The redraw's task starts: its marker goes (committed at once), so a change from now
    on enqueues the next redraw."""
    with transaction.atomic():
        CardRedraw.objects.filter(nomination_id=nomination_id).delete()
