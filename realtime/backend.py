"""Where events go between processes: sequence numbers, the replay log and delivery.

Two backends share one interface:

* :class:`RedisBackend` (``REDIS_URL`` set). One Lua script per group and event does
  ``INCR`` of the group's sequence, adds the encoded envelope to the group's replay log (a
  sorted set scored by seq, trimmed to the newest ``REALTIME_REPLAY_EVENTS``) and
  ``PUBLISH``es it on the group's pub/sub channel. Being one script, it is atomic: every
  process sees a group's events in seq order, whichever process published them. Each process
  (each event loop) holds ONE pub/sub connection, subscribed to the groups its sockets are in.
* :class:`MemoryBackend` (embedded mode): the same in one process, under a lock.

Publishing is synchronous: it runs in ``transaction.on_commit`` callbacks, in request threads.
The receiving side is a per-event-loop :class:`~realtime.hub.Hub`, fed by a ``Source``.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import logging
import threading
import time
import uuid
import weakref
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import redis
from django.conf import settings
from redis import asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.connection import parse_url

from realtime.connection import state_name
from realtime.events import COMMAND_MARK, Envelope

if TYPE_CHECKING:
    from realtime.hub import Hub

logger = logging.getLogger(__name__)

Replay = list[tuple[int, str]]

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


@dataclass(frozen=True)
class Guard:
    """Send a summary only when its content changed, and never an older snapshot after a
    newer one (two processes may compute the same summary at nearly the same time)."""

    name: str
    digest: str
    taken_at_ms: int

    @classmethod
    def of(cls, name: str, text: str, taken_at: float) -> Guard:
        digest = hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
        return cls(name=name, digest=digest, taken_at_ms=int(taken_at * 1000))


@dataclass(frozen=True)
class Outbound:
    """One event on its way: its groups, its envelope and, for a summary, its guard."""

    groups: Sequence[str]
    envelope: Envelope
    guard: Guard | None = None


def copies(events: Sequence[Outbound]) -> Iterator[tuple[str, Envelope, Guard | None]]:
    """One copy per event and group, in order."""
    for event in events:
        for group in event.groups:
            yield group, event.envelope, event.guard


def replay_after(after: int, current: int, events: Replay) -> Replay | None:
    """The events after ``after`` (a page of them), or None when some of them are no longer
    kept (or the cursor is ahead of the sequence, which restarted): the client must
    refetch."""
    if after == current:
        return []
    if after > current or not events or events[0][0] != after + 1:
        return None
    return events


def state_of(envelope: Envelope) -> str:
    """The state an event describes, whose newest copy replaces older ones in the log, or ''."""
    return state_name(envelope.type_json.strip('"'), envelope.tail) or ""


def logged(now_ms: int, text: str) -> str:
    return f"{now_ms} {text}"


def unlogged(member: str) -> str:
    return member.partition(" ")[2]


@dataclass(frozen=True)
class Config:
    prefix: str
    max_age: float  # seconds an event stays in its group's replay log
    max_bytes: int  # bytes a group's replay log may hold
    ttl: int
    max_connections: int

    @classmethod
    def from_settings(cls) -> Config:
        return cls(
            prefix=settings.REALTIME_PREFIX,
            max_age=settings.REALTIME_REPLAY_AGE,
            max_bytes=settings.REALTIME_REPLAY_BYTES,
            ttl=settings.REALTIME_REPLAY_TTL,
            max_connections=settings.REALTIME_REDIS_MAX_CONNECTIONS,
        )


class Source(ABC):
    """One event loop's view of the backend: subscriptions, cursors and the replay log."""

    @abstractmethod
    def start(self, hub: Hub) -> None: ...

    @abstractmethod
    async def subscribe(self, group: str) -> None:
        """Return once events of ``group`` published from now on will reach the hub."""

    @abstractmethod
    async def unsubscribe(self, group: str) -> None: ...

    @abstractmethod
    async def current(self, groups: Sequence[str]) -> tuple[str | None, dict[str, int]]:
        """The epoch (None before any event) and the last seq of each group."""

    @abstractmethod
    async def replay(self, group: str, after: int, limit: int) -> Replay | None:
        """Up to ``limit`` events after ``after``, in order (see :func:`replay_after`)."""

    @abstractmethod
    async def close(self) -> None: ...

    # Presence: sets of members, each entry expiring unless touched again (a process that
    # dies stops touching its entries; they are gone after the ttl).

    @abstractmethod
    async def presence_touch(self, entries: Sequence[tuple[str, str]], ttl: float) -> None:
        """Add or refresh ``(set, member)`` entries, each living ``ttl`` seconds from now."""

    @abstractmethod
    async def presence_remove(self, entries: Sequence[tuple[str, str]]) -> None: ...

    @abstractmethod
    async def presence_members(self, names: Sequence[str]) -> dict[str, list[str]]:
        """The live members of each set."""


