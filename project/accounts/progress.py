"""Members' points and streaks: one UPDATE for every user a write changes.

Points are the community's score (the scouts' leaderboard); a streak counts consecutive days
with activity. Services of other apps (scouting's votes and nominations, moderation's
approvals, integrity's voids) call these inside their own transaction; each user changed gets
``profile.changed`` after the commit.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.db import connections, router
from django.utils import timezone

from project.accounts.models import User
from project.common.db import sql_greatest
from realtime.publish import Event, publish

# The statement is written by hand: it runs on every vote, and building it from the ORM's
# expressions (a CASE per column and user) cost more CPU than the rest of the vote's SQL.
# ``{greatest}`` is GREATEST on PostgreSQL and the scalar MAX on SQLite.
_STREAK = (
    "CASE WHEN last_activity_date >= %s THEN current_streak "
    "WHEN last_activity_date = %s THEN current_streak + 1 ELSE 1 END"
)
_COLUMNS = {
    "points": "{greatest}(points + %s, 0)",
    "current_streak": _STREAK,
    "longest_streak": "{greatest}(longest_streak, " + _STREAK + ")",
    "last_activity_date": "CASE WHEN last_activity_date > %s THEN last_activity_date ELSE %s END",
}


def _column_params(column: str, points: int, today: date | None) -> list[Any] | None:
    """The parameters of ``column``'s expression for one user; None when it stays as is."""
    if column == "points":
        return [points] if points else None
    if today is None:
        return None
    streak = [today, today - timedelta(days=1)]
    return {
        "current_streak": streak,
        "longest_streak": streak,
        "last_activity_date": [today, today],
    }[column]


def user_progress(changes: dict[int, tuple[int, date | None]]) -> None:
    """Apply users' changes ``{user_id: (points, today or None)}`` now, in ONE UPDATE
    (``progress_statement``), then one profile.changed to each user from the updated rows
    (``progress_published``)."""
    statement = progress_statement(changes)
    if statement is None:
        return
    connection = connections[router.db_for_write(User)]
    with connection.cursor() as cursor:
        cursor.execute(*statement)
        progress_published(cursor.fetchall())


def progress_statement(
    changes: dict[int, tuple[int, date | None]],
) -> tuple[str, list[Any]] | None:
    """The ONE UPDATE of users' changes ``{user_id: (points, today or None)}`` (None when
    nothing changes), RETURNING what ``progress_published`` takes: add the points (never
    below 0) and, given ``today``, advance the streak: the first activity on a new day
    advances current_streak (reset to 1 after a missed day) and raises longest_streak to
    match; an earlier date never rewinds anything. Atomic in the database whatever else runs.

    Several users' rows are locked in ascending id order (the lock order) by a locking
    subquery, so two such updates of the same users cannot deadlock."""
    user_ids = sorted(user_id for user_id, (points, today) in changes.items() if points or today)
    if not user_ids:
        return None
    connection = connections[router.db_for_write(User)]
    ops = connection.ops
    greatest = sql_greatest(connection)
    table = ops.quote_name(User._meta.db_table)
    assignments: list[str] = []
    params: list[Any] = []
    for column, template in _COLUMNS.items():
        expression = template.format(greatest=greatest)
        per_user = {}
        for user_id in user_ids:
            points, today = changes[user_id]
            column_params = _column_params(column, points, today)
            if column_params is not None:
                per_user[user_id] = [
                    ops.adapt_datefield_value(value) if isinstance(value, date) else value
                    for value in column_params
                ]
        if not per_user:
            continue
        if len(user_ids) == 1:
            assignments.append(f"{column} = {expression}")
            params.extend(per_user[user_ids[0]])
            continue
        whens = []
        for user_id, column_params in per_user.items():
            whens.append(f"WHEN id = %s THEN {expression}")
            params.extend([user_id, *column_params])
        assignments.append(f"{column} = CASE {' '.join(whens)} ELSE {column} END")
    placeholders = ", ".join(["%s"] * len(user_ids))
    where = f"id IN ({placeholders})"
    if len(user_ids) > 1 and connection.vendor == "postgresql":
        where = (
            f"id IN (SELECT id FROM {table} WHERE id IN ({placeholders}) "  # noqa: S608  (the model's table; values bound)
            "ORDER BY id FOR NO KEY UPDATE)"
        )
    params.extend(user_ids)
    return (
        f"UPDATE {table} SET {', '.join(assignments)} WHERE {where} "  # noqa: S608  (the model's table and columns; values bound)
        "RETURNING id, points, current_streak, longest_streak",
        params,
    )


def progress_published(rows: list[Any]) -> None:
    """profile.changed to each user of the UPDATE's rows (id, points, streaks), after commit."""
    for user_id, points, current_streak, longest_streak in sorted(rows):
        data = {"points": points, "currentStreak": current_streak, "longestStreak": longest_streak}
        publish(Event("profile.changed", data, user_ids=(user_id,)))


def user_points_add(*, user_id: int, delta: int) -> None:
    """Add ``delta`` points (negative to take back); the total never goes below 0.
    Publishes profile.changed to the user after commit."""
    user_progress({user_id: (delta, None)})


def user_streak_touch(*, user_id: int, today: date | None = None) -> None:
    """Record activity on ``today``: the first on a new day advances currentStreak (reset to 1
    after a missed day) and raises longestStreak to match. Publishes profile.changed."""
    user_progress({user_id: (0, today or timezone.localdate())})
