"""leaderboard.changed and stats.changed: recomputed on a hint, coalesced, only when changed."""

from __future__ import annotations

import asyncio
import itertools
import time
from datetime import UTC, date, datetime, timedelta
from types import SimpleNamespace
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from asgiref.sync import sync_to_async
from django.conf import settings as django_settings
from django.utils import timezone

from project.accounts.models import User
from project.scouting.boards import live as board_live
from project.scouting.boards.maths import trend_add, trend_term, week_of
from project.scouting.models import Nomination, NominationWeek
from realtime.backend import get_backend
from realtime.publish import publish_summaries
from realtime.summaries import get_scheduler
from tests.builders import stored_nomination
from tests.helpers import ApiClient
from tests.realtime.live import Socket, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]

FAR = datetime(2999, 1, 1, tzinfo=UTC)


class CountingSource:
    """A summary source answering from a counter the test moves; it can be made to fail."""

    def __init__(self) -> None:
        self.votes = 0
        self.failures = 0

    def sport_summaries(self, sport: str) -> SimpleNamespace:
        if self.failures:
            self.failures -= 1
            raise RuntimeError("the database is away")
        return SimpleNamespace(
            boards={
                "all": {"board": "all", "players": [], "scouts": [self.scout()]},
            },
            stats={"nominations": 1, "votes": self.votes, "nominationsNeedingVotes": 0},
            refresh_at=FAR,
        )

    def scout(self) -> dict[str, Any]:
        # A board as the summaries publish it (its model is checked): the counter shows.
        return {"id": 1, "name": "Sam", "username": "sam", "nominationCount": self.votes}

    def sports(self) -> list[str]:
        return ["soccer"]

    def next_week_start(self) -> datetime:
        return FAR


SOURCE = CountingSource()


@pytest.fixture
def board(settings: Any) -> CountingSource:
    SOURCE.__init__()  # type: ignore[misc]  # a fresh counter for each test
    settings.REALTIME_SUMMARIES = f"{__name__}.SOURCE"
    return SOURCE


async def collect(socket: Socket, seconds: float) -> list[tuple[float, dict[str, Any]]]:
    """(arrival time, message) of everything received within ``seconds``."""
    received = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        # receive_nothing() polls without cancelling the consumer (a receive timeout would).
        if not await socket.nothing(0.01):
            received.append((time.monotonic(), await socket.receive()))
    return received


async def test_a_burst_of_hints_is_coalesced_and_its_last_state_is_sent(
    scout_api: ApiClient, board: CountingSource
) -> None:
    socket, _ = await signed_in(scout_api, sport="soccer")

    def burst() -> None:
        for votes in range(1, 41):
            board.votes = votes
            publish_summaries("soccer")
            time.sleep(0.02)

    started = time.monotonic()
    listening = asyncio.ensure_future(collect(socket, 3.5))
    await asyncio.to_thread(burst)
    burst_seconds = time.monotonic() - started
    received = await listening

    interval = django_settings.REALTIME_SUMMARY_INTERVAL
    sustained = django_settings.REALTIME_SUMMARY_SUSTAINED_INTERVAL
    for kind in ("stats.changed", "leaderboard.changed"):
        times = [at for at, message in received if message["type"] == kind]
        # A leading send, then at most one per window, then the trailing one.
        assert 2 <= len(times) <= burst_seconds / interval + 2, times
        gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
        assert min(gaps) > interval * 0.6, gaps
        # The hints went on past the first window: the windows after it are the sustained ones.
        assert min(gaps[1:], default=sustained) > sustained * 0.6, gaps
    last_stats = [m for _, m in received if m["type"] == "stats.changed"][-1]
    assert last_stats["data"] == {"nominations": 1, "votes": 40, "nominationsNeedingVotes": 0}
    last_board = [m for _, m in received if m["type"] == "leaderboard.changed"][-1]
    assert last_board["data"]["scouts"][0]["nominationCount"] == 40
    seqs = [message["seq"] for _, message in received]
    assert seqs == list(range(1, len(seqs) + 1))
    await socket.close()


def test_a_window_taken_as_the_last_ends_lasts_the_sustained_interval() -> None:
    """The summaries' rate window (shared by every process): ``seconds`` after a quiet spell,
    ``sustained`` when taken less than ``seconds`` after the one before ended."""
    backend, name = get_backend(), f"summary:test-{time.monotonic_ns()}"
    assert backend.acquire_window(name, 0.2, 0.6) == 0
    assert 0 < backend.acquire_window(name, 0.2, 0.6) <= 0.2
    time.sleep(0.21)
    assert backend.acquire_window(name, 0.2, 0.6) == 0  # right after: the changes go on
    assert 0.2 < backend.acquire_window(name, 0.2, 0.6) <= 0.6
    time.sleep(0.6 + 0.25)  # the window over, and a quiet spell longer than ``seconds``
    assert backend.acquire_window(name, 0.2, 0.6) == 0
    assert 0 < backend.acquire_window(name, 0.2, 0.6) <= 0.2
    # Without ``sustained``: every window lasts ``seconds``.
    time.sleep(0.21)
    assert backend.acquire_window(name, 0.2) == 0
    assert 0 < backend.acquire_window(name, 0.2) <= 0.2


