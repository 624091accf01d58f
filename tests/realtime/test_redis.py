"""The redis-py pitfalls, each checked against the installed versions."""

from __future__ import annotations

import asyncio
import time
import uuid
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from channels_redis.utils import create_pool
from django.conf import settings

from realtime.backend import get_backend
from realtime.events import Event
from realtime.publish import close_user_sockets
from realtime.redis_publish import RedisBackend
from realtime.redis_receive import RedisSource
from tests.helpers import ApiClient, unless_available
from tests.realtime.live import open_socket, send_now, session_of, signed_in

needs_redis = unless_available(not settings.REDIS_URL, reason="needs REDIS_URL")


@needs_redis
def test_the_channel_layer_hosts_reach_redis_py_as_configured() -> None:
    """settings.CHANNEL_LAYERS passes its host dict to redis-py unchanged (channels-redis
    4.3 builds its pools with ``ConnectionPool.from_url(address, **host)``), and names its
    channels with the Redis database (pub/sub channels are shared by every database)."""
    layer: dict[str, Any] = settings.CHANNEL_LAYERS["default"]
    (host,) = layer["CONFIG"]["hosts"]
    pool = create_pool(host)
    assert pool.max_connections == host["max_connections"] > 100
    assert pool.connection_kwargs["socket_timeout"] is None
    assert layer["CONFIG"]["prefix"] == f"ctl:{pool.connection_kwargs.get('db', 0)}:"


@needs_redis
async def test_the_live_layer_pools_are_sized_and_its_subscriber_never_times_out() -> None:
    backend = get_backend()
    assert isinstance(backend, RedisBackend)
    assert isinstance(backend.client.connection_pool, redis.BlockingConnectionPool)
    assert backend.client.connection_pool.max_connections == settings.REALTIME_REDIS_MAX_CONNECTIONS
    source = RedisSource(backend)
    try:
        for shard in source.shards:
            assert shard.subscriber.connection_pool.connection_kwargs["socket_timeout"] is None
        pool = source.client.connection_pool
        assert isinstance(pool, redis.asyncio.BlockingConnectionPool)
        assert pool.max_connections == settings.REALTIME_REDIS_MAX_CONNECTIONS
    finally:
        await source.close()


@needs_redis
async def test_positions_and_charges_asked_at_once_go_together() -> None:
    """A reconnect storm: hundreds of sockets read their groups' positions and charge their
    replays at once. What is asked while a round trip is out goes in the next one, so they
    take one pooled connection (one apiece had emptied the pool of a saturated process), and
    each socket still gets its own answer."""
    backend = get_backend()
    assert isinstance(backend, RedisBackend)
    for count in range(1, 4):
        send_now(Event("vote.changed", {"nominationId": 1, "voteCount": count}, sport="soccer"))
    send_now(Event("vote.changed", {"nominationId": 2, "voteCount": 1}, sport="tennis"))
    name = f"{backend.config.prefix}:hub-reads"
    before = {client["id"] for client in backend.client.client_list()}
    budget = f"test:{uuid.uuid4().hex}"
    source = RedisSource(backend)
    try:
        asked = [["sport.soccer"], ["sport.tennis", "sport.soccer"], ["sport.golf"]] * 100
        answers = await asyncio.gather(*(source.current(groups) for groups in asked))
        totals = await asyncio.gather(*(source.charge(budget, 10, 60) for _ in range(300)))
        opened = [
            client
            for client in backend.client.client_list()
            if client["id"] not in before and client["name"] == name
        ]
    finally:
        await source.close()
    assert len({epoch for epoch, _ in answers}) == 1
    assert [positions for _, positions in answers[:3]] == [
        {"sport.soccer": 3},
        {"sport.tennis": 1, "sport.soccer": 3},
        {"sport.golf": 0},
    ]
    assert all(positions == answers[i % 3][1] for i, (_, positions) in enumerate(answers))
    assert sorted(totals) == list(range(10, 3001, 10))
    assert len(opened) == 1


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("live_cleanup")
async def test_a_socket_idle_for_15_seconds_still_receives(scout_api: ApiClient) -> None:
    """redis-py's default 5 s read timeout would have dropped the idle subscribers (the
    hub's and the channel layer's)."""
    socket, _ = await signed_in(scout_api, sport="soccer")
    await asyncio.sleep(15)
    send_now(Event("vote.changed", {"nominationId": 1, "voteCount": 1}, sport="soccer"))
    assert (await socket.receive_type("vote.changed", timeout=5))["seq"] == 1
    # The control plane's subscriber idled as long: a logout still closes the socket.
    assert scout_api.user is not None
    await sync_to_async(close_user_sockets)(scout_api.user.pk, reason="logout")
    assert await socket.receive_close(timeout=5) == 4001


@needs_redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("live_cleanup")
async def test_a_connect_storm_waits_for_redis_connections_instead_of_failing(
    scout_api: ApiClient, settings: Any
) -> None:
    """A plain redis-py pool raises MaxConnectionsError past its size; sockets connecting at
    once queue for one of the few connections instead."""
    settings.REALTIME_REDIS_MAX_CONNECTIONS = 2
    settings.REALTIME_SOCKETS_PER_MEMBER = 0  # 60 sockets of one session
    session_key = session_of(scout_api)

    async def connect() -> dict[str, Any]:
        socket, connected = await open_socket(session_key)
        assert connected
        await socket.send({"type": "subscribe", "sport": "soccer"})
        hello = await socket.receive_type("hello", timeout=20)
        await socket.receive_type("subscribed", timeout=20)
        await socket.close()
        return hello

    hellos = await asyncio.gather(*(connect() for _ in range(60)))
    assert len(hellos) == 60


