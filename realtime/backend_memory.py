"""The memory half of the live layer's backend (embedded mode, no ``REDIS_URL``): the same
interface in one process, under a lock."""

from __future__ import annotations

import asyncio
import collections
import logging
import threading
import time
import uuid
import weakref
from collections.abc import Sequence

from realtime.backend_base import (
    Backend,
    Config,
    MergeEntry,
    Outbound,
    Receiver,
    Replay,
    Source,
    copies,
    logged,
    replay_after,
    state_of,
    unlogged,
)

logger = logging.getLogger(__name__)


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
        self.merging: dict[str, dict[int, tuple[int, str]]] = {}
        self.presence: dict[str, dict[str, float]] = {}
        self.charges: dict[str, tuple[float, int]] = {}  # name -> (window's end, total)
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

    def _post(self, group: str, payload: str) -> None:
        for source in list(self.sources):
            source.post(group, payload)

    def acquire_window(self, name: str, seconds: float, sustained: float | None = None) -> float:
        now = time.monotonic()
        with self.lock:
            until = self.windows.get(name, 0.0)
            if until > now:
                return until - now
            if sustained is not None and now < until + seconds:
                seconds = sustained
            self.windows[name] = now + seconds
            return 0.0

    def merge(
        self, name: str, seconds: float, entries: Sequence[MergeEntry]
    ) -> tuple[list[str], float]:
        now = time.monotonic()
        with self.lock:
            held = self.merging.setdefault(name, {})
            for key, order, text in entries:
                kept = held.get(key)
                if kept is None or kept[0] < order:
                    held[key] = (order, text)
            if not held:
                return [], 0.0
            until = self.windows.get(name, 0.0)
            if until > now:
                return [], until - now
            self.windows[name] = now + seconds
            taken = [held[key][1] for key in sorted(held)]
            held.clear()
            return taken, 0.0

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

    def start(self, hub: Receiver) -> None:
        self._reader = asyncio.create_task(self._read(hub), name="realtime-memory-reader")

    async def _read(self, hub: Receiver) -> None:
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

    async def charge(self, name: str, amount: int, window: float) -> int:
        now = time.monotonic()
        with self.backend.lock:
            until, total = self.backend.charges.get(name, (0.0, 0))
            if until <= now:
                until, total = now + window, 0
                for stale in [key for key, (end, _) in self.backend.charges.items() if end <= now]:
                    del self.backend.charges[stale]
            total += amount
            self.backend.charges[name] = (until, total)
            return total

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

    async def presence_counts(self, names: Sequence[str]) -> dict[str, int]:
        now = time.time()
        with self.backend.lock:
            return {
                name: sum(
                    1 for until in self.backend.presence.get(name, {}).values() if until > now
                )
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