class Backend(ABC):
    def __init__(self, config: Config) -> None:
        self.config = config
        self._hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = (
            weakref.WeakKeyDictionary()
        )

    @abstractmethod
    def publish(self, events: Sequence[Outbound]) -> None:
        """Number, log and deliver each event to each of its groups, in order, together
        (one Redis round trip: a hub then writes them to a socket in one go)."""

    @abstractmethod
    def command(self, group: str, name: str, argument: str) -> None:
        """Ask every socket of a group, in every process, to do something (close)."""

    @abstractmethod
    def acquire_window(self, name: str, seconds: float) -> float:
        """Take a rate window shared by every process: 0 when taken, else the seconds left."""

    @abstractmethod
    def new_source(self) -> Source: ...

    def hub(self) -> Hub:
        from realtime.hub import Hub

        loop = asyncio.get_running_loop()
        hub = self._hubs.get(loop)
        if hub is None:
            hub = self._hubs[loop] = Hub(self)
        return hub


# --- Redis ------------------------------------------------------------------------------


class RedisBackend(Backend):
    def __init__(self, url: str, config: Config) -> None:
        super().__init__(config)
        self.url = url
        # Pub/sub channels ignore SELECT: name the database so deployments sharing a server
        # on different databases do not hear each other.
        self.channel_prefix = f"{config.prefix}:{parse_url(url).get('db', 0)}:"
        # Request threads wait for a free connection rather than fail (redis-py raises
        # MaxConnectionsError from a plain pool once max_connections are in use).
        self.client = redis.Redis(
            connection_pool=redis.BlockingConnectionPool.from_url(
                url,
                max_connections=config.max_connections,
                timeout=5,
                socket_timeout=5,
                socket_connect_timeout=2,
            )
        )
        self.script_sha = self.client.register_script(PUBLISH_SCRIPT).sha
        self.epoch_key = f"{config.prefix}:epoch"

    def key(self, kind: str, name: str) -> str:
        return f"{self.config.prefix}:{kind}:{name}"

    def channel(self, group: str) -> str:
        return self.channel_prefix + group

    def publish(self, events: Sequence[Outbound]) -> None:
        calls = []
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
            calls.append([*keys, *args])
        try:
            self._evalsha(calls)
        except redis.exceptions.NoScriptError:
            # Redis restarted or its scripts were flushed: none of the calls ran.
            self.client.script_load(PUBLISH_SCRIPT)
            self._evalsha(calls)

    def _evalsha(self, calls: list[list[Any]]) -> None:
        # One round trip for every group (redis-py's Script in a pipeline would add a
        # SCRIPT EXISTS round trip each time).
        with self.client.pipeline(transaction=False) as pipe:
            for call in calls:
                pipe.evalsha(self.script_sha, 5, *call)
            pipe.execute()

    def command(self, group: str, name: str, argument: str) -> None:
        self.client.publish(self.channel(group), f"{COMMAND_MARK}{name} {argument}")

    def acquire_window(self, name: str, seconds: float) -> float:
        key = self.key("window", name)
        if self.client.set(key, 1, nx=True, px=max(1, int(seconds * 1000))):
            return 0.0
        left = self.client.pttl(key)
        return max(int(left), 1) / 1000

    def new_source(self) -> Source:
        return RedisSource(self)


