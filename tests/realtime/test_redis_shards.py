"""The live layer's groups spread over several Redis instances (``REALTIME_REDIS_SHARDS``): two
private redis-servers hold the groups, the suite's Redis the rest (presence, charges, windows).

Each group's sequence, replay log and channel live on the instance its hash names and on no
other; a socket gets its groups' events from both instances, in order, and resumes from both
logs; hello's epoch joins the instances' own; losing one instance's data, or the instance
itself, closes the sockets as losing the one Redis does; and two processes on the shards
deliver each other's votes.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
import redis
from asgiref.sync import sync_to_async
from django.conf import settings
from websockets.asyncio.client import connect

from devtools.private_postgres import PrivateRedis
from realtime.backend import get_backend
from realtime.consumers import CLOSE_RECONNECT, CLOSE_UNAVAILABLE
from realtime.events import Event, sport_group, user_group
from realtime.redis_publish import RedisBackend, shard_index
from tests.builders import stored_nomination
from tests.helpers import ApiClient, unless_available
from tests.realtime.live import Socket, open_socket, send_now, session_of, signed_in
from tests.realtime.servers import HOST, daphne

pytestmark = [
    pytest.mark.django_db(transaction=True),
    unless_available(not settings.REDIS_URL, reason="the live layer on Redis"),
    unless_available(shutil.which("redis-server") is None, reason="needs redis-server"),
]

SPORTS = ["soccer", "basketball", "hockey", "volleyball", "baseball", "tennis"]


@pytest.fixture
def shards(settings: Any) -> Iterator[list[PrivateRedis]]:
    servers = [PrivateRedis(), PrivateRedis()]
    try:
        for server in servers:
            server.start()
        settings.REALTIME_REDIS_SHARDS = [server.url for server in servers]
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.fixture
async def live_shards(
    shards: list[PrivateRedis], live_cleanup: None
) -> AsyncIterator[list[PrivateRedis]]:
    """The shards, for a test with sockets: the loop's hub closes before they stop."""
    yield shards


def keys_on(server: PrivateRedis, pattern: str) -> set[str]:
    client = redis.Redis.from_url(server.url)
    try:
        return {key.decode() for key in client.scan_iter(pattern, count=1000)}
    finally:
        client.close()


def epoch_of(server: PrivateRedis) -> str:
    client = redis.Redis.from_url(server.url)
    try:
        value = client.get(f"{settings.REALTIME_PREFIX}:epoch")
        assert isinstance(value, bytes)
        return value.decode()
    finally:
        client.close()


def sport_on(index: int, *, apart_from: str | None = None) -> str:
    """A sport whose group lives on shard ``index`` of two."""
    return next(
        sport
        for sport in SPORTS
        if shard_index(sport_group(sport), 2) == index and sport_group(sport) != apart_from
    )


def test_each_group_lives_on_the_instance_its_hash_names(shards: list[PrivateRedis]) -> None:
    backend = get_backend()
    assert isinstance(backend, RedisBackend)
    assert [shard.url for shard in backend.shards] == [server.url for server in shards]
    groups = {sport_group(sport): sport for sport in SPORTS}
    assert {shard_index(group, 2) for group in groups} == {0, 1}
    for sport in SPORTS:
        send_now(Event("vote.changed", {"nominationId": 1, "voteCount": 1}, sport=sport))
    prefix = settings.REALTIME_PREFIX
    for group in groups:
        home, other = shards[shard_index(group, 2)], shards[1 - shard_index(group, 2)]
        assert keys_on(home, f"{prefix}:*:{group}") == {
            f"{prefix}:seq:{group}",
            f"{prefix}:log:{group}",
            f"{prefix}:meta:{group}",
        }
        assert keys_on(other, f"{prefix}:*:{group}") == set()
    # Nothing of the groups on the suite's own Redis.
    main = redis.Redis.from_url(settings.REDIS_URL)
    try:
        assert list(main.scan_iter(f"{prefix}:seq:*")) == []
    finally:
        main.close()


async def test_a_socket_gets_its_groups_from_both_instances_in_order_and_resumes_from_both(
    live_shards: list[PrivateRedis], scout_api: ApiClient
) -> None:
    user = scout_api.user
    assert user is not None
    mine = user_group(user.pk)
    sport = sport_on(1 - shard_index(mine, 2))
    group = sport_group(sport)
    socket, positions = await signed_in(scout_api, sport=sport)
    assert positions == {mine: 0, group: 0}
    for count in (1, 2, 3):
        send_now(Event("vote.changed", {"nominationId": 1, "voteCount": count}, sport=sport))
        send_now(Event("profile.changed", {"points": count}, user_ids=(user.pk,)))
    got = [await socket.receive() for _ in range(6)]
    assert [m["seq"] for m in got if m["group"] == group] == [1, 2, 3]
    assert [m["seq"] for m in got if m["group"] == mine] == [1, 2, 3]
    await socket.close()

    # Missed while away: replayed from each group's own instance.
    for count in (4, 5):
        send_now(Event("vote.changed", {"nominationId": 1, "voteCount": count}, sport=sport))
        send_now(Event("profile.changed", {"points": count}, user_ids=(user.pk,)))
    again, positions = await signed_in(scout_api, sport=sport)
    assert positions == {mine: 5, group: 5}
    await again.send({"type": "resume", "cursors": {group: 3, mine: 3}})
    replayed: list[tuple[str, int, Any]] = []
    resumed: dict[str, int] = {}
    while len(resumed) < 2:  # one "resumed" per group, after its replay
        message = await again.receive()
        if message["type"] == "resumed":
            resumed.update(message["groups"])
        else:
            replayed.append((message["group"], message["seq"], message["data"]))
    # Each group's events in order ("sport..." sorts before "user...").
    assert sorted(replayed, key=lambda r: (r[0], r[1])) == [
        (group, 4, {"nominationId": 1, "voteCount": 4}),
        (group, 5, {"nominationId": 1, "voteCount": 5}),
        (mine, 4, {"points": 4}),
        (mine, 5, {"points": 5}),
    ]
    assert resumed == {group: 5, mine: 5}
    await again.close()


