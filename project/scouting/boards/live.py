"""What the live layer pushes about the boards: per sport, one ``leaderboard.changed`` body per
board and the ``stats.changed`` body, and when they change by time alone (registered with the
live layer's summaries scheduler in ``ScoutingConfig.ready()``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.utils import timezone

from project.common.choices import Sport
from project.common.db import db_datetime, reading
from project.scouting import selectors
from project.scouting.boards.reads import (
    BOARD_KINDS,
    TRENDING_WINDOW,
    _ranks_key,
    board_data,
    current_week,
    recent_on_boards_sql,
)
from project.scouting.boards.schemas import BoardKind
from project.scouting.models import Vote


def trending_window_ends(nomination_ids: Sequence[int], now: datetime) -> datetime | None:
    """When the oldest vote of the last 24 hours of these entries leaves the window (so the
    votes shown on the trending board change by time alone), or None. Read by hand with the
    live boards (``reads._board_rows``)."""
    if not nomination_ids:
        return None
    connection = reading(Vote)
    ops = connection.ops
    ids = ", ".join(["%s"] * len(nomination_ids))
    recent, params = recent_on_boards_sql(ops, now, "")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT MIN(created_at) FROM {ops.quote_name(Vote._meta.db_table)} "  # noqa: S608  (the model's table; values bound)
            f"WHERE nomination_id IN ({ids}) AND {recent}",
            [*nomination_ids, *params],
        )
        (oldest,) = cursor.fetchone()
    return None if oldest is None else db_datetime(oldest) + TRENDING_WINDOW


@dataclass(frozen=True)
class SportSummaries:
    """Everything the live layer pushes about a sport: one event body per board, the stats,
    and when the boards change by time alone (the week turning over, a vote leaving the
    trending window), so they can be pushed again then."""

    boards: dict[BoardKind, dict[str, Any]]
    stats: dict[str, int]
    refresh_at: datetime


def sport_summaries(sport: str, now: datetime | None = None) -> SportSummaries:
    """The boards and stats of a sport, as the ``leaderboard.changed`` (one per board kind)
    and ``stats.changed`` events carry them."""
    now = now or timezone.now()
    week = current_week(now)
    # The three boards' stored ranks in one cache read (movement).
    keys = {kind: _ranks_key(kind, sport, week.week) for kind in BOARD_KINDS}
    stored = cache.get_many(list(keys.values()))
    trending = board_data(
        kind="trending", sport=sport, now=now, stored=stored.get(keys["trending"])
    )
    weekly = board_data(kind="weekly", sport=sport, now=now, stored=stored.get(keys["weekly"]))
    boards: dict[BoardKind, dict[str, Any]] = {
        "all": {
            "board": "all",
            "players": board_data(kind="all", sport=sport, now=now, stored=stored.get(keys["all"])),
            "scouts": selectors.leaderboard_scouts(sport=sport),
        },
        "trending": {"board": "trending", "players": trending},
        "weekly": {
            "board": "weekly",
            "week": week.week.isoformat(),
            "resetsAt": week.resets_at.isoformat(),
            "players": weekly,
        },
    }
    window_ends = trending_window_ends([entry["id"] for entry in trending], now)
    refresh_at = min(filter(None, (week.resets_at, window_ends)))
    return SportSummaries(
        boards=boards, stats=selectors.sport_stats(sport=sport), refresh_at=refresh_at
    )


# --- For the live layer -------------------------------------------------------------------


class BoardSummaries:
    """What the live layer pushes about the boards (registered in ScoutingConfig.ready())."""

    def sport_summaries(self, sport: str) -> SportSummaries:
        return sport_summaries(sport)

    def sports(self) -> list[str]:
        return list(Sport.values)

    def next_week_start(self) -> datetime:
        return current_week().resets_at


SUMMARIES = BoardSummaries()