class RedisSource(Source):
    """One pub/sub connection per event loop, and a small pool for cursor and replay reads."""

    def __init__(self, backend: RedisBackend) -> None:
        self.backend = backend
        self.client = aioredis.Redis(
            connection_pool=aioredis.BlockingConnectionPool.from_url(
                backend.url, max_connections=backend.config.max_connections, timeout=10
            )
        )
        # The subscriber waits for messages indefinitely: no read timeout (redis-py's default
        # 5 s would drop an idle subscriber), TCP keepalive to notice a dead server. And no
        # retry: redis-py would reconnect and resubscribe silently, losing what was published
        # meanwhile; the hub must hear of it and close its sockets (they resync).
        self.subscriber = aioredis.Redis.from_url(
            backend.url,
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
        self._reader: asyncio.Task[None] | None = None
        self._closed = False

    def start(self, hub: Hub) -> None:
        self._reader = asyncio.create_task(self._read(hub), name="realtime-redis-reader")

    async def _read(self, hub: Hub) -> None:
        prefix_length = len(self.backend.channel_prefix)
        try:
            # A subscription that lasts as long as the source keeps listen() listening.
            async with self._commands:
                await self.pubsub.subscribe(self.backend.channel_prefix + "~process")
            async for message in self.pubsub.listen():
                group = message["channel"].decode()[prefix_length:]
                if message["type"] == "message":
                    await hub.receive(group, message["data"].decode())
                elif message["type"] == "subscribe":
                    self._confirmed(group)
        except asyncio.CancelledError:
            raise
        except Exception:
            if not self._closed:
                logger.warning("Lost the realtime subscription to Redis", exc_info=True)
                await hub.lost(self)

    def _confirmed(self, group: str) -> None:
        self._unconfirmed[group] -= 1
        if self._unconfirmed[group] <= 0:
            del self._unconfirmed[group]
            ready = self._ready.get(group)
            if ready is not None and not ready.done():
                ready.set_result(None)

    async def subscribe(self, group: str) -> None:
        ready = self._ready.get(group)
        if ready is None:
            ready = self._ready[group] = asyncio.get_running_loop().create_future()
            self._unconfirmed[group] += 1
            try:
                async with self._commands:
                    await self.pubsub.subscribe(self.backend.channel(group))
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
                await self.pubsub.unsubscribe(self.backend.channel(group))

    async def current(self, groups: Sequence[str]) -> tuple[str | None, dict[str, int]]:
        # The epoch exists before the first event, so a client can tell data it saw before a
        # Redis restart from data after it (hello carries it).
        keys = [self.backend.epoch_key, *(self.backend.key("seq", group) for group in groups)]
        async with self.client.pipeline(transaction=True) as pipe:
            pipe.set(self.backend.epoch_key, uuid.uuid4().hex, nx=True)
            pipe.mget(keys)
            _, (epoch, *values) = await pipe.execute()
        positions = {group: int(value or 0) for group, value in zip(groups, values, strict=True)}
        return (epoch.decode() if isinstance(epoch, bytes) else epoch), positions

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

    async def presence_touch(self, entries: Sequence[tuple[str, str]], ttl: float) -> None:
        until = (time.time() + ttl) * 1000
        async with self.client.pipeline(transaction=False) as pipe:
            for name, member in entries:
                key = self.backend.key("presence", name)
                pipe.zadd(key, {member: until})
                pipe.pexpire(key, int(ttl * 2000))
            await pipe.execute()

    async def presence_remove(self, entries: Sequence[tuple[str, str]]) -> None:
        async with self.client.pipeline(transaction=False) as pipe:
            for name, member in entries:
                pipe.zrem(self.backend.key("presence", name), member)
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

    async def close(self) -> None:
        self._closed = True
        if self._reader is not None and self._reader is not asyncio.current_task():
            self._reader.cancel()
        for ready in self._ready.values():
            ready.cancel()
        try:
            await self.pubsub.aclose()
            await self.subscriber.aclose()
            await self.client.aclose()
        except Exception:
            logger.debug("Error closing a realtime Redis source", exc_info=True)


# --- Memory -----------------------------------------------------------------------------


class MemoryBackend(Backend):
    """One process: sequences and bounded replay logs in memory, delivery by the loops'
    thread-safe call queue."""

    def __init__(self, config: Config) -> None:
        super().__init__(config)
        self.lock = threading.Lock()
        self.seqs: collections.Counter[str] = collections.Counter()
        self.logs: dict[str, MemoryLog] = {}
        self.guards: dict[str, tuple[int, str]] = {}
        self.windows: dict[str, float] = {}
        self.presence: dict[str, dict[str, float]] = {}
        self.sources: weakref.WeakSet[MemorySource] = weakref.WeakSet()
        self.epoch = uuid.uuid4().hex

    def publish(self, events: Sequence[Outbound]) -> None:
        with self.lock:
            for group, envelope, guard in copies(events):
                if guard is not None:
                    name = f"{group}:{guard.name}"
                    last = self.guards.get(name)
                    if last and (last[1] == guard.digest or last[0] > guard.taken_at_ms):
                        continue
                    self.guards[name] = (guard.taken_at_ms, guard.digest)
                self.seqs[group] += 1
                seq = self.seqs[group]
                text = f"{envelope.head(group)}{seq}{envelope.tail}"
                log = self.logs.get(group)
                if log is None:
                    log = self.logs[group] = MemoryLog(group, self.config)
                log.add(seq, text, state_of(envelope))
                self._post(group, f"{self.epoch} {seq} {text}")

    def command(self, group: str, name: str, argument: str) -> None:
        with self.lock:
            self._post(group, f"{COMMAND_MARK}{name} {argument}")

    def _post(self, group: str, payload: str) -> None:
        for source in list(self.sources):
            source.post(group, payload)

    def acquire_window(self, name: str, seconds: float) -> float:
        now = time.monotonic()
        with self.lock:
            until = self.windows.get(name, 0.0)
            if until > now:
                return until - now
            self.windows[name] = now + seconds
            return 0.0

    def new_source(self) -> Source:
        source = MemorySource(self)
        self.sources.add(source)
        return source


class MemorySource(Source):
    def __init__(self, backend: MemoryBackend) -> None:
        self.backend = backend
        self.loop = asyncio.get_running_loop()
        self.inbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._reader: asyncio.Task[None] | None = None

    def post(self, group: str, payload: str) -> None:
        if not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self.inbox.put_nowait, (group, payload))

    def start(self, hub: Hub) -> None:
        self._reader = asyncio.create_task(self._read(hub), name="realtime-memory-reader")

    async def _read(self, hub: Hub) -> None:
        while True:
            group, payload = await self.inbox.get()
            await hub.receive(group, payload)

    async def subscribe(self, group: str) -> None:
        return None

    async def unsubscribe(self, group: str) -> None:
        return None

    async def current(self, groups: Sequence[str]) -> tuple[str | None, dict[str, int]]:
        with self.backend.lock:
            return self.backend.epoch, {group: self.backend.seqs[group] for group in groups}

    async def replay(self, group: str, after: int, limit: int) -> Replay | None:
        with self.backend.lock:
            current = self.backend.seqs[group]
            log = self.backend.logs.get(group)
            events = log.after(after, limit) if log is not None else []
        return replay_after(after, current, events)

    async def presence_touch(self, entries: Sequence[tuple[str, str]], ttl: float) -> None:
        until = time.time() + ttl
        with self.backend.lock:
            for name, member in entries:
                self.backend.presence.setdefault(name, {})[member] = until

    async def presence_remove(self, entries: Sequence[tuple[str, str]]) -> None:
        with self.backend.lock:
            for name, member in entries:
                members = self.backend.presence.get(name)
                if members is not None:
                    members.pop(member, None)
                    if not members:
                        del self.backend.presence[name]

    async def presence_members(self, names: Sequence[str]) -> dict[str, list[str]]:
        now = time.time()
        with self.backend.lock:
            return {
                name: [
                    member
                    for member, until in self.backend.presence.get(name, {}).items()
                    if until > now
                ]
                for name in names
            }

    async def close(self) -> None:
        self.backend.sources.discard(self)
        if self._reader is not None:
            self._reader.cancel()