async def hello_of(api: ApiClient) -> tuple[Socket, dict[str, Any]]:
    socket, connected = await open_socket(session_of(api))
    assert connected
    return socket, await socket.receive_type("hello", timeout=5)


async def test_hello_carries_the_instances_epochs_joined_in_their_order(
    live_shards: list[PrivateRedis], scout_api: ApiClient
) -> None:
    socket, hello = await hello_of(scout_api)
    assert hello["epoch"] == ".".join(epoch_of(server) for server in live_shards)
    await socket.close()


async def test_losing_one_instances_data_closes_every_socket(
    live_shards: list[PrivateRedis], scout_api: ApiClient
) -> None:
    """The second instance restarts empty: its groups' sequences start again, so any cursor
    may name other events now. The hub hears of its new epoch with the next socket's join and
    closes its sockets, those watching the first instance's groups too, as for one Redis."""
    socket, _ = await signed_in(scout_api, sport=sport_on(0))
    before = [epoch_of(server) for server in live_shards]
    emptied = redis.Redis.from_url(live_shards[1].url)
    try:
        emptied.flushall()
    finally:
        emptied.close()
    # The next socket's join reads the positions, and the new epoch with them: every socket
    # of the hub is closed, that one included, and comes back.
    trigger, connected = await open_socket(session_of(scout_api))
    assert connected
    assert await socket.receive_close(timeout=5) == CLOSE_RECONNECT
    await trigger.close()
    fresh, hello = await hello_of(scout_api)
    after = [epoch_of(server) for server in live_shards]
    assert after[0] == before[0] and after[1] != before[1]
    assert hello["epoch"] == ".".join(after)
    await fresh.close()


async def test_an_instance_that_goes_away_closes_the_sockets_as_unavailable(
    live_shards: list[PrivateRedis], scout_api: ApiClient
) -> None:
    sport = sport_on(0)
    socket, _ = await signed_in(scout_api, sport=sport)
    live_shards[1].stop()
    assert await socket.receive_close(timeout=10) == CLOSE_UNAVAILABLE
    live_shards[1].start()  # same port, empty
    again, _ = await signed_in(scout_api, sport=sport)
    send_now(Event("vote.changed", {"nominationId": 1, "voteCount": 7}, sport=sport))
    assert (await again.receive_type("vote.changed", timeout=5))["data"]["voteCount"] == 7
    await again.close()


@pytest.mark.slow
@unless_available(not os.environ.get("DATABASE_URL"), reason="daphne processes on PostgreSQL")
async def test_two_processes_on_the_shards_deliver_each_others_votes(
    live_shards: list[PrivateRedis], scout_api: ApiClient
) -> None:
    """A vote taken by one daphne process reaches a socket on another: every group of the
    vote (the sport's, the nominator's) through the instance its hash names."""
    nomination = await sync_to_async(stored_nomination)(name="Sara Sharded", position="Goalkeeper")
    env = {"REALTIME_REDIS_SHARDS": ",".join(server.url for server in live_shards)}
    with daphne(**env) as (voting_port, _), daphne(**env) as (watching_port, _):
        origin = f"http://{HOST}:{voting_port}"
        cookies = {"sessionid": session_of(scout_api), "csrftoken": scout_api.csrf_token()}
        async with connect(
            f"ws://{HOST}:{watching_port}/ws/",
            origin=f"http://{HOST}:{watching_port}",  # type: ignore[arg-type]
            additional_headers={"Cookie": f"sessionid={session_of(scout_api)}"},
            open_timeout=10,
        ) as ws:

            async def until(kind: str) -> dict[str, Any]:
                while (message := json.loads(await ws.recv()))["type"] != kind:
                    pass
                return message

            hello = await asyncio.wait_for(until("hello"), 10)
            assert hello["epoch"] == ".".join(epoch_of(server) for server in live_shards)
            await ws.send(json.dumps({"type": "subscribe", "sport": nomination.sport}))
            await asyncio.wait_for(until("subscribed"), 10)
            async with httpx.AsyncClient(base_url=origin, cookies=cookies, timeout=10) as http:
                answer = await http.post(
                    "/api/votes",
                    json={"nominationId": nomination.pk},
                    headers={"X-CSRFToken": cookies["csrftoken"], "Origin": origin},
                )
            assert answer.status_code == 201, answer.text
            changed = await asyncio.wait_for(until("vote.changed"), 10)
            assert changed["group"] == sport_group(nomination.sport)
            assert changed["data"]["votes"][0] == {
                "nominationId": nomination.pk,
                "voteCount": 1,
                "version": 1,
            }
    home = live_shards[shard_index(sport_group(nomination.sport), 2)]
    assert f"{settings.REALTIME_PREFIX}:seq:{sport_group(nomination.sport)}" in keys_on(
        home, f"{settings.REALTIME_PREFIX}:seq:*"
    )


def test_readiness_fails_while_one_instance_of_the_groups_is_down(
    shards: list[PrivateRedis],
) -> None:
    """The HTTP pool publishes to every instance: one out of reach makes it not ready."""
    from tests.ops.test_health import call

    assert call("/readyz")[2].decode().splitlines() == ["ok", "database ok", "redis ok"]
    shards[1].stop()
    status, _, body = call("/readyz")
    assert status.startswith("503"), (status, body)
    assert "redis failed" in body.decode().splitlines()
