"""leaderboard.changed and stats.changed: recomputed on a hint, coalesced, only when changed."""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from project.accounts.models import User
from project.scouting import selectors
from project.scouting.models import Nomination, NominationStatus, Player
from realtime.publish import publish_summaries
from tests.helpers import ApiClient
from tests.realtime.live import Socket, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]

INTERVAL = 0.25


@pytest.fixture
def board(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Selectors answering from a counter the test moves."""
    state = {"votes": 0}

    def players(*, sport: str | None) -> list[dict[str, Any]]:
        return [{"id": 1, "voteCount": state["votes"]}]

    def stats(*, sport: str | None) -> dict[str, int]:
        return {"nominations": 1, "votes": state["votes"], "nominationsNeedingVotes": 0}

    monkeypatch.setattr(selectors, "leaderboard_players", players)
    monkeypatch.setattr(selectors, "leaderboard_scouts", lambda *, sport: [])
    monkeypatch.setattr(selectors, "sport_stats", stats)
    return state


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
    scout_api: ApiClient, board: dict[str, int]
) -> None:
    socket, _ = await signed_in(scout_api, sport="soccer")

    def burst() -> None:
        for votes in range(1, 41):
            board["votes"] = votes
            publish_summaries("soccer")
            time.sleep(0.02)

    started = time.monotonic()
    listening = asyncio.ensure_future(collect(socket, 2.0))
    await asyncio.to_thread(burst)
    burst_seconds = time.monotonic() - started
    received = await listening

    for kind in ("stats.changed", "leaderboard.changed"):
        times = [at for at, message in received if message["type"] == kind]
        # A leading send, then at most one per window, then the trailing one.
        assert 2 <= len(times) <= burst_seconds / INTERVAL + 2, times
        gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
        assert min(gaps) > INTERVAL * 0.6, gaps
    last_stats = [m for _, m in received if m["type"] == "stats.changed"][-1]
    assert last_stats["data"] == {"nominations": 1, "votes": 40, "nominationsNeedingVotes": 0}
    last_board = [m for _, m in received if m["type"] == "leaderboard.changed"][-1]
    assert last_board["data"] == {"players": [{"id": 1, "voteCount": 40}], "scouts": []}
    seqs = [message["seq"] for _, message in received]
    assert seqs == list(range(1, len(seqs) + 1))
    await socket.close()


async def test_nothing_is_sent_when_nothing_changed(
    scout_api: ApiClient, board: dict[str, int]
) -> None:
    socket, _ = await signed_in(scout_api, sport="soccer")
    board["votes"] = 3
    await sync_to_async(publish_summaries)("soccer")
    kinds = {message["type"] for _, message in await collect(socket, 0.5)}
    assert kinds == {"leaderboard.changed", "stats.changed"}

    await sync_to_async(publish_summaries)("soccer")
    assert await collect(socket, 0.6) == []

    board["votes"] = 4
    await sync_to_async(publish_summaries)("soccer")
    kinds = {message["type"] for _, message in await collect(socket, 0.6)}
    assert kinds == {"leaderboard.changed", "stats.changed"}
    await socket.close()


async def test_the_hint_after_a_rollback_recomputes_nothing(
    scout_api: ApiClient, board: dict[str, int]
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
    player = Player.objects.create(
        name="Lia Live",
        position="Forward",
        nationality="Spain",
        club="CD Norte",
        sport="soccer",
        normalized_identity="lia live|soccer",
    )
    return Nomination.objects.create(
        player=player,
        nominated_by=scout,
        sport="soccer",
        status=NominationStatus.APPROVED,
        vote_count=3,
    )


async def test_summaries_come_from_the_scouting_selectors(
    scout_api: ApiClient, soccer_nomination: Nomination
) -> None:
    socket, _ = await signed_in(scout_api, sport="soccer")
    await sync_to_async(publish_summaries)("soccer")
    received = {message["type"]: message for _, message in await collect(socket, 0.8)}

    def expected() -> tuple[dict[str, Any], dict[str, int]]:
        board = {
            "players": selectors.leaderboard_players(sport="soccer"),
            "scouts": selectors.leaderboard_scouts(sport="soccer"),
        }
        return board, selectors.sport_stats(sport="soccer")

    board, stats = await sync_to_async(expected)()
    assert (
        received["stats.changed"]["data"]
        == stats
        == {
            "nominations": 1,
            "votes": 3,
            "nominationsNeedingVotes": 1,
        }
    )
    leaderboard = received["leaderboard.changed"]["data"]
    assert leaderboard["players"][0]["id"] == soccer_nomination.pk
    assert leaderboard == _json_round_trip(board)
    await socket.close()


def _json_round_trip(value: Any) -> Any:
    import json

    return json.loads(json.dumps(value, default=str))