class MemoryLog:
    """A group's replay log in memory, bounded by age and bytes like the Redis one."""

    def __init__(self, group: str, config: Config) -> None:
        self.group = group
        self.config = config
        self.entries: collections.OrderedDict[int, str] = collections.OrderedDict()
        self.bytes = 0
        self.states: dict[str, int] = {}

    def add(self, seq: int, text: str, state: str) -> None:
        now = int(time.time() * 1000)
        member = logged(now, text)
        self.entries[seq] = member
        self.bytes += len(member.encode())
        if state:
            previous = self.states.get(state)
            old = self.entries.get(previous) if previous is not None else None
            if previous is not None and old is not None:
                at = old.partition(" ")[0]
                stub = f'{at} {{"type":"skipped","group":"{self.group}","seq":{previous}}}'
                self.entries[previous] = stub
                self.bytes += len(stub.encode()) - len(old.encode())
            self.states[state] = seq
        cutoff = now - int(self.config.max_age * 1000)
        while self.entries:
            oldest_seq, oldest = next(iter(self.entries.items()))
            if int(oldest.partition(" ")[0]) >= cutoff and self.bytes <= self.config.max_bytes:
                break
            del self.entries[oldest_seq]
            self.bytes -= len(oldest.encode())

    def after(self, after: int, limit: int) -> Replay:
        events: Replay = []
        for seq, member in self.entries.items():
            if seq > after:
                events.append((seq, unlogged(member)))
                if len(events) >= limit:
                    break
        return events


# --- The process's backend --------------------------------------------------------------

_backend: Backend | None = None
_backend_lock = threading.Lock()


def get_backend() -> Backend:
    global _backend
    with _backend_lock:
        if _backend is None:
            config = Config.from_settings()
            url = settings.REDIS_URL
            _backend = RedisBackend(url, config) if url else MemoryBackend(config)
        return _backend


def reset_backend() -> None:
    """Forget the backend (settings changed, e.g. a test's own Redis prefix)."""
    global _backend
    with _backend_lock:
        _backend = None
