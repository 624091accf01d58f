"""Members' points and streaks: one UPDATE for every user a write changes.

Points are the community's score (the scouts' leaderboard); a streak counts consecutive days
with activity. Services of other apps (scouting's votes and nominations, moderation's
approvals, integrity's voids) call these inside their own transaction; each user changed gets
``profile.changed`` after the commit.
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

from django.db.models import Case, DateField, F, Field, IntegerField, Value, When
from django.db.models.functions import Greatest
from django.utils import timezone

from project.accounts.models import User
from project.common.db import update_returning
from realtime.publish import Event, publish


def _streak_changes(today: date) -> dict[str, Any]:
    """The streak columns after activity on ``today``: the first on a new day advances
    current_streak (reset to 1 after a missed day) and raises longest_streak to match; an
    earlier date never rewinds anything."""
    streak = Case(
        When(last_activity_date__gte=today, then=F("current_streak")),
        When(last_activity_date=today - timedelta(days=1), then=F("current_streak") + 1),
        default=Value(1),
        output_field=IntegerField(),
    )
    return {
        "current_streak": streak,
        "longest_streak": Greatest(F("longest_streak"), streak, output_field=IntegerField()),
        "last_activity_date": Case(
            When(last_activity_date__gt=today, then=F("last_activity_date")),
            default=Value(today),
            output_field=DateField(),
        ),
    }


def _per_user(user_ids: list[int], column: str, expressions: dict[int, Any]) -> Any:
    """One user's expression when only one user changes, else a CASE over the users (those
    without an expression keep the column as it is)."""
    if len(user_ids) == 1:
        return expressions[user_ids[0]]
    whens = [When(pk=user_id, then=expression) for user_id, expression in expressions.items()]
    field = User._meta.get_field(column)
    assert isinstance(field, Field)  # a column of the user row, not a relation
    return Case(*whens, default=F(column), output_field=field)


def user_progress(changes: dict[int, tuple[int, date | None]]) -> None:
    """Apply users' changes ``{user_id: (points, today or None)}`` in ONE UPDATE: add the
    points (never below 0) and, given ``today``, advance the streak; atomic in the database
    whatever else runs. Then one profile.changed to each user, from the updated rows.

    Several users' rows are locked in ascending id order (the lock order) by a locking
    subquery, so two such updates of the same users cannot deadlock."""
    user_ids = sorted(user_id for user_id, (points, today) in changes.items() if points or today)
    if not user_ids:
        return
    columns: dict[str, dict[int, Any]] = {}
    for user_id in user_ids:
        points, today = changes[user_id]
        if points:
            columns.setdefault("points", {})[user_id] = Greatest(
                F("points") + points, Value(0), output_field=IntegerField()
            )
        if today is not None:
            for column, expression in _streak_changes(today).items():
                columns.setdefault(column, {})[user_id] = expression
    values = {column: _per_user(user_ids, column, exprs) for column, exprs in columns.items()}
    users = User.objects.filter(pk=user_ids[0])
    if len(user_ids) > 1:
        locked = User.objects.filter(pk__in=user_ids).order_by("pk").select_for_update(no_key=True)
        users = User.objects.filter(pk__in=locked.values("pk")[: len(user_ids)])
    returning = {
        "id": F("id"),
        "points": F("points"),
        "currentStreak": F("current_streak"),
        "longestStreak": F("longest_streak"),
    }
    for row in sorted(update_returning(users, values, returning), key=lambda row: row["id"]):
        user_id = row.pop("id")
        publish(Event("profile.changed", row, user_ids=(user_id,)))


def user_points_add(*, user_id: int, delta: int) -> None:
    """Add ``delta`` points (negative to take back); the total never goes below 0.
    Publishes profile.changed to the user after commit."""
    user_progress({user_id: (delta, None)})


def user_streak_touch(*, user_id: int, today: date | None = None) -> None:
    """Record activity on ``today``: the first on a new day advances currentStreak (reset to 1
    after a missed day) and raises longestStreak to match. Publishes profile.changed."""
    user_progress({user_id: (0, today or timezone.localdate())})