async def test_nothing_is_sent_when_nothing_changed(
    scout_api: ApiClient, board: CountingSource
) -> None:
    socket, _ = await signed_in(scout_api, sport="soccer")
    board.votes = 3
    await sync_to_async(publish_summaries)("soccer")
    kinds = {message["type"] for _, message in await collect(socket, 0.5)}
    assert kinds == {"leaderboard.changed", "stats.changed"}

    await sync_to_async(publish_summaries)("soccer")
    assert await collect(socket, 0.6) == []

    board.votes = 4
    await sync_to_async(publish_summaries)("soccer")
    kinds = {message["type"] for _, message in await collect(socket, 0.6)}
    assert kinds == {"leaderboard.changed", "stats.changed"}
    await socket.close()


async def test_the_hint_after_a_rollback_recomputes_nothing(
    scout_api: ApiClient, board: CountingSource
) -> None:
    from django.db import transaction

    socket, _ = await signed_in(scout_api, sport="soccer")

    def rolled_back() -> None:
        with transaction.atomic():
            publish_summaries("soccer")
            transaction.set_rollback(True)

    await sync_to_async(rolled_back)()
    assert await collect(socket, 0.5) == []
    await socket.close()


@pytest.fixture
def soccer_nomination(scout: User) -> Nomination:
    return stored_nomination(
        scout,
        name="Lia Live",
        position="Forward",
        nationality="Spain",
        club="CD Norte",
        vote_count=3,
    )


async def collect_boards(socket: Socket, seconds: float) -> dict[str, dict[str, Any]]:
    """The last leaderboard.changed of each board kind received within ``seconds``."""
    return {
        message["data"]["board"]: message
        for _, message in await collect(socket, seconds)
        if message["type"] == "leaderboard.changed"
    }


async def test_each_board_has_its_event_and_only_a_changed_board_is_sent_again(
    scout_api: ApiClient, soccer_nomination: Nomination
) -> None:
    now = timezone.now()
    week = week_of(now)

    def votes_now() -> None:
        Nomination.objects.filter(pk=soccer_nomination.pk).update(
            trend=trend_add(None, trend_term(now))
        )
        NominationWeek.objects.create(
            nomination=soccer_nomination, sport="soccer", week=week, votes=2
        )

    await sync_to_async(votes_now)()
    socket, _ = await signed_in(scout_api, sport="soccer")
    await sync_to_async(publish_summaries)("soccer")
    boards = await collect_boards(socket, 0.8)
    assert set(boards) == {"all", "trending", "weekly"}

    def expected() -> dict[str, Any]:
        return board_live.sport_summaries("soccer").boards  # type: ignore[return-value]

    assert {kind: message["data"] for kind, message in boards.items()} == _json_round_trip(
        await sync_to_async(expected)()
    )
    assert boards["all"]["data"]["players"][0]["score"] == 3
    assert boards["all"]["data"]["scouts"][0]["nominationCount"] == 1
    assert boards["weekly"]["data"]["week"] == week.isoformat()
    assert boards["weekly"]["data"]["players"][0]["score"] == 2
    assert boards["trending"]["data"]["players"][0]["id"] == soccer_nomination.pk

    await sync_to_async(NominationWeek.objects.filter(nomination=soccer_nomination).update)(votes=3)
    await sync_to_async(publish_summaries)("soccer")
    boards = await collect_boards(socket, 0.8)
    assert set(boards) == {"weekly"}
    assert boards["weekly"]["data"]["players"][0]["score"] == 3
    await socket.close()


async def test_a_failed_recomputation_is_retried_without_another_hint(
    scout_api: ApiClient, board: CountingSource
) -> None:
    socket, _ = await signed_in(scout_api, sport="soccer")
    board.votes = 5
    board.failures = 2
    await sync_to_async(publish_summaries)("soccer")
    # No further hint comes: the scheduler retries (0.5 s, then 1 s) until it succeeds.
    received = [message for _, message in await collect(socket, 3.0)]
    assert board.failures == 0
    assert {message["type"] for message in received} == {"leaderboard.changed", "stats.changed"}
    stats = [message for message in received if message["type"] == "stats.changed"]
    assert stats[-1]["data"]["votes"] == 5
    await socket.close()


async def test_the_week_turning_over_reaches_open_screens_within_a_second(
    scout_api: ApiClient, soccer_nomination: Nomination, settings: Any
) -> None:
    settings.BOARD_WEEK_TIME_ZONE = "Asia/Tokyo"
    zone = ZoneInfo("Asia/Tokyo")
    boundary = datetime(2025, 3, 17, tzinfo=zone)  # Monday 00:00 in Tokyo
    with time_machine.travel(boundary - timedelta(seconds=0.6), tick=True):
        await sync_to_async(NominationWeek.objects.create)(
            nomination=soccer_nomination, sport="soccer", week=date(2025, 3, 10), votes=4
        )
        socket, _ = await signed_in(scout_api, sport="soccer")
        # The server process starts its summaries thread (project/asgi.py); no vote, no hint.
        get_scheduler().start()
        weekly = None
        deadline = time.monotonic() + 3
        while weekly is None and time.monotonic() < deadline:
            message = await socket.receive(timeout=3)
            if message["type"] == "leaderboard.changed" and message["data"]["board"] == "weekly":
                weekly = message
        arrived = datetime.now(UTC)
        assert weekly is not None
        assert weekly["data"]["week"] == "2025-03-17"
        assert weekly["data"]["players"] == []
        assert datetime.fromisoformat(weekly["data"]["resetsAt"]) == boundary + timedelta(days=7)
        assert boundary <= arrived < boundary + timedelta(seconds=1)
        await socket.close()


def _json_round_trip(value: Any) -> Any:
    import json

    return json.loads(json.dumps(value, default=str))
