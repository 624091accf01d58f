"""The Redis half of the live layer's backend (``REDIS_URL`` set): one Lua script per group
and event keeps the sequence, the replay log and the pub/sub channel atomic; each process holds
one pub/sub connection per Redis instance the groups live on, subscribed to the groups its
sockets are in.

The groups (sequence, replay log, pub/sub channel) live on ``REDIS_URL``, or, with
``REALTIME_REDIS_SHARDS``, spread over several instances by a hash of the group's name: every
key one group's script touches is on one instance, so a group's events keep their order and
publishing scales with the instances. Presence, budgets' charges and the rate and merge
windows stay on ``REDIS_URL``. Each instance keeps its own epoch; the hub sees them joined
("<epoch>.<epoch>", in the shards' order), so losing any one instance's data voids every
cursor, as losing the one instance does."""

from __future__ import annotations

import asyncio
import collections
import logging
import time
import uuid
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import redis
from redis import asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.connection import parse_url

from realtime.backend_base import (
    Backend,
    Config,
    MergeEntry,
    Outbound,
    Receiver,
    Replay,
    Source,
    copies,
    replay_after,
    state_of,
    unlogged,
)
from realtime.coalesce import Coalesced

logger = logging.getLogger(__name__)


# KEYS: seq, log, guard, epoch, meta. ARGV: channel, head, tail, ttl, guard_ms, guard_digest,
# new_epoch, group, max_age_ms, max_bytes, state. The guard (summaries only) skips content
# equal to the last sent, or older than it. The epoch names the live layer's data: it changes
# when Redis lost them (restart without persistence, FLUSHDB), which the hubs read as "every
# cursor is void". The log's members are "<ms> <text>" scored by seq; meta holds the log's
# byte count and, per state type, the seq of its newest event: a newer board or stats event
# turns the previous one into a small `skipped` (only the newest state is worth replaying).
# The oldest entries go once older than max_age_ms or while the log passes max_bytes.
PUBLISH_SCRIPT = """
if ARGV[5] ~= '' then
  local last = redis.call('GET', KEYS[3])
  if last then
    local at, digest = string.match(last, '^(%d+):(.*)$')
    if digest == ARGV[6] or tonumber(at) > tonumber(ARGV[5]) then return 0 end
  end
  redis.call('SET', KEYS[3], ARGV[5] .. ':' .. ARGV[6], 'EX', ARGV[4])
end
local epoch = redis.call('GET', KEYS[4])
if not epoch then
  epoch = ARGV[7]
  redis.call('SET', KEYS[4], epoch)
end
local seq = redis.call('INCR', KEYS[1])
local text = ARGV[2] .. seq .. ARGV[3]
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local member = now .. ' ' .. text
redis.call('ZADD', KEYS[2], seq, member)
local size = redis.call('HINCRBY', KEYS[5], 'bytes', #member)
if ARGV[11] ~= '' then
  local previous = redis.call('HGET', KEYS[5], ARGV[11])
  if previous then
    local old = redis.call('ZRANGEBYSCORE', KEYS[2], previous, previous)
    if old[1] then
      local at = string.match(old[1], '^(%d+) ')
      local stub = at .. ' {"type":"skipped","group":"' .. ARGV[8] .. '","seq":' .. previous .. '}'
      redis.call('ZREMRANGEBYSCORE', KEYS[2], previous, previous)
      redis.call('ZADD', KEYS[2], previous, stub)
      size = redis.call('HINCRBY', KEYS[5], 'bytes', #stub - #old[1])
    end
  end
  redis.call('HSET', KEYS[5], ARGV[11], seq)
end
local cutoff = now - tonumber(ARGV[9])
local limit = tonumber(ARGV[10])
for _ = 1, 64 do
  local oldest = redis.call('ZRANGE', KEYS[2], 0, 0)
  if not oldest[1] then break end
  if tonumber(string.match(oldest[1], '^(%d+) ')) >= cutoff and size <= limit then break end
  redis.call('ZREMRANGEBYRANK', KEYS[2], 0, 0)
  size = redis.call('HINCRBY', KEYS[5], 'bytes', -#oldest[1])
end
redis.call('EXPIRE', KEYS[2], ARGV[4])
redis.call('EXPIRE', KEYS[5], ARGV[4])
redis.call('PUBLISH', ARGV[1], epoch .. ' ' .. seq .. ' ' .. text)
return seq
"""

