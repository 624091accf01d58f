"""Resuming after a reconnect: exactly the missed events, in order, or a resync."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Awaitable, Callable
from io import StringIO
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.management import call_command

from realtime import broadcast
from realtime.backend import get_backend
from realtime.backend_memory import MemoryBackend
from realtime.events import Event
from realtime.hub import hub_of
from tests.helpers import ApiClient, unless_available
from tests.realtime.live import Socket, send_now, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]

SOCCER = "sport.soccer"


def vote(count: int) -> Event:
    return Event("vote.changed", {"nominationId": 1, "voteCount": count}, sport="soccer")


async def votes_until(socket: Socket, kind: str) -> tuple[list[int], dict[str, Any]]:
    """The seqs of the vote.changed events received before the first ``kind`` message."""
    seqs = []
    while (message := await socket.receive())["type"] != kind:
        assert message["type"] == "vote.changed", message
        seqs.append(message["seq"])
    return seqs, message


async def test_resume_replays_exactly_the_missed_events(scout_api: ApiClient) -> None:
    first, _ = await signed_in(scout_api, sport="soccer")
    for count in (1, 2, 3):
        send_now(vote(count))
    assert [(await first.receive())["seq"] for _ in range(3)] == [1, 2, 3]
    await first.close()

    for count in range(4, 9):
        send_now(vote(count))
    second, positions = await signed_in(scout_api, sport="soccer")
    assert positions[SOCCER] == 8
    await second.send({"type": "resume", "cursors": {SOCCER: 3}})
    replayed, resumed = await votes_until(second, "resumed")
    assert replayed == [4, 5, 6, 7, 8]
    assert resumed == {"type": "resumed", "groups": {SOCCER: 8}}

    send_now(vote(9))
    assert (await second.receive_type("vote.changed"))["seq"] == 9
    assert await second.nothing()
    await second.close()


async def test_sockets_resuming_together_share_each_replayed_message(
    scout_api: ApiClient,
) -> None:
    """A reconnect storm replays the same recent events to many sockets: each event is built
    (its frames, deflated ones included) once per process, not once per socket."""
    hub = hub_of(get_backend())
    first, _ = await signed_in(scout_api, sport="soccer")
    send_now(vote(1))
    assert (await first.receive())["seq"] == 1
    live = hub.recent[(SOCCER, 1)]  # the live fan-out's message, kept for replays
    await first.close()
    for count in (2, 3):
        send_now(vote(count))
    built = []
    for _ in range(2):
        socket, _ = await signed_in(scout_api, sport="soccer")
        await socket.send({"type": "resume", "cursors": {SOCCER: 0}})
        replayed, _ = await votes_until(socket, "resumed")
        assert replayed == [1, 2, 3]
        built.append([hub.recent[(SOCCER, seq)] for seq in replayed])
        await socket.close()
    assert built[0][0] is live
    assert all(a is b for a, b in zip(built[0], built[1], strict=True))


async def test_sockets_resuming_at_once_from_the_log_read_it_once() -> None:
    """After a restart nothing is kept in memory and every socket comes back at once: the
    first replay reads the log and keeps what it read; the others, waiting their turn, are
    served from memory (hundreds of reads of the same pages at once had emptied the live
    layer's Redis pool)."""
    hub = hub_of(get_backend())
    for count in range(1, 6):
        send_now(vote(count))  # nobody here has joined soccer: nothing kept
    assert (SOCCER, 1) not in hub.recent
    source = hub.source
    reads: list[int] = []
    read_log = source.replay

    async def counted(group: str, after: int, limit: int) -> Any:
        reads.append(after)
        await asyncio.sleep(0.05)  # a round trip, long enough for the others to queue
        return await read_log(group, after, limit)

    source.replay = counted  # type: ignore[method-assign]
    try:
        replays = await asyncio.gather(*(hub.replay(SOCCER, 0, 200) for _ in range(20)))
        later = await hub.replay(SOCCER, 2, 200)
    finally:
        del source.replay  # the class's own again
    assert reads == [0]
    assert {tuple(seq for seq, _ in replay or ()) for replay in replays} == {(1, 2, 3, 4, 5)}
    first = replays[0]
    assert first is not None
    assert all(
        a is b for replay in replays for (_, a), (_, b) in zip(replay or (), first, strict=True)
    )
    assert [seq for seq, _ in later or ()] == [3, 4, 5]
    assert not hub._log_reads  # nothing left behind per group


async def test_sockets_resuming_over_kept_events_read_no_log(scout_api: ApiClient) -> None:
    """A replay ends at the socket's live position (what follows reaches it as it is
    published): when this process kept the events up to there, a resume or a subscribe with a
    cursor reads nothing from the log, however many sockets come back at once."""
    watcher, _ = await signed_in(scout_api, sport="soccer")  # keeps the events in memory
    for count in (1, 2, 3):
        send_now(vote(count))
    assert [(await watcher.receive())["seq"] for _ in range(3)] == [1, 2, 3]
    source = hub_of(get_backend()).source
    reads: list[tuple[str, int]] = []
    read_log = source.replay

    async def counted(group: str, after: int, limit: int) -> Any:
        reads.append((group, after))
        return await read_log(group, after, limit)

    source.replay = counted  # type: ignore[method-assign]
    try:
        resumer, _ = await signed_in(scout_api, sport="soccer")
        await resumer.send({"type": "resume", "cursors": {SOCCER: 1}})
        replayed, resumed = await votes_until(resumer, "resumed")
        subscriber, _ = await signed_in(scout_api)
        await subscriber.send({"type": "subscribe", "sport": "soccer", "cursor": 0})
        assert (await subscriber.receive())["groups"] == {SOCCER: 0}
        subscribed, again = await votes_until(subscriber, "resumed")
    finally:
        del source.replay  # the class's own again
    assert (replayed, resumed["groups"]) == ([2, 3], {SOCCER: 3})
    assert (subscribed, again["groups"]) == ([1, 2, 3], {SOCCER: 3})
    assert reads == []
    send_now(vote(4))
    for socket in (watcher, resumer, subscriber):
        assert (await socket.receive_type("vote.changed"))["seq"] == 4
        assert await socket.nothing()
        await socket.close()


async def test_a_board_replayed_from_memory_that_a_newer_one_replaced_is_skipped(
    scout_api: ApiClient,
) -> None:
    """As from the log: a replay never sends a stale board, whichever way it is served."""
    watcher, _ = await signed_in(scout_api, sport="soccer")  # keeps the events in memory
    resumer, _ = await signed_in(scout_api, sport="soccer")
    await resumer.close()
    for count in (1, 2):
        board = {"board": "all", "players": [{"id": 1, "voteCount": count}]}
        send_now(Event("leaderboard.changed", board, sport="soccer"))
    send_now(vote(3))
    assert [(await watcher.receive())["seq"] for _ in range(3)] == [1, 2, 3]
    assert (SOCCER, 1) in hub_of(get_backend()).recent  # served from memory, not the log
    again, _ = await signed_in(scout_api, sport="soccer")
    await again.send({"type": "resume", "cursors": {SOCCER: 0}})
    replayed = [await again.receive() for _ in range(4)]
    assert [m["type"] for m in replayed] == [
        "skipped",
        "leaderboard.changed",
        "vote.changed",
        "resumed",
    ]
    assert replayed[1]["data"]["players"] == [{"id": 1, "voteCount": 2}]
    await watcher.close()
    await again.close()


async def test_a_board_kept_from_before_the_process_left_the_group_is_not_replayed(
    scout_api: ApiClient,
) -> None:
    """Once the process's last socket of a group leaves, it misses the group's next events,
    newer boards included: a board it kept from before may be stale, so a replay reads it from
    the log, which knows."""
    board = {"board": "all", "players": [{"id": 1, "voteCount": 1}]}
    watcher, _ = await signed_in(scout_api, sport="soccer")
    send_now(Event("leaderboard.changed", board, sport="soccer"))
    assert (await watcher.receive())["seq"] == 1
    assert (SOCCER, 1) in hub_of(get_backend()).recent
    await watcher.close()  # nobody here watches soccer: the next board is not seen
    newer = {"board": "all", "players": [{"id": 1, "voteCount": 2}]}
    send_now(Event("leaderboard.changed", newer, sport="soccer"))
    again, _ = await signed_in(scout_api, sport="soccer")
    await again.send({"type": "resume", "cursors": {SOCCER: 0}})
    replayed = [await again.receive() for _ in range(3)]
    assert [m["type"] for m in replayed] == ["skipped", "leaderboard.changed", "resumed"]
    assert replayed[1]["data"]["players"] == newer["players"]
    await again.close()


async def test_resume_of_a_private_group(scout_api: ApiClient) -> None:
    user = scout_api.user
    assert user is not None
    group = f"user.{user.pk}"
    for points in (1, 2):
        send_now(Event("profile.changed", {"points": points}, user_ids=(user.pk,)))
    socket, positions = await signed_in(scout_api)
    assert positions == {group: 2}
    await socket.send({"type": "resume", "cursors": {group: 1}})
    replayed = await socket.receive_type("profile.changed")
    assert (replayed["seq"], replayed["data"]) == (2, {"points": 2})
    assert await socket.receive() == {"type": "resumed", "groups": {group: 2}}
    await socket.close()


async def test_resume_at_the_current_position_replays_nothing(scout_api: ApiClient) -> None:
    send_now(vote(1))
    socket, positions = await signed_in(scout_api, sport="soccer")
    await socket.send({"type": "resume", "cursors": {SOCCER: positions[SOCCER]}})
    assert await socket.receive() == {"type": "resumed", "groups": {SOCCER: 1}}
    await socket.close()


async def test_a_cursor_older_than_the_horizon_gets_resync(
    scout_api: ApiClient, settings: Any, age_replay_log: Callable[[float], Awaitable[None]]
) -> None:
    """The log keeps events by age: past REALTIME_REPLAY_AGE a cursor gets resync, and the
    resync comes with the sport's snapshot."""
    settings.REALTIME_REPLAY_AGE = 0.5
    for count in range(1, 7):
        send_now(vote(count))
    await age_replay_log(0.7)
    for count in range(7, 13):
        send_now(vote(count))  # the first of these trims what is older than the horizon
    socket, _ = await signed_in(scout_api, sport="soccer")
    await socket.send({"type": "resume", "cursors": {SOCCER: 2}})
    assert await socket.receive() == {
        "type": "resync",
        "groups": [SOCCER],
        "cursors": {SOCCER: 12},
    }
    snapshot = await socket.receive_type("snapshot")
    assert (snapshot["group"], snapshot["seq"]) == (SOCCER, 12)
    # The oldest kept cursor still resumes.
    await socket.send({"type": "resume", "cursors": {SOCCER: 6}})
    replayed, _ = await votes_until(socket, "resumed")
    assert replayed == [7, 8, 9, 10, 11, 12]
    send_now(vote(13))
    assert (await socket.receive_type("vote.changed"))["seq"] == 13
    await socket.close()


async def test_the_log_is_bounded_by_bytes(scout_api: ApiClient, settings: Any) -> None:
    one = len(vote(1).envelope().tail) + 60  # about one logged event
    settings.REALTIME_REPLAY_BYTES = 4 * one
    for count in range(1, 21):
        send_now(vote(count))
    socket, _ = await signed_in(scout_api, sport="soccer")
    await socket.send({"type": "resume", "cursors": {SOCCER: 10}})
    assert (await socket.receive())["type"] == "resync"
    await socket.receive_type("snapshot")
    await socket.send({"type": "resume", "cursors": {SOCCER: 17}})
    replayed, _ = await votes_until(socket, "resumed")
    assert replayed == [18, 19, 20]
    await socket.close()


async def test_an_hour_at_twenty_events_a_second_resumes_exactly(
    scout_api: ApiClient, settings: Any
) -> None:
    """72,000 events in the log (the default horizon keeps them all) replay in order."""
    assert settings.REALTIME_REPLAY_AGE >= 3600
    total = 72_000
    batch = [vote(count) for count in range(1, 1001)]
    for _ in range(total // len(batch)):
        broadcast.send(*batch)
    socket, positions = await signed_in(scout_api, sport="soccer")
    assert positions[SOCCER] == total
    await socket.send({"type": "resume", "cursors": {SOCCER: 0}})
    expected = 1
    while (message := await socket.receive(timeout=10))["type"] != "resumed":
        assert message["seq"] == expected, message
        expected += 1
    assert expected == total + 1
    await socket.close()


async def test_a_cursor_ahead_of_the_sequence_gets_resync(scout_api: ApiClient) -> None:
    send_now(vote(1))
    socket, _ = await signed_in(scout_api, sport="soccer")
    await socket.send({"type": "resume", "cursors": {SOCCER: 40}})
    assert await socket.receive() == {"type": "resync", "groups": [SOCCER], "cursors": {SOCCER: 1}}
    await socket.close()


async def test_events_racing_a_resume_are_neither_lost_nor_repeated(
    scout_api: ApiClient,
) -> None:
    """Live events may reach the socket before its resume is read; the replay then sends
    the group's events in order from the cursor, and after ``resumed`` nothing repeats.
    Applied by the client's rule (take seq == cursor + 1, skip the rest), every event from
    the cursor is applied exactly once, in order."""
    for count in range(1, 31):
        send_now(vote(count))
    socket, positions = await signed_in(scout_api, sport="soccer")
    assert positions[SOCCER] == 30

    await socket.send({"type": "resume", "cursors": {SOCCER: 10}})
    for count in range(31, 61):
        send_now(vote(count))
        await asyncio.sleep(0)

    cursor, applied, resumed_at = 10, [], None
    while cursor < 60 or resumed_at is None:
        message = await socket.receive()
        if message["type"] == "resumed":
            resumed_at = message["groups"][SOCCER]
            continue
        assert message["type"] == "vote.changed", message
        if resumed_at is not None:
            assert message["seq"] == cursor + 1  # after resumed: no repeat, no hole
        if message["seq"] == cursor + 1:
            applied.append(message["data"]["voteCount"])
            cursor = message["seq"]
    assert applied == list(range(11, 61))
    assert resumed_at is not None
    assert await socket.nothing()
    await socket.close()


def forget_everything() -> None:
    """What a Redis restart without persistence, or a FLUSHDB, does to the live layer."""
    backend = get_backend()
    if isinstance(backend, MemoryBackend):
        backend.epoch = uuid.uuid4().hex
        backend.seqs.clear()
        backend.logs.clear()
        return
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete(*client.scan_iter(f"{settings.REALTIME_PREFIX}:*"))
    client.close()


async def test_lost_live_data_close_every_socket_to_refetch(scout_api: ApiClient) -> None:
    socket, _ = await signed_in(scout_api, sport="soccer")
    for count in (1, 2, 3):
        send_now(vote(count))
    assert [(await socket.receive())["seq"] for _ in range(3)] == [1, 2, 3]

    forget_everything()
    send_now(vote(4))  # seq 1 again: without the epoch it would pass for an old event
    assert await socket.receive_close() == 4001
    again, positions = await signed_in(scout_api, sport="soccer")
    assert positions["sport.soccer"] == 1
    await again.close()


@unless_available(not settings.REDIS_URL, reason="Redis (the live layer's data lives there)")
async def test_live_reset_after_a_restore_makes_every_tab_refetch(scout_api: ApiClient) -> None:
    socket, _ = await signed_in(scout_api, sport="soccer")
    for count in (1, 2):
        send_now(vote(count))
    assert [(await socket.receive())["seq"] for _ in range(2)] == [1, 2]
    unrelated = redis.Redis.from_url(settings.REDIS_URL)
    unrelated.set("not-the-live-layer", "kept")

    await sync_to_async(call_command)("live_reset", stdout=StringIO())

    assert unrelated.get("not-the-live-layer") == b"kept"
    assert not list(unrelated.scan_iter(f"{settings.REALTIME_PREFIX}:*"))
    unrelated.delete("not-the-live-layer")
    unrelated.close()
    send_now(vote(3))
    assert await socket.receive_close() == 4001
    await socket.close()
