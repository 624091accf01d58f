"""A subscribe that carries the client's cursor: one step instead of subscribe then resume.

The socket starts the sport group at the client's cursor: ``subscribed`` announces it, the
events after it follow in order, then ``resumed`` (or ``resync`` and the snapshot past the
horizon). Live events published meanwhile are held, so the client sees every event once, in
order, with no gap to ask about."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from realtime.events import Event
from tests.helpers import ApiClient
from tests.realtime.live import Socket, send_now, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]

SOCCER = "sport.soccer"


def vote(count: int) -> Event:
    return Event("vote.changed", {"nominationId": 1, "voteCount": count}, sport="soccer")


async def subscribe_from(socket: Socket, cursor: Any) -> dict[str, Any]:
    await socket.send({"type": "subscribe", "sport": "soccer", "cursor": cursor})
    return await socket.receive()


async def test_a_subscribe_with_a_cursor_replays_from_it_without_a_snapshot(
    scout_api: ApiClient,
) -> None:
    for count in range(1, 9):
        send_now(vote(count))
    socket, _ = await signed_in(scout_api)
    assert await subscribe_from(socket, 3) == {
        "type": "subscribed",
        "sport": "soccer",
        "groups": {SOCCER: 3},
    }
    replayed = []
    while (message := await socket.receive())["type"] != "resumed":
        assert message["type"] == "vote.changed", message
        replayed.append(message["seq"])
    assert replayed == [4, 5, 6, 7, 8]
    assert message == {"type": "resumed", "groups": {SOCCER: 8}}
    send_now(vote(9))
    assert (await socket.receive_type("vote.changed"))["seq"] == 9
    assert await socket.nothing()
    await socket.close()


async def test_a_subscribe_at_the_current_position_replays_nothing(scout_api: ApiClient) -> None:
    send_now(vote(1))
    socket, _ = await signed_in(scout_api)
    assert (await subscribe_from(socket, 1))["groups"] == {SOCCER: 1}
    assert await socket.receive() == {"type": "resumed", "groups": {SOCCER: 1}}
    assert await socket.nothing()
    await socket.close()


async def test_events_racing_a_subscribe_with_a_cursor_arrive_once_in_order(
    scout_api: ApiClient,
) -> None:
    """What the two-step form could not promise: from ``subscribed`` on, every event is the
    next one (no gap to resume, no repeat to skip), while events keep being published."""
    for count in range(1, 31):
        send_now(vote(count))
    socket, _ = await signed_in(scout_api)
    await socket.send({"type": "subscribe", "sport": "soccer", "cursor": 10})
    for count in range(31, 61):
        send_now(vote(count))
        await asyncio.sleep(0)
    subscribed = await socket.receive_type("subscribed")
    cursor, resumed = subscribed["groups"][SOCCER], None
    assert cursor == 10
    while cursor < 60 or resumed is None:
        message = await socket.receive()
        if message["type"] == "resumed":
            resumed = message["groups"][SOCCER]
            assert resumed == cursor
            continue
        assert (message["type"], message["seq"]) == ("vote.changed", cursor + 1), message
        cursor = message["seq"]
    assert await socket.nothing()
    await socket.close()


async def test_a_cursor_past_the_horizon_gets_resync_and_the_snapshot(
    scout_api: ApiClient, settings: Any, age_replay_log: Callable[[float], Awaitable[None]]
) -> None:
    settings.REALTIME_REPLAY_AGE = 0.5
    for count in range(1, 7):
        send_now(vote(count))
    await age_replay_log(0.7)
    for count in range(7, 13):
        send_now(vote(count))  # the first of these trims what is older than the horizon
    socket, _ = await signed_in(scout_api)
    assert (await subscribe_from(socket, 2))["groups"] == {SOCCER: 2}
    assert await socket.receive() == {"type": "resync", "groups": [SOCCER], "cursors": {SOCCER: 12}}
    snapshot = await socket.receive_type("snapshot")
    assert (snapshot["group"], snapshot["seq"]) == (SOCCER, 12)
    send_now(vote(13))
    assert (await socket.receive_type("vote.changed"))["seq"] == 13
    await socket.close()


async def test_a_cursor_ahead_of_the_sequence_starts_from_the_position(
    scout_api: ApiClient,
) -> None:
    """A sequence that started over below the client's cursor: the answer is the old form's
    (the group's position and the snapshot); the client reads again."""
    send_now(vote(1))
    socket, _ = await signed_in(scout_api)
    assert (await subscribe_from(socket, 40))["groups"] == {SOCCER: 1}
    snapshot = await socket.receive_type("snapshot")
    assert snapshot["seq"] == 1
    await socket.close()


@pytest.mark.parametrize("cursor", [-1, "7", 2.5, True])
async def test_a_malformed_cursor_is_refused(scout_api: ApiClient, cursor: Any) -> None:
    socket, _ = await signed_in(scout_api)
    assert await subscribe_from(socket, cursor) == {
        "type": "error",
        "message": "Malformed subscribe: cursor must be a sequence number",
    }
    # The socket stays open and the old form still works.
    assert await socket.subscribe("soccer") == 0
    await socket.close()