# KEYS: window, held. ARGV: window_ms, ttl, then (key, order, text) per entry. The merge of a
# window (Backend.merge) in one step: hold the entries (a newer order replaces an older one of
# its key: "<order> <text>" per key), then, when anything is held and the window is free, take
# the window and answer {-1, key, held, key, held, ...}, the held taken out; else {wait_ms},
# 0 when nothing is held.
MERGE_SCRIPT = """
for i = 3, #ARGV, 3 do
  local kept = redis.call('HGET', KEYS[2], ARGV[i])
  if not kept or tonumber(string.match(kept, '^(%-?%d+) ')) < tonumber(ARGV[i + 1]) then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1] .. ' ' .. ARGV[i + 2])
  end
end
if redis.call('HLEN', KEYS[2]) == 0 then return {0} end
redis.call('EXPIRE', KEYS[2], ARGV[2])
if not redis.call('SET', KEYS[1], 1, 'NX', 'PX', ARGV[1]) then
  return {math.max(redis.call('PTTL', KEYS[1]), 1)}
end
local held = redis.call('HGETALL', KEYS[2])
redis.call('DEL', KEYS[2])
table.insert(held, 1, -1)
return held
"""

# Take the rate window KEYS[1] for ARGV[1] ms, or for ARGV[2] ms when the one before ended
# less than ARGV[1] ms ago (KEYS[2] outlives each window by ARGV[1] ms). Answers 0, or the ms
# the window has left.
WINDOW_SCRIPT = """
local left = redis.call('PTTL', KEYS[1])
if left > 0 then return left end
local ms = tonumber(ARGV[1])
if redis.call('EXISTS', KEYS[2]) == 1 then ms = tonumber(ARGV[2]) end
redis.call('SET', KEYS[1], 1, 'PX', ms)
redis.call('SET', KEYS[2], 1, 'PX', ms + tonumber(ARGV[1]))
return 0
"""

# --- Redis ------------------------------------------------------------------------------


def shard_index(group: str, shards: int) -> int:
    """The instance (of ``shards``) a group lives on: stable across processes and restarts
    (CRC-32 of its name, as Redis Cluster hashes keys to slots)."""
    return zlib.crc32(group.encode()) % shards if shards > 1 else 0


def channel_prefix(prefix: str, url: str) -> str:
    # Pub/sub channels ignore SELECT: name the database so deployments sharing a server on
    # different databases do not hear each other.
    return f"{prefix}:{parse_url(url).get('db', 0)}:"


@dataclass(frozen=True)
class Shard:
    """One instance the groups live on, seen from the publishing (synchronous) side."""

    url: str
    client: redis.Redis
    channel_prefix: str


