"""What the live layer's two backends share (Redis: realtime/redis_publish.py and
realtime/redis_receive.py; memory: realtime/backend_memory.py): the ``Backend`` (publish,
replay) and ``Source`` (a process's subscription) interfaces, their configuration, the envelope
copies and summary guards a publish takes, and the replay log's member format.
realtime/backend.py picks the process's backend.
"""

from __future__ import annotations

import hashlib
import logging
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from django.conf import settings

from realtime.connection import state_name
from realtime.events import Envelope

logger = logging.getLogger(__name__)

Replay = list[tuple[int, str]]
# One entry of a merge window (Backend.merge): its key (a nomination, an activity), its order
# (a newer entry of the same key replaces an older one) and its JSON text.
MergeEntry = tuple[int, int, str]


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


class Receiver(Protocol):
    """What a source feeds: the event loop's hub (realtime/hub.py)."""

    async def receive(self, group: str, payload: str) -> None: ...

    async def lost(self, source: Source) -> None: ...


class Source(ABC):
    """One event loop's view of the backend: subscriptions, cursors and the replay log."""

    @abstractmethod
    def start(self, hub: Receiver) -> None: ...

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

    async def ping(self) -> None:
        """Return once the subscription answers (readiness, project/health.py); a source
        that needs no server answers at once."""
        return None

    @abstractmethod
    async def charge(self, name: str, amount: int, window: float) -> int:
        """Add ``amount`` to the counter ``name``, shared by every process, which starts at 0
        and lives ``window`` seconds from its first charge; answer its total."""

    # Presence: sets of members, each entry expiring unless touched again (a process that
    # dies stops touching its entries; they are gone after the ttl).

    @abstractmethod
    async def presence_touch(self, entries: Sequence[tuple[str, str]], ttl: float) -> None:
        """Add or refresh ``(set, member)`` entries, each living ``ttl`` seconds from now."""

    @abstractmethod
    async def presence_remove(self, entries: Sequence[tuple[str, str]]) -> None: ...

    @abstractmethod
    async def presence_members(self, names: Sequence[str]) -> dict[str, list[str]]:
        """The live members of each set (the review marks: a few admins)."""

    @abstractmethod
    async def presence_counts(self, names: Sequence[str]) -> dict[str, int]:
        """How many live members each set has, without reading them: a sport's set holds
        every socket watching it, and a reconnect storm asks its count once per socket."""


class Backend(ABC):
    def __init__(self, config: Config) -> None:
        self.config = config

    @abstractmethod
    def publish(self, events: Sequence[Outbound]) -> None:
        """Number, log and deliver each event to each of its groups, in order, together
        (one Redis round trip: a hub then writes them to a socket in one go)."""

    @abstractmethod
    def acquire_window(self, name: str, seconds: float, sustained: float | None = None) -> float:
        """Take a rate window shared by every process: 0 when taken, else the seconds left.
        With ``sustained``, a window taken less than ``seconds`` after the one before ended
        (the changes go on) lasts ``sustained`` seconds instead."""

    @abstractmethod
    def merge(
        self, name: str, seconds: float, entries: Sequence[MergeEntry]
    ) -> tuple[list[str], float]:
        """Hold ``entries`` in the merge ``name``, shared by every process (an entry replaces
        the one held for its key only when its order is higher); then, when anything is held
        and the window ``name`` is free, take the window for ``seconds`` and answer all that
        is held, taken out (texts, by key): the caller sends them as one event. Else answer no
        texts and the seconds until the window ends, when someone must try again (0: nothing
        is held, another process sent it). Whichever process comes first after a window sends
        what every process held: none waits for a window of its own (realtime/merge.py)."""

    def merge_many(
        self, merges: Sequence[tuple[str, float, Sequence[MergeEntry]]]
    ) -> list[tuple[list[str], float]]:
        """``merge`` for each (name, seconds, entries), in one round trip where the backend
        has them; the answers in the same order."""
        return [self.merge(name, seconds, entries) for name, seconds, entries in merges]

    @abstractmethod
    def new_source(self) -> Source: ...