@needs_redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("live_cleanup")
async def test_losing_the_redis_subscription_closes_sockets_as_unavailable_to_resume(
    scout_api: ApiClient,
) -> None:
    """4503, not 4001: the client backs off and resumes; what was published meanwhile comes
    from the replay log (the data, and so the epoch, are still there)."""
    socket, positions = await signed_in(scout_api, sport="soccer")
    client = redis.Redis.from_url(settings.REDIS_URL)
    name = f"{settings.REALTIME_PREFIX}:hub"
    (hub_client,) = [entry for entry in client.client_list() if entry["name"] == name]
    client.client_kill_filter(_id=hub_client["id"])
    client.close()

    assert await socket.receive_close(timeout=5) == 4503
    send_now(Event("vote.changed", {"nominationId": 1, "voteCount": 1}, sport="soccer"))
    again, _ = await signed_in(scout_api, sport="soccer")
    await again.send({"type": "resume", "cursors": {"sport.soccer": positions["sport.soccer"]}})
    assert (await again.receive_type("vote.changed"))["seq"] == 1
    assert (await again.receive_type("resumed"))["groups"] == {"sport.soccer": 1}
    await again.close()


@needs_redis
def test_the_summary_window_is_shared_by_processes() -> None:
    """Two backends stand for two processes: one window per sport between them."""
    first, second = get_backend(), RedisBackend(settings.REDIS_URL, get_backend().config)
    assert first.acquire_window("summary:soccer", 0.25) == 0
    assert 0 < second.acquire_window("summary:soccer", 0.25) <= 0.25
    assert second.acquire_window("summary:hockey", 0.25) == 0


@needs_redis
def test_a_merge_window_sends_what_every_process_held_whoever_comes_first() -> None:
    """Two backends stand for two processes merging one sport's counts: the first takes the
    window and sends its own; the second's wait in Redis, newest version kept, and go with
    whichever process tries first once the window ends, the first's later ones included.
    (Each process waiting for a window of its own would hold counts for several windows:
    docs/decisions.md#merge-windows-in-redis.)"""
    first, second = get_backend(), RedisBackend(settings.REDIS_URL, get_backend().config)
    window = 0.2

    assert first.merge("votes:soccer", window, [(7, 1, "a1")]) == (["a1"], 0)
    texts, wait = second.merge("votes:soccer", window, [(9, 4, "b4"), (7, 2, "b2")])
    assert texts == [] and 0 < wait <= window
    # An older version of a held key changes nothing; a newer one replaces it.
    texts, wait = first.merge("votes:soccer", window, [(9, 3, "a3"), (8, 5, "a5")])
    assert texts == [] and 0 < wait <= window
    assert second.merge("votes:hockey", window, [(1, 1, "h")]) == (["h"], 0)

    time.sleep(wait + 0.01)
    assert second.merge("votes:soccer", window, []) == (["b2", "a5", "b4"], 0)
    # Nothing is held any more: the other process's try finds nothing to send.
    assert first.merge("votes:soccer", window, []) == ([], 0)
    # The window taken by the send holds the next entry back.
    texts, wait = first.merge("votes:soccer", window, [(7, 9, "a9")])
    assert texts == [] and 0 < wait <= window


@needs_redis
def test_merge_many_answers_each_window_as_merge_alone_would() -> None:
    """The merger's thread merges every window due at once (``merge_many``, one pipelined
    round trip): each answers as ``merge`` alone would, in order, whether its window is free,
    held or has nothing; and a Redis that lost its scripts gets them again."""
    backend = get_backend()
    assert isinstance(backend, RedisBackend)
    window = 0.2
    assert backend.merge("votes:soccer", window, [(1, 1, "s1")]) == (["s1"], 0)
    client = redis.Redis.from_url(settings.REDIS_URL)
    client.script_flush()
    client.close()
    answers = backend.merge_many(
        [
            ("votes:soccer", window, [(2, 1, "s2")]),  # its window is taken: held
            ("activity:soccer", 0.5, [(10, 10, "x"), (11, 11, "y")]),  # free: sent in order
            ("votes:hockey", window, []),  # nothing held, nothing sent
        ]
    )
    (held, wait), sent, empty = answers
    assert held == [] and 0 < wait <= window
    assert sent == (["x", "y"], 0)
    assert empty == ([], 0)
    time.sleep(wait + 0.01)
    assert backend.merge_many([("votes:soccer", window, [])]) == [(["s2"], 0)]


@needs_redis
def test_publishing_reloads_its_script_when_redis_forgot_it() -> None:
    """A restarted Redis (or SCRIPT FLUSH) has none of the scripts: the publish loads its
    script again and the event is numbered, not lost."""
    backend = get_backend()
    assert isinstance(backend, RedisBackend)
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        send_now(Event("moderation.changed", {"pending": 1}, admins=True))
        client.script_flush()
        assert client.script_exists(backend.script_sha) == [False]
        send_now(Event("moderation.changed", {"pending": 2}, admins=True))
        assert client.get(f"{settings.REALTIME_PREFIX}:seq:admins") == b"2"
        assert client.script_exists(backend.script_sha) == [True]
    finally:
        client.close()