class RedisBackend(Backend):
    def __init__(self, url: str, config: Config, shard_urls: Sequence[str] = ()) -> None:
        super().__init__(config)
        self.url = url
        if len(set(shard_urls)) != len(shard_urls):
            raise ValueError("REALTIME_REDIS_SHARDS names an instance twice")
        self.client = self._client(url)
        self.shards = [
            Shard(
                shard,
                self.client if shard == url else self._client(shard),
                channel_prefix(config.prefix, shard),
            )
            for shard in (shard_urls or [url])
        ]
        self.script_sha = self.client.register_script(PUBLISH_SCRIPT).sha
        self.merge_script = self.client.register_script(MERGE_SCRIPT)
        self.window_script = self.client.register_script(WINDOW_SCRIPT)
        self.epoch_key = f"{config.prefix}:epoch"

    def _client(self, url: str) -> redis.Redis:
        # Request threads wait for a free connection rather than fail (redis-py raises
        # MaxConnectionsError from a plain pool once max_connections are in use).
        return redis.Redis(
            connection_pool=redis.BlockingConnectionPool.from_url(
                url,
                max_connections=self.config.max_connections,
                timeout=5,
                socket_timeout=5,
                socket_connect_timeout=2,
            )
        )

    def key(self, kind: str, name: str) -> str:
        return f"{self.config.prefix}:{kind}:{name}"

    def shard_of(self, group: str) -> int:
        return shard_index(group, len(self.shards))

    def channel(self, group: str) -> str:
        return self.shards[self.shard_of(group)].channel_prefix + group

    def clients(self) -> list[redis.Redis]:
        """Every instance the live layer uses (readiness pings each)."""
        others = [shard.client for shard in self.shards if shard.client is not self.client]
        return [self.client, *others]

    def publish(self, events: Sequence[Outbound]) -> None:
        calls: dict[int, list[list[Any]]] = {}
        for group, envelope, guard in copies(events):
            keys = [
                self.key("seq", group),
                self.key("log", group),
                self.key("guard", f"{group}:{guard.name}" if guard else group),
                self.epoch_key,
                self.key("meta", group),
            ]
            args: list[Any] = [self.channel(group), envelope.head(group), envelope.tail]
            args += [self.config.ttl, guard.taken_at_ms if guard else ""]
            args += [guard.digest if guard else "", uuid.uuid4().hex, group]
            args += [int(self.config.max_age * 1000), self.config.max_bytes, state_of(envelope)]
            calls.setdefault(self.shard_of(group), []).append([*keys, *args])
        # One round trip per instance: a group's copies all go to its own instance, in the
        # events' order.
        for index, shard_calls in calls.items():
            client = self.shards[index].client
            try:
                self._evalsha(client, shard_calls)
            except redis.exceptions.NoScriptError:
                # The instance restarted or its scripts were flushed: none of the calls ran.
                client.script_load(PUBLISH_SCRIPT)
                self._evalsha(client, shard_calls)

    def _evalsha(self, client: redis.Redis, calls: list[list[Any]]) -> None:
        # One round trip for every group (redis-py's Script in a pipeline would add a
        # SCRIPT EXISTS round trip each time).
        with client.pipeline(transaction=False) as pipe:
            for call in calls:
                pipe.evalsha(self.script_sha, 5, *call)
            pipe.execute()

    def acquire_window(self, name: str, seconds: float, sustained: float | None = None) -> float:
        milliseconds = max(1, int(seconds * 1000))
        left = self.window_script(
            keys=[self.key("window", name), self.key("window-ended", name)],
            args=[milliseconds, milliseconds if sustained is None else int(sustained * 1000)],
        )
        return int(left) / 1000

    def merge(
        self, name: str, seconds: float, entries: Sequence[MergeEntry]
    ) -> tuple[list[str], float]:
        return self.merge_many([(name, seconds, entries)])[0]

    def merge_many(
        self, merges: Sequence[tuple[str, float, Sequence[MergeEntry]]]
    ) -> list[tuple[list[str], float]]:
        calls = []
        for name, seconds, entries in merges:
            args: list[Any] = [max(1, int(seconds * 1000)), self.config.ttl]
            for key, order, text in entries:
                args += [key, order, text]
            calls.append([self.key("window", name), self.key("merging", name), *args])

        def run() -> list[Any]:
            # One round trip for every merge due (the merger's thread waits for the
            # interpreter after each one while the request threads hold it).
            with self.client.pipeline(transaction=False) as pipe:
                for call in calls:
                    pipe.evalsha(self.merge_script.sha, 2, *call)
                return list(pipe.execute())

        try:
            answers = run()
        except redis.exceptions.NoScriptError:
            # Redis restarted or its scripts were flushed: none of the calls ran.
            self.client.script_load(MERGE_SCRIPT)
            answers = run()
        return [self._merged(answer) for answer in answers]

    @staticmethod
    def _merged(answer: list[Any]) -> tuple[list[str], float]:
        if answer[0] != -1:
            return [], int(answer[0]) / 1000
        held = sorted(
            (int(key), value.decode().partition(" ")[2])
            for key, value in zip(answer[1::2], answer[2::2], strict=True)
        )
        return [text for _, text in held], 0.0

    def new_source(self) -> Source:
        return RedisSource(self)


def _read_client(backend: RedisBackend, url: str) -> aioredis.Redis:
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

    def __init__(self, backend: RedisBackend, shard: Shard, owner: RedisSource, index: int) -> None:
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

    def __init__(self, backend: RedisBackend) -> None:
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
