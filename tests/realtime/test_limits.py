"""What one socket may ask of the server: client messages per second, and replay bytes."""

from __future__ import annotations

from typing import Any

import pytest

from realtime import broadcast
from realtime.events import Event
from tests.helpers import ApiClient
from tests.realtime.live import signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]

SOCCER = "sport.soccer"


def vote(count: int) -> Event:
    return Event("vote.changed", {"nominationId": 1, "voteCount": count}, sport="soccer")


async def test_a_socket_flooding_messages_is_closed_with_4429(
    scout_api: ApiClient, settings: Any
) -> None:
    settings.REALTIME_CLIENT_MESSAGE_BURST = 10
    settings.REALTIME_CLIENT_MESSAGE_RATE = 1
    socket, _ = await signed_in(scout_api)
    for _ in range(9):  # the burst (hello's subscribe-less socket has sent nothing yet)
        await socket.send({"type": "ping"})
        assert await socket.receive() == {"type": "pong"}
    await socket.send({"type": "ping"})
    assert await socket.receive() == {"type": "pong"}
    for _ in range(200):
        await socket.send({"type": "resume", "cursors": {}})
    assert await socket.receive_close() == 4429


async def test_a_steady_client_is_never_limited(scout_api: ApiClient, settings: Any) -> None:
    settings.REALTIME_CLIENT_MESSAGE_BURST = 3
    settings.REALTIME_CLIENT_MESSAGE_RATE = 20
    socket, _ = await signed_in(scout_api)
    for _ in range(30):
        await socket.send({"type": "ping"})
        assert await socket.receive() == {"type": "pong"}
        await socket.nothing(0.06)
    await socket.close()


async def test_a_resume_past_the_sockets_replay_budget_gets_resync(
    scout_api: ApiClient, settings: Any
) -> None:
    """A 70-byte resume cannot make the server send much: replay is bounded per socket."""
    one = len(vote(1).envelope().tail) + 40
    settings.REALTIME_RESUME_MAX_BYTES = 30 * one
    broadcast.send(*(vote(count) for count in range(1, 51)))
    socket, _ = await signed_in(scout_api, sport="soccer")
    await socket.send({"type": "resume", "cursors": {SOCCER: 40}})
    seqs = []
    while (message := await socket.receive())["type"] != "resumed":
        seqs.append(message["seq"])
    assert seqs == list(range(41, 51))
    # 50 more would pass what is left of the budget: resync (and the snapshot) instead.
    await socket.send({"type": "resume", "cursors": {SOCCER: 0}})
    assert await socket.receive() == {"type": "resync", "groups": [SOCCER], "cursors": {SOCCER: 50}}
    assert (await socket.receive_type("snapshot"))["seq"] == 50
    await socket.close()
