"""The arithmetic of the moving boards.

Trending is forward-decayed by vote time: a vote cast at ``t`` (seconds since the Unix epoch)
weighs ``exp(lambda * t)`` and a nomination's score is ``log(sum(exp(lambda * t_vote)))``. At
any moment ``now`` the decayed weight ``sum(exp(-lambda * (now - t)))`` equals
``exp(trend - lambda * now)``, the same factor for every nomination, so the stored column's
order is the trending order at every moment. Adding and removing terms uses log-sum-exp so
nothing overflows.

Weekly counts are kept per (nomination, week), the week being the Monday that starts the ISO
week in ``BOARD_WEEK_TIME_ZONE``.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction


def trend_lambda() -> float:
    return math.log(2) / settings.BOARD_TRENDING_HALF_LIFE


def trend_term(voted_at: datetime) -> float:
    """``lambda * t`` of one vote: its term in the log-sum-exp."""
    return trend_lambda() * voted_at.timestamp()


def trend_add(trend: float | None, term: float) -> float:
    """log(exp(trend) + exp(term))."""
    if trend is None:
        return term
    high, low = max(trend, term), min(trend, term)
    return high + math.log1p(math.exp(low - high))


def trend_remove(trend: float | None, term: float, *, remaining: int) -> float | None:
    """log(exp(trend) - exp(term)); None once no counted vote remains."""
    if trend is None or remaining <= 0:
        return None
    gap = term - trend
    if gap >= 0:  # rounding: the removed term cannot outweigh the sum it belongs to
        return None
    return trend + math.log1p(-math.exp(gap))


def week_zone() -> ZoneInfo:
    return ZoneInfo(settings.BOARD_WEEK_TIME_ZONE)


def week_of(moment: datetime) -> date:
    """The Monday that starts the ISO week ``moment`` falls in, in the board's time zone."""
    local = moment.astimezone(week_zone()).date()
    return local - timedelta(days=local.weekday())


def next_week_start(moment: datetime) -> datetime:
    """The instant the week after ``moment``'s begins (aware, in the board's time zone)."""
    monday = week_of(moment) + timedelta(days=7)
    return datetime(monday.year, monday.month, monday.day, tzinfo=week_zone())


@dataclass
class BoardsFromVotes:
    """What a nomination's board columns must hold, computed from its vote rows."""

    vote_count: Counter[int]
    counted: Counter[int]
    trends: dict[int, float | None]
    weeks: Counter[tuple[int, date]]


def boards_from_votes(*, nomination_ids: Iterable[int], vote_model: Any) -> BoardsFromVotes:
    """Every active vote counts in ``vote_count``; the counted ones (trusted accounts) also in
    the trending score and the week's counter."""
    result = BoardsFromVotes(Counter(), Counter(), dict.fromkeys(nomination_ids), Counter())
    votes = vote_model.objects.filter(status="active").values_list(
        "nomination_id", "created_at", "counted"
    )
    for nomination_id, voted_at, counted in votes.iterator(chunk_size=10_000):
        result.vote_count[nomination_id] += 1
        if counted:
            result.trends[nomination_id] = trend_add(
                result.trends[nomination_id], trend_term(voted_at)
            )
            result.counted[nomination_id] += 1
            result.weeks[(nomination_id, week_of(voted_at))] += 1
    return result


@transaction.atomic
def boards_rebuild(*, nomination_model: Any, vote_model: Any, week_model: Any) -> int:
    """Recompute every nomination's counted votes, trending score and week counters from its
    vote rows (active and counted), e.g. after BOARD_TRENDING_HALF_LIFE or
    BOARD_WEEK_TIME_ZONE changed, or for votes cast before the columns existed. Takes the
    model classes so a data migration can pass its historical ones. Returns the nominations
    rebuilt."""
    nominations = list(nomination_model.objects.select_for_update().only("id", "sport"))
    sports = {nomination.pk: nomination.sport for nomination in nominations}
    built = boards_from_votes(nomination_ids=sports, vote_model=vote_model)
    for nomination in nominations:
        nomination.trend = built.trends[nomination.pk]
        nomination.counted_votes = built.counted[nomination.pk]
    nomination_model.objects.bulk_update(nominations, ["trend", "counted_votes"], batch_size=1_000)
    week_model.objects.all().delete()
    week_model.objects.bulk_create(
        [
            week_model(nomination_id=nomination_id, sport=sports[nomination_id], week=week, votes=n)
            for (nomination_id, week), n in built.weeks.items()
        ],
        batch_size=1_000,
    )
    return len(nominations)


def boards_check(*, nomination_model: Any, vote_model: Any, week_model: Any) -> list[str]:
    """Compare every nomination's stored counters with what its vote rows make (as after a
    restore from a backup); one line per difference, none when they agree. On PostgreSQL,
    outside a transaction, it reads one snapshot of the tables, so votes cast meanwhile do not
    show as differences."""
    connection = transaction.get_connection()
    snapshot = connection.vendor == "postgresql" and not connection.in_atomic_block
    with transaction.atomic():
        if snapshot:
            connection.cursor().execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return _boards_differences(
            nomination_model=nomination_model, vote_model=vote_model, week_model=week_model
        )


def _boards_differences(*, nomination_model: Any, vote_model: Any, week_model: Any) -> list[str]:
    stored = {
        row[0]: row[1:]
        for row in nomination_model.objects.values_list(
            "id", "vote_count", "counted_votes", "trend"
        )
    }
    built = boards_from_votes(nomination_ids=stored, vote_model=vote_model)
    problems = []
    for nomination_id, (vote_count, counted, trend) in sorted(stored.items()):
        expected = built.trends[nomination_id]
        same_trend = (trend is None) == (expected is None) and (
            trend is None or expected is None or math.isclose(trend, expected, rel_tol=1e-9)
        )
        if (vote_count, counted) != (built.vote_count[nomination_id], built.counted[nomination_id]):
            problems.append(
                f"nomination {nomination_id}: votes {vote_count}, counted {counted}; its rows "
                f"make {built.vote_count[nomination_id]}, {built.counted[nomination_id]}"
            )
        elif not same_trend:
            problems.append(f"nomination {nomination_id}: trend {trend}; its rows make {expected}")
    weeks = Counter(
        {
            (nomination_id, week): votes
            for nomination_id, week, votes in week_model.objects.values_list(
                "nomination_id", "week", "votes"
            )
            if votes
        }
    )
    for key in sorted(set(weeks) | set(built.weeks)):
        if weeks[key] != built.weeks[key]:
            problems.append(
                f"nomination {key[0]}, week of {key[1]}: {weeks[key]} votes; its rows make "
                f"{built.weeks[key]}"
            )
    return problems
