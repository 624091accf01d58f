"""The receiving side of the live layer's Redis backend (realtime/redis_publish.py publishes):
each event loop holds one pub/sub connection per Redis instance the groups live on, subscribed
to the groups its sockets are in, and a small pool per instance for the groups' positions and
replay-log reads; presence and the replay charges go to ``REDIS_URL``.

Where each group lives (instance, keys, channel) is the publishing backend's: this side reads
it through :class:`Layout`.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
import uuid
from collections.abc import Sequence
from typing import Protocol

from redis import asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from realtime.backend_base import Config, Receiver, Replay, Source, replay_after, unlogged
from realtime.coalesce import Coalesced

logger = logging.getLogger(__name__)


class ShardAddress(Protocol):
    """One instance the groups live on: its URL and its channels' prefix."""

    @property
    def url(self) -> str: ...

    @property
    def channel_prefix(self) -> str: ...


class Layout(Protocol):
    """What the receiving side reads of the backend (realtime.redis_publish.RedisBackend):
    the instances, which one a group lives on, and the keys' names."""

    @property
    def url(self) -> str: ...

    @property
    def config(self) -> Config: ...

    @property
    def epoch_key(self) -> str: ...

    @property
    def shards(self) -> Sequence[ShardAddress]: ...

    def key(self, kind: str, name: str) -> str: ...

    def shard_of(self, group: str) -> int: ...


def _read_client(backend: Layout, url: str) -> aioredis.Redis:
    """An event loop's pool for reads and charges on ``url``: callers wait up to 10 s for one
    of its connections rather than fail, and ``CLIENT LIST`` names them."""
    return aioredis.Redis(
        connection_pool=aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=backend.config.max_connections,
            timeout=10,
            client_name=f"{backend.config.prefix}:hub-reads",
        )
    )


