"""The snapshot after subscribe and resync: the sport's stats and boards as REST answers
them, and one board read per sport per process however many sockets arrive together."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from project.scouting.models import Player
from realtime.backend import get_backend
from realtime.events import Event
from realtime.hub import hub_of
from tests.helpers import ApiClient
from tests.realtime.live import send_now, signed_in
from tests.realtime.test_redis_outage import make_nomination

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]

SOCCER = "sport.soccer"


async def test_the_snapshot_after_subscribe_is_what_rest_answers(
    scout_api: ApiClient, other_api: ApiClient
) -> None:
    nomination = await sync_to_async(make_nomination)("Sara Snapshot")
    response = await sync_to_async(other_api.post)("/api/votes", {"nominationId": nomination.pk})
    assert response.status_code == 201, response.content

    socket, positions = await signed_in(scout_api, sport="soccer")
    snapshot = socket.snapshot
    assert snapshot is not None
    assert (snapshot["group"], snapshot["seq"]) == (SOCCER, positions[SOCCER])
    stats = await sync_to_async(scout_api.get)("/api/stats?sport=soccer")
    assert snapshot["data"]["stats"] == stats.json()
    boards = snapshot["data"]["leaderboards"]
    shown = str(boards)
    assert "Sara Snapshot" in shown and f"'id': {nomination.pk}" in shown
    await socket.close()


async def test_a_resync_comes_with_a_snapshot_at_its_cursor(
    scout_api: ApiClient, settings: Any, age_replay_log: Callable[[float], Awaitable[None]]
) -> None:
    settings.REALTIME_REPLAY_AGE = 0.2
    send_now(Event("vote.changed", {"nominationId": 1, "voteCount": 1}, sport="soccer"))
    await age_replay_log(0.3)
    send_now(Event("vote.changed", {"nominationId": 1, "voteCount": 2}, sport="soccer"))
    socket, _ = await signed_in(scout_api, sport="soccer")
    await socket.send({"type": "resume", "cursors": {SOCCER: 0}})
    assert (await socket.receive_type("resync"))["cursors"] == {SOCCER: 2}
    snapshot = await socket.receive_type("snapshot")
    assert snapshot["seq"] == 2 and set(snapshot["data"]) == {"leaderboards", "stats"}
    await socket.close()


async def test_a_reconnect_storm_reads_the_boards_once_per_sport(
    scout_api: ApiClient, settings: Any
) -> None:
    settings.REALTIME_SOCKETS_PER_MEMBER = 0  # 40 sockets of one session
    await sync_to_async(make_nomination)("Stan Storm")
    hub = hub_of(get_backend())
    before = hub.snapshots.reads
    sockets = await asyncio.gather(*(signed_in(scout_api, sport="soccer") for _ in range(40)))
    assert hub.snapshots.reads - before == 1
    assert len({str(socket.snapshot) for socket, _ in sockets}) == 1
    # A socket arriving after a new event needs boards at least that new: read again.
    send_now(Event("vote.changed", {"nominationId": 1, "voteCount": 1}, sport="soccer"))
    late, _ = await signed_in(scout_api, sport="soccer")
    assert hub.snapshots.reads - before == 2
    for socket, _ in [*sockets, (late, None)]:
        await socket.close()


async def test_a_snapshot_is_not_served_past_its_age_even_without_events(
    scout_api: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The boards also change without an event in the group (a database cleared under a
    # running server): a computed snapshot serves other sockets only briefly.
    monkeypatch.setattr("realtime.snapshot.MAX_AGE", 0.2)
    nomination = await sync_to_async(make_nomination)("Ned Before")
    hub = hub_of(get_backend())
    before = hub.snapshots.reads
    first, _ = await signed_in(scout_api, sport="soccer")
    assert first.snapshot is not None and "Ned Before" in str(first.snapshot["data"])
    await sync_to_async(Player.objects.filter(pk=nomination.player_id).update)(name="Ned After")
    # A real wait: snapshots age on time.monotonic, which time-machine leaves alone.
    await asyncio.sleep(0.3)
    later, _ = await signed_in(scout_api, sport="soccer")
    assert hub.snapshots.reads - before == 2
    assert later.snapshot is not None and "Ned After" in str(later.snapshot["data"])
    for socket in (first, later):
        await socket.close()
