"""The boards: all time, trending and weekly (order, ties, scores, movement), the week turning
over in a chosen time zone, and the Player of the Week history with its paging.

The vote services maintain ``trend`` and the week counters; these tests set them directly to
read exactly the state they describe."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from project.accounts.models import User
from project.common.pagination import PageQuery
from project.scouting.boards import live as board_live
from project.scouting.boards import reads as board_reads
from project.scouting.boards.maths import trend_add, trend_term, week_of
from project.scouting.boards.schemas import BoardEntryEventOut
from project.scouting.models import (
    Nomination,
    NominationStatus,
    NominationWeek,
    Vote,
    VoteStatus,
)
from project.scouting.selectors import _wire
from tests.builders import make_nomination, make_user
from tests.helpers import BOARD_PLACE_KEYS, NOMINATION_KEYS, ApiClient, assert_error

pytestmark = pytest.mark.django_db

NOW = datetime(2025, 3, 12, 15, 0, tzinfo=UTC)  # a Wednesday
THIS_WEEK = date(2025, 3, 10)


def board(api: ApiClient, kind: str, sport: str | None = "football") -> list[dict[str, Any]]:
    query = f"?board={kind}" + (f"&sport={sport}" if sport else "")
    response = api.get(f"/api/leaderboard/players{query}")
    assert response.status_code == 200, response.content
    return response.json()


def places(entries: list[dict[str, Any]]) -> list[tuple[int, int, int, int | None]]:
    return [(e["id"], e["rank"], e["score"], e["movement"]) for e in entries]


def with_votes(nomination: Nomination, votes: int) -> Nomination:
    Nomination.objects.filter(pk=nomination.pk).update(vote_count=votes)
    return nomination


def votes_at(nomination: Nomination, *moments: datetime) -> None:
    """Vote rows cast at ``moments`` and the trend they make (as the vote service keeps it)."""
    trend = Nomination.objects.get(pk=nomination.pk).trend
    for moment in moments:
        vote = Vote.objects.create(nomination=nomination, user=make_user())
        Vote.objects.filter(pk=vote.pk).update(created_at=moment)
        trend = trend_add(trend, trend_term(moment))
    Nomination.objects.filter(pk=nomination.pk).update(
        trend=trend, vote_count=Vote.objects.filter(nomination=nomination).count()
    )


def week_votes(nomination: Nomination, week: date, votes: int) -> None:
    NominationWeek.objects.update_or_create(
        nomination=nomination, week=week, defaults={"sport": nomination.sport, "votes": votes}
    )


@pytest.fixture
def at_now() -> Any:
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


def test_all_time_board_ranks_ties_and_keeps_the_specification_shape(
    scout_api: ApiClient, other_scout: User
) -> None:
    first = with_votes(make_nomination(other_scout), 9)
    tie_old = with_votes(make_nomination(other_scout), 5)
    tie_new = with_votes(make_nomination(other_scout), 5)
    fourth = with_votes(make_nomination(other_scout), 2)
    with_votes(make_nomination(other_scout, status=NominationStatus.REJECTED), 50)
    with_votes(make_nomination(other_scout, sport="hockey"), 40)

    entries = board(scout_api, "all")
    assert places(entries) == [
        (first.pk, 1, 9, 0),
        (tie_old.pk, 2, 5, 0),
        (tie_new.pk, 2, 5, 0),
        (fourth.pk, 4, 2, 0),
    ]
    assert (
        board(scout_api, "all") == scout_api.get("/api/leaderboard/players?sport=football").json()
    )
    assert set(entries[0]) == NOMINATION_KEYS | BOARD_PLACE_KEYS


def test_movement_compares_with_the_previous_board(scout_api: ApiClient, other_scout: User) -> None:
    a = with_votes(make_nomination(other_scout), 3)
    b = with_votes(make_nomination(other_scout), 2)
    c = with_votes(make_nomination(other_scout), 1)
    board(scout_api, "all")

    with_votes(c, 4)
    assert places(board(scout_api, "all")) == [
        (c.pk, 1, 4, 2),
        (a.pk, 2, 3, -1),
        (b.pk, 3, 2, -1),
    ]
    # Reading the same board again tells the same movement (since the previous board).
    assert places(board(scout_api, "all"))[0] == (c.pk, 1, 4, 2)

    newcomer = with_votes(make_nomination(other_scout), 10)
    entries = places(board(scout_api, "all"))
    assert entries[0] == (newcomer.pk, 1, 10, None)
    assert entries[1] == (c.pk, 2, 4, -1)


def test_trending_orders_by_decayed_votes_and_shows_the_last_24_hours(
    scout_api: ApiClient, other_scout: User, at_now: Any
) -> None:
    old_many = make_nomination(other_scout)
    votes_at(old_many, *(NOW - timedelta(days=3, minutes=m) for m in range(6)))  # 6 * 1/8
    fresh = make_nomination(other_scout)
    votes_at(fresh, NOW - timedelta(hours=1), NOW - timedelta(hours=2))
    mixed = make_nomination(other_scout)
    votes_at(mixed, NOW - timedelta(hours=30), NOW - timedelta(minutes=5))
    make_nomination(other_scout)  # no vote: not trending
    hockey = make_nomination(other_scout, sport="hockey")
    votes_at(hockey, NOW - timedelta(minutes=1), NOW - timedelta(minutes=2), NOW)
    rejected = make_nomination(other_scout, status=NominationStatus.REJECTED)
    votes_at(rejected, *(NOW for _ in range(5)))

    assert places(board(scout_api, "trending")) == [
        (fresh.pk, 1, 2, 0),
        (mixed.pk, 2, 1, 0),
        (old_many.pk, 3, 0, 0),
    ]
    across = [entry["id"] for entry in board(scout_api, "trending", sport=None)]
    assert across == [hockey.pk, fresh.pk, mixed.pk, old_many.pk]


def test_each_board_is_one_query(other_scout: User, at_now: Any) -> None:
    for n in range(12):
        nomination = with_votes(make_nomination(other_scout), n)
        votes_at(nomination, NOW - timedelta(hours=n))
        week_votes(nomination, THIS_WEEK, n + 1)
    for kind in ("all", "trending", "weekly"):
        with CaptureQueriesContext(connection) as captured:
            entries = board_reads.board_nominations(kind=kind, sport="football")
        assert len(entries) == 10
        # Trending's votes of the last 24 hours come in the same query; the cache read and
        # write of the ranks are no SQL.
        assert len(captured.captured_queries) == 1, kind
    # The score shown on trending is still each entry's votes of the last 24 hours: its one
    # vote, at most 11 hours old.
    trending = board_reads.board_nominations(kind="trending", sport="football")
    assert [entry.score for entry in trending] == [1] * 10  # type: ignore[attr-defined]


def test_the_live_boards_are_the_rest_boards_encoded_as_the_schema_does(
    other_scout: User, at_now: Any
) -> None:
    """The live layer reads its boards by hand (``board_data``: its own statement and its own
    encoding); each must be the REST board as its schema encodes it: the same entries in the
    same order (ties, statuses off the boards, other sports and weeks left out), every field,
    alias, date format, rank, score and movement, for one sport and for all."""
    for n in range(12):
        nomination = with_votes(
            make_nomination(
                other_scout,
                age=None if n % 2 else 14 + n,
                graduation_year=2030 + n if n % 2 else None,
                video_link=f"https://example.com/{n}" if n % 3 else "",
                status=NominationStatus.APPROVED if n % 4 else NominationStatus.PENDING,
            ),
            n // 2,  # ties: pairs of equal votes
        )
        votes_at(nomination, NOW - timedelta(hours=n, microseconds=n * 1234))
        votes_at(nomination, NOW - timedelta(hours=30 + n))  # out of the trending window
        week_votes(nomination, THIS_WEEK, (n % 5) + 1)
        week_votes(nomination, THIS_WEEK - timedelta(days=7), 40 + n)
    for status in (NominationStatus.REJECTED, NominationStatus.HIDDEN):
        off = with_votes(make_nomination(other_scout, status=status), 500)
        votes_at(off, NOW - timedelta(hours=1))
        week_votes(off, THIS_WEEK, 500)
    other_sport = with_votes(make_nomination(other_scout, sport="soccer"), 300)
    votes_at(other_sport, NOW - timedelta(hours=2))
    week_votes(other_sport, THIS_WEEK, 300)
    first = Nomination.objects.filter(sport="football").order_by("id").first()
    assert first is not None
    Player = type(first.player)
    Player.objects.filter(pk=first.player_id).update(verified=True)
    for sport in ("football", None):
        for kind in ("all", "trending", "weekly"):
            board_reads.board_nominations(kind=kind, sport=sport)  # a previous board
            with_votes(first, 100)  # moves up: movements other than 0
            entries = board_reads.board_nominations(kind=kind, sport=sport)
            assert len(entries) == 10
            assert board_reads.board_data(kind=kind, sport=sport) == [
                _wire(BoardEntryEventOut.from_orm(entry)) for entry in entries
            ], (kind, sport)
            with_votes(first, 0)


def test_the_summaries_come_again_when_the_oldest_trending_vote_leaves_the_window(
    other_scout: User, at_now: Any
) -> None:
    """``refresh_at``: when the trending board's votes change by time alone (its entries'
    oldest counted, active vote of the last 24 hours turns 24 hours old), or else when the
    week turns over. Votes that do not count, voided ones and older ones do not say when."""
    resets_at = board_reads.current_week(NOW).resets_at
    assert board_live.sport_summaries("football", NOW).refresh_at == resets_at
    shown = make_nomination(other_scout)
    votes_at(shown, NOW - timedelta(hours=20), NOW - timedelta(hours=2))
    votes_at(make_nomination(other_scout), NOW - timedelta(hours=30))
    votes_at(shown, NOW - timedelta(hours=23), NOW - timedelta(hours=22))
    uncounted, voided = Vote.objects.filter(nomination=shown).order_by("created_at")[:2]
    Vote.objects.filter(pk=uncounted.pk).update(counted=False)
    Vote.objects.filter(pk=voided.pk).update(status=VoteStatus.VOID)
    summaries = board_live.sport_summaries("football", NOW)
    assert summaries.refresh_at == NOW + timedelta(hours=4)
    assert board_live.sport_summaries("hockey", NOW).refresh_at == resets_at


def test_weekly_board_counts_this_week_only(
    scout_api: ApiClient, other_scout: User, at_now: Any
) -> None:
    leader = make_nomination(other_scout)
    week_votes(leader, THIS_WEEK, 4)
    week_votes(leader, THIS_WEEK - timedelta(days=7), 100)
    second = make_nomination(other_scout)
    week_votes(second, THIS_WEEK, 2)
    last_week_star = make_nomination(other_scout)
    week_votes(last_week_star, THIS_WEEK - timedelta(days=7), 50)
    emptied = make_nomination(other_scout)
    week_votes(emptied, THIS_WEEK, 0)
    hockey = make_nomination(other_scout, sport="hockey")
    week_votes(hockey, THIS_WEEK, 9)
    rejected = make_nomination(other_scout, status=NominationStatus.REJECTED)
    week_votes(rejected, THIS_WEEK, 30)

    assert places(board(scout_api, "weekly")) == [(leader.pk, 1, 4, 0), (second.pk, 2, 2, 0)]
    assert [e["id"] for e in board(scout_api, "weekly", sport=None)] == [
        hockey.pk,
        leader.pk,
        second.pk,
    ]


def test_the_week_turns_over_at_midnight_in_the_board_time_zone(
    scout_api: ApiClient, other_scout: User, settings: Any
) -> None:
    settings.BOARD_WEEK_TIME_ZONE = "America/New_York"
    zone = ZoneInfo("America/New_York")
    sunday_night = datetime(2025, 3, 16, 23, 59, 59, tzinfo=zone)
    nomination = make_nomination(other_scout)
    week_votes(nomination, date(2025, 3, 10), 3)

    with time_machine.travel(sunday_night, tick=False) as traveller:
        # 03:59:59 UTC on Monday already, but still Sunday in New York.
        assert week_of(timezone.now()) == date(2025, 3, 10)
        assert places(board(scout_api, "weekly")) == [(nomination.pk, 1, 3, 0)]
        week = scout_api.get("/api/leaderboard/week").json()
        assert week["week"] == "2025-03-10"
        assert datetime.fromisoformat(week["resetsAt"]) == datetime(2025, 3, 17, tzinfo=zone)
        assert datetime.fromisoformat(week["startsAt"]) == datetime(2025, 3, 10, tzinfo=zone)

        traveller.shift(timedelta(seconds=1))
        assert board(scout_api, "weekly") == []
        assert scout_api.get("/api/leaderboard/week").json()["week"] == "2025-03-17"
        history = scout_api.get("/api/leaderboard/weekly-history?sport=football").json()
        assert [(item["week"], item["winners"][0]["id"]) for item in history] == [
            ("2025-03-10", nomination.pk)
        ]


def test_player_of_the_week_history_pages_by_week(
    scout_api: ApiClient, other_scout: User, at_now: Any
) -> None:
    nominations = [make_nomination(other_scout) for _ in range(5)]
    hockey = make_nomination(other_scout, sport="hockey")
    rejected = make_nomination(other_scout, status=NominationStatus.REJECTED)
    weeks = [THIS_WEEK - timedelta(days=7 * n) for n in range(1, 4)]
    for index, nomination in enumerate(nominations):
        for week in weeks:
            week_votes(nomination, week, 10 - index)
    week_votes(nominations[2], weeks[0], 9)  # ties with the second: 1, 2, 2, then 4 dropped
    week_votes(nominations[0], THIS_WEEK, 99)  # the current week is no history yet
    week_votes(hockey, weeks[1], 7)
    week_votes(rejected, weeks[0], 1000)

    response = scout_api.get("/api/leaderboard/weekly-history?sport=football&limit=2")
    assert response.status_code == 200
    first = response.json()
    assert [item["week"] for item in first] == [weeks[0].isoformat(), weeks[1].isoformat()]
    assert [(w["id"], w["rank"], w["score"]) for w in first[0]["winners"]] == [
        (nominations[0].pk, 1, 10),
        (nominations[1].pk, 2, 9),
        (nominations[2].pk, 2, 9),
    ]
    assert [w["rank"] for w in first[1]["winners"]] == [1, 2, 3]
    link = response["Link"]
    assert link.endswith('>; rel="next"')
    second = scout_api.get(link[1 : link.index(">")])
    assert [item["week"] for item in second.json()] == [weeks[2].isoformat()]
    assert "Link" not in second

    every_sport = scout_api.get("/api/leaderboard/weekly-history?limit=2").json()
    assert [(item["week"], item["sport"]) for item in every_sport] == [
        (weeks[0].isoformat(), "football"),
        (weeks[1].isoformat(), "football"),
        (weeks[1].isoformat(), "hockey"),
    ]

    with CaptureQueriesContext(connection) as captured:
        board_reads.weekly_history(sport="football", page=PageQuery(limit=2, cursor=None))
    assert len(captured.captured_queries) == 1

    bad = scout_api.get("/api/leaderboard/weekly-history?cursor=nonsense")
    assert_error(bad, 400, "Invalid cursor")


def test_boards_need_sign_in_and_a_known_board(api: ApiClient, scout_api: ApiClient) -> None:
    assert api.get("/api/leaderboard/players?board=trending").status_code == 401
    assert scout_api.get("/api/leaderboard/players?board=hot").status_code == 400