class ShardSource:
    """One event loop's subscription to one instance the groups live on: one pub/sub
    connection, and a small pool for cursor and replay reads."""

    def __init__(
        self, backend: Layout, shard: ShardAddress, owner: RedisSource, index: int
    ) -> None:
        self.backend = backend
        self.shard = shard
        self.owner = owner
        self.index = index
        self.client = _read_client(backend, shard.url)
        # The subscriber waits for messages indefinitely: no read timeout (redis-py's default
        # 5 s would drop an idle subscriber), TCP keepalive to notice a dead server. And no
        # retry: redis-py would reconnect and resubscribe silently, losing what was published
        # meanwhile; the hub must hear of it and close its sockets (they resync).
        self.subscriber = aioredis.Redis.from_url(
            shard.url,
            socket_timeout=None,
            socket_keepalive=True,
            retry=Retry(NoBackoff(), 0),
            client_name=f"{backend.config.prefix}:hub",
        )
        self.pubsub = self.subscriber.pubsub()
        # redis-py's PubSub opens its connection on the first command: two first commands at
        # once would open two, and listen() would read only one. Commands go one at a time.
        self._commands = asyncio.Lock()
        self._ready: dict[str, asyncio.Future[None]] = {}
        self._unconfirmed: collections.Counter[str] = collections.Counter()
        self._pongs: collections.deque[asyncio.Future[None]] = collections.deque()
        self._reader: asyncio.Task[None] | None = None
        self._closed = False
        self._positions = Coalesced(self._read_positions)

    def start(self) -> None:
        self._reader = asyncio.create_task(self._read(), name="realtime-redis-reader")

    async def _read(self) -> None:
        prefix = self.shard.channel_prefix
        prefix_length = len(prefix)
        try:
            # A subscription that lasts as long as the source keeps listen() listening.
            async with self._commands:
                await self.pubsub.subscribe(prefix + "~process")
            async for message in self.pubsub.listen():
                if message["type"] == "pong":
                    self._ponged()
                    continue
                group = message["channel"].decode()[prefix_length:]
                if message["type"] == "message":
                    await self.owner.received(self.index, group, message["data"].decode())
                elif message["type"] == "subscribe":
                    self._confirmed(group)
        except asyncio.CancelledError:
            raise
        except Exception:
            if not self._closed:
                logger.warning("Lost the realtime subscription to Redis", exc_info=True)
                await self.owner.lost()

    def _confirmed(self, group: str) -> None:
        self._unconfirmed[group] -= 1
        if self._unconfirmed[group] <= 0:
            del self._unconfirmed[group]
            ready = self._ready.get(group)
            if ready is not None and not ready.done():
                ready.set_result(None)

    def _ponged(self) -> None:
        """Pongs come back in the order the pings went out: the oldest waiter's answer."""
        if self._pongs:
            waiter = self._pongs.popleft()
            if not waiter.done():
                waiter.set_result(None)

    async def ping(self) -> None:
        waiter = asyncio.get_running_loop().create_future()
        async with self._commands:
            self._pongs.append(waiter)
            try:
                await self.pubsub.ping()
            except BaseException:
                self._pongs.remove(waiter)
                raise
        await waiter

    async def subscribe(self, group: str) -> None:
        ready = self._ready.get(group)
        if ready is None:
            ready = self._ready[group] = asyncio.get_running_loop().create_future()
            self._unconfirmed[group] += 1
            try:
                async with self._commands:
                    await self.pubsub.subscribe(self.shard.channel_prefix + group)
            except BaseException:
                del self._ready[group]
                self._unconfirmed[group] -= 1
                raise
        try:
            await asyncio.wait_for(asyncio.shield(ready), timeout=10)
        except asyncio.CancelledError:
            if ready.cancelled():  # the source closed (connection lost), not our caller
                raise ConnectionError("the live layer's subscription ended") from None
            raise

    async def unsubscribe(self, group: str) -> None:
        if self._ready.pop(group, None) is not None:
            async with self._commands:
                await self.pubsub.unsubscribe(self.shard.channel_prefix + group)

    async def current(self, groups: Sequence[str]) -> tuple[str, dict[str, int]]:
        """The epoch and the groups' positions, read with those of every socket that asks
        while a read is out (realtime/coalesce.py)."""
        return await self._positions(groups)

    async def _read_positions(
        self, requests: Sequence[Sequence[str]]
    ) -> list[tuple[str, dict[str, int]]]:
        # The epoch exists before the first event, so a client can tell data it saw before a
        # Redis restart from data after it (hello carries it).
        epoch_key = self.backend.epoch_key
        groups = list(dict.fromkeys(group for request in requests for group in request))
        keys = [epoch_key, *(self.backend.key("seq", group) for group in groups)]
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.set(epoch_key, uuid.uuid4().hex, nx=True)
            pipe.mget(keys)
            _, (epoch, *values) = await pipe.execute()
        positions = {group: int(value or 0) for group, value in zip(groups, values, strict=True)}
        return [
            (epoch.decode(), {group: positions[group] for group in request}) for request in requests
        ]

    async def replay(self, group: str, after: int, limit: int) -> Replay | None:
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.get(self.backend.key("seq", group))
            pipe.zrangebyscore(
                self.backend.key("log", group),
                f"({after}",
                "+inf",
                start=0,
                num=limit,
                withscores=True,
            )
            current, rows = await pipe.execute()
        events = [(int(score), unlogged(member.decode())) for member, score in rows]
        return replay_after(after, int(current or 0), events)

    async def close(self) -> None:
        self._closed = True
        if self._reader is not None and self._reader is not asyncio.current_task():
            self._reader.cancel()
        for ready in self._ready.values():
            ready.cancel()
        for waiter in self._pongs:
            waiter.cancel()
        try:
            await self.pubsub.aclose()
            await self.subscriber.aclose()
            await self.client.aclose()
        except Exception:
            logger.debug("Error closing a realtime Redis source", exc_info=True)


class RedisSource(Source):
    """One event loop's view of the live layer's Redis: a subscription per instance the
    groups live on (:class:`ShardSource`), and a small pool on ``REDIS_URL`` for presence
    and charges (the first instance's, when the groups live there)."""

    def __init__(self, backend: Layout) -> None:
        self.backend = backend
        self.shards = [
            ShardSource(backend, shard, self, index) for index, shard in enumerate(backend.shards)
        ]
        main = next((shard for shard in self.shards if shard.shard.url == backend.url), None)
        self._own_client = main is None
        if main is not None:
            self.client = main.client
        else:
            self.client = _read_client(backend, backend.url)
        # Each instance's epoch as last seen here (several instances only); known before any
        # of their events is handed on (the first subscription reads them).
        self.epochs: list[str | None] = [None] * len(self.shards)
        self._hub: Receiver | None = None
        self._charges = Coalesced(self._charge)

    def start(self, hub: Receiver) -> None:
        self._hub = hub
        for shard in self.shards:
            shard.start()

    def _shard(self, group: str) -> ShardSource:
        return self.shards[self.backend.shard_of(group)]

    def _joined(self) -> str | None:
        if any(epoch is None for epoch in self.epochs):
            return None
        return ".".join(epoch for epoch in self.epochs if epoch is not None)

    async def received(self, index: int, group: str, payload: str) -> None:
        """A message from instance ``index``: handed on as it is from a single instance, with
        the instances' joined epoch from several (a new epoch of one changes the joined
        one: the hub closes its sockets, as for one instance's)."""
        assert self._hub is not None
        if len(self.shards) > 1:
            if None in self.epochs:
                await self.current([])
            epoch, rest = payload.split(" ", 1)
            self.epochs[index] = epoch
            payload = f"{self._joined()} {rest}"
        await self._hub.receive(group, payload)

    async def lost(self) -> None:
        """One instance's subscription ended: the whole source is lost (the hub closes its
        sockets as unavailable and opens a new source)."""
        if self._hub is not None:
            await self._hub.lost(self)

    async def ping(self) -> None:
        """A PING on each subscription's own connection, answered once its reader has read
        the pong: the connections are up and their readers are reading."""
        await asyncio.gather(*(shard.ping() for shard in self.shards))

    async def subscribe(self, group: str) -> None:
        if len(self.shards) > 1 and None in self.epochs:
            await self.current([])
        await self._shard(group).subscribe(group)

    async def unsubscribe(self, group: str) -> None:
        await self._shard(group).unsubscribe(group)

    async def current(self, groups: Sequence[str]) -> tuple[str | None, dict[str, int]]:
        if len(self.shards) == 1:
            return await self.shards[0].current(groups)
        by_shard: list[list[str]] = [[] for _ in self.shards]
        for group in groups:
            by_shard[self.backend.shard_of(group)].append(group)
        answers = await asyncio.gather(
            *(shard.current(mine) for shard, mine in zip(self.shards, by_shard, strict=True))
        )
        positions: dict[str, int] = {}
        for index, (epoch, found) in enumerate(answers):
            self.epochs[index] = epoch
            positions.update(found)
        return self._joined(), {group: positions[group] for group in groups}

    async def replay(self, group: str, after: int, limit: int) -> Replay | None:
        return await self._shard(group).replay(group, after, limit)

    async def charge(self, name: str, amount: int, window: float) -> int:
        """Charged with the other sockets' charges made while a charge is out
        (realtime/coalesce.py): a reconnect storm charges every replay page to its user."""
        return await self._charges((name, amount, window))

    async def _charge(self, requests: Sequence[tuple[str, int, float]]) -> list[int]:
        async with self.client.pipeline(transaction=True) as pipe:
            for name, amount, window in requests:
                key = self.backend.key("charge", name)
                pipe.set(key, 0, px=max(1, int(window * 1000)), nx=True)
                pipe.incrby(key, amount)
            answers = await pipe.execute()
        return [int(total) for total in answers[1::2]]

    async def presence_touch(self, entries: Sequence[tuple[str, str]], ttl: float) -> None:
        until = (time.time() + ttl) * 1000
        # One ZADD and one PEXPIRE per set, whatever its number of members: a sport's set has
        # an entry per socket, and a reply to parse per entry held the event loop for ms.
        members: dict[str, dict[str, float]] = {}
        for name, member in entries:
            members.setdefault(name, {})[member] = until
        async with self.client.pipeline(transaction=False) as pipe:
            for name, scores in members.items():
                key = self.backend.key("presence", name)
                pipe.zadd(key, scores)
                pipe.pexpire(key, int(ttl * 2000))
            await pipe.execute()

    async def presence_remove(self, entries: Sequence[tuple[str, str]]) -> None:
        members: dict[str, list[str]] = {}
        for name, member in entries:
            members.setdefault(name, []).append(member)
        async with self.client.pipeline(transaction=False) as pipe:
            for name, gone in members.items():
                pipe.zrem(self.backend.key("presence", name), *gone)
            await pipe.execute()

    async def presence_members(self, names: Sequence[str]) -> dict[str, list[str]]:
        now = time.time() * 1000
        async with self.client.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.zrangebyscore(self.backend.key("presence", name), now, "+inf")
            found = await pipe.execute()
        return {
            name: [member.decode() for member in members]
            for name, members in zip(names, found, strict=True)
        }

    async def presence_counts(self, names: Sequence[str]) -> dict[str, int]:
        now = time.time() * 1000
        async with self.client.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.zcount(self.backend.key("presence", name), now, "+inf")
            found = await pipe.execute()
        return {name: int(count) for name, count in zip(names, found, strict=True)}

    async def close(self) -> None:
        for shard in self.shards:
            await shard.close()
        if self._own_client:
            try:
                await self.client.aclose()
            except Exception:
                logger.debug("Error closing a realtime Redis source", exc_info=True)
