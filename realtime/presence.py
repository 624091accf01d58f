"""Presence: "N watching" per nomination and per sport, and which admin reviews what.

Each person (a signed-in user, whatever their number of sockets or tabs) is an entry in the
sets their sockets watch (``sport:<sport>``, ``nomination:<id>``; an admin watching a
nomination also in ``review``, per socket), kept in Redis shared by every process (in memory
embedded); the entry goes when the last of their sockets here stops watching. Each socket is
also an entry of its member's set (``sockets:u<id>``), which the live layer counts to cap the
sockets of one member across their sign-ins (``REALTIME_SOCKETS_PER_MEMBER``); the entry names
the process that holds the socket. A process touches its sockets' entries every third of
``REALTIME_PRESENCE_TTL``, with its own heartbeat (its entry in ``processes``, living one
TTL), and their member entries every third of ``SOCKETS_TTL_FACTOR`` times that (a Redis
command per socket on every touch). The entries of a process that dies expire after it; in a
member's set, the count at a connect forgets them as soon as the process's heartbeat has
expired, so a crowd coming back from a dead process is not refused for its own old sockets.
A socket the server closes (a drain's 1001, 4429, 4008) leaves its member's set before the
close frame goes out: the client's reconnect never finds its own old socket still counted.
Once a tick (0.5 s) the process reads the counts of the sets its sockets watch and tells those
sockets when a count changed, at most once a second per set: counts only, never who. Admins
get the review marks of the other admins (``review.changed``), within a second.

Presence is not an event of a group: it has no ``seq``, is not logged and is not replayed;
a socket that joins a set is told its count at once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import uuid
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from django.conf import settings

from realtime.connection import Outgoing

logger = logging.getLogger(__name__)

TICK = 0.5  # seconds between reads of the counts
# A member's socket entries live this many presence TTLs between touches.
SOCKETS_TTL_FACTOR = 12
PUSH_EVERY = 1.0  # at most one presence.changed per set per this many seconds
REVIEWS = "review"
# The heartbeats of the processes holding sockets: one entry per process, living one TTL.
PROCESSES = "processes"


class PresenceStore(Protocol):
    """Where the entries live: the backend's source (realtime/backend_base.py)."""

    async def presence_touch(self, entries: Sequence[tuple[str, str]], ttl: float) -> None: ...

    async def presence_remove(self, entries: Sequence[tuple[str, str]]) -> None: ...

    async def presence_members(self, names: Sequence[str]) -> dict[str, list[str]]: ...

    async def presence_counts(self, names: Sequence[str]) -> dict[str, int]: ...


class Watcher(Protocol):
    presence_id: str
    user_id: int

    async def tell(self, message: Outgoing) -> None: ...


class Reviewer(Watcher, Protocol):
    pass


def person(watcher: Watcher) -> str:
    """A watcher's entry in the sets it watches: its user, so that one person's sockets count
    once."""
    return f"u{watcher.user_id}"


def sockets_set(user_id: int) -> str:
    """The set of a member's sockets, whichever of their sign-ins holds each."""
    return f"sockets:u{user_id}"


def scope_of(name: str) -> dict[str, Any]:
    kind, _, ident = name.partition(":")
    return {"scope": kind, "id": int(ident) if kind == "nomination" else ident}


def changed(name: str, watching: int) -> Outgoing:
    data = {**scope_of(name), "watching": watching}
    return Outgoing(json.dumps({"type": "presence.changed", "data": data}, separators=(",", ":")))


class Presence:
    def __init__(self, store: Callable[[], PresenceStore]) -> None:
        # Asked each time: the hub opens a new source after it lost one.
        self.store = store
        self.watchers: dict[str, set[Watcher]] = {}
        self.entries: dict[Watcher, set[str]] = {}  # socket -> the set members it holds
        self.reviewing: dict[Watcher, str] = {}  # admin socket -> its review member
        self.admins: set[Reviewer] = set()
        self.counts: dict[str, int] = {}  # set -> the count last told
        self.told_at: dict[str, float] = {}
        self.reviews_told: dict[Reviewer, str] = {}
        self.sessions: dict[Watcher, str] = {}  # socket -> its member's sockets set
        # This process's heartbeat entry (its sockets' entries start with it).
        self.process_id = uuid.uuid4().hex[:16]
        self.touched_at = 0.0
        self.sessions_touched_at = time.monotonic()  # open_session touched each one
        self.task: asyncio.Task[None] | None = None
        self.stopped = False

    @property
    def ttl(self) -> float:
        return float(settings.REALTIME_PRESENCE_TTL)

    @property
    def session_ttl(self) -> float:
        return self.ttl * SOCKETS_TTL_FACTOR

    def socket_entry(self, watcher: Watcher) -> str:
        """A socket's entry in its member's set: this process, then the socket."""
        return f"{self.process_id}:{watcher.presence_id}"

    # --- Sockets ------------------------------------------------------------------------

    async def watch(self, watcher: Watcher, name: str) -> None:
        """Add the socket to a set and tell it the set's count."""
        self.watchers.setdefault(name, set()).add(watcher)
        self.entries.setdefault(watcher, set()).add(name)
        source = self.store()
        await source.presence_touch([(name, person(watcher))], self.ttl)
        count = (await source.presence_counts([name]))[name]
        await watcher.tell(changed(name, count))
        self._run()

    async def unwatch(self, watcher: Watcher, name: str) -> None:
        members = self.watchers.get(name)
        if members is not None:
            members.discard(watcher)
            if not members:
                del self.watchers[name]
                self.counts.pop(name, None)
                self.told_at.pop(name, None)
        held = self.entries.get(watcher)
        if held is not None:
            held.discard(name)
        if not self._still_watched(name, watcher):
            await self.store().presence_remove([(name, person(watcher))])

    def _still_watched(self, name: str, watcher: Watcher) -> bool:
        """Whether another socket of the watcher's user here watches ``name``."""
        return any(other.user_id == watcher.user_id for other in self.watchers.get(name, ()))

    async def open_session(self, watcher: Watcher, name: str) -> int:
        """Count the socket in its member's set; answer how many sockets the set holds across
        every process that is alive (its heartbeat): a dead process's entries are removed."""
        self.sessions[watcher] = name
        source = self.store()
        await source.presence_touch([(PROCESSES, self.process_id)], self.ttl)
        await source.presence_touch([(name, self.socket_entry(watcher))], self.session_ttl)
        self._run()
        found = await source.presence_members([name, PROCESSES])
        alive = set(found[PROCESSES])
        dead = [entry for entry in found[name] if entry.partition(":")[0] not in alive]
        if dead:
            await source.presence_remove([(name, entry) for entry in dead])
        return len(found[name]) - len(dead)

    async def leave_session(self, watcher: Watcher) -> None:
        """The server closes the socket: it leaves its member's set now, before the client
        (which reconnects at once) can be counted with it."""
        name = self.sessions.pop(watcher, None)
        if name is not None:
            try:
                await self.store().presence_remove([(name, self.socket_entry(watcher))])
            except Exception:
                logger.info("Could not remove a socket's entry (it expires)", exc_info=True)

    async def review(self, reviewer: Reviewer, nomination_id: int | None, name: str) -> None:
        """Mark (or, with None, clear) the nomination an admin's socket has open."""
        previous = self.reviewing.pop(reviewer, None)
        if previous is not None:
            await self.store().presence_remove([(REVIEWS, previous)])
        if nomination_id is not None:
            member = json.dumps([reviewer.presence_id, nomination_id, reviewer.user_id, name])
            self.reviewing[reviewer] = member
            await self.store().presence_touch([(REVIEWS, member)], self.ttl)
        self._run()

    async def add_admin(self, admin: Reviewer) -> None:
        self.admins.add(admin)
        self._run()

    async def forget(self, watcher: Any) -> None:
        """A socket closed: leave every set."""
        held = []
        for name in self.entries.pop(watcher, set()):
            members = self.watchers.get(name)
            if members is not None:
                members.discard(watcher)
                if not members:
                    del self.watchers[name]
            if not self._still_watched(name, watcher):
                held.append((name, person(watcher)))
        session = self.sessions.pop(watcher, None)
        if session is not None:
            held.append((session, self.socket_entry(watcher)))
        review = self.reviewing.pop(watcher, None)
        if review is not None:
            held.append((REVIEWS, review))
        self.admins.discard(watcher)
        self.reviews_told.pop(watcher, None)
        if held:
            try:
                await self.store().presence_remove(held)
            except Exception:
                logger.info("Could not remove presence entries (they expire)", exc_info=True)

    # --- The tick -----------------------------------------------------------------------

    def _run(self) -> None:
        if not self.stopped and (self.task is None or self.task.done()):
            self.task = asyncio.ensure_future(self._loop())

    def stop(self) -> None:
        """End the tick for good. The flag, not only the cancel, ends the loop: redis-py can
        swallow a cancel that lands inside a pipeline's round trip, and the loop would then
        tick on while anyone is counted."""
        self.stopped = True
        if self.task is not None:
            self.task.cancel()

    async def _loop(self) -> None:
        while not self.stopped and (self.watchers or self.admins or self.sessions):
            try:
                await self.tick()
            except Exception:
                logger.info("Presence tick failed (Redis away?)", exc_info=True)
            await asyncio.sleep(TICK)

    async def tick(self) -> None:
        source = self.store()
        now = time.monotonic()
        if now - self.touched_at >= self.ttl / 3:
            self.touched_at = now
            entries = list(
                {
                    (name, person(watcher))
                    for watcher, names in self.entries.items()
                    for name in names
                }
            )
            entries += [(REVIEWS, member) for member in self.reviewing.values()]
            if self.sessions:
                entries.append((PROCESSES, self.process_id))
            if entries:
                await source.presence_touch(entries, self.ttl)
        if now - self.sessions_touched_at >= self.session_ttl / 3:
            self.sessions_touched_at = now
            sessions = [
                (name, self.socket_entry(watcher)) for watcher, name in self.sessions.items()
            ]
            if sessions:
                await source.presence_touch(sessions, self.session_ttl)
        if not self.watchers and not self.admins:
            return
        # Counts only (ZCOUNT): a sport's set has an entry per person watching it.
        counts = await source.presence_counts(list(self.watchers))
        # The spacing counts from when a push goes out, not from when its tick began: a
        # tick held up by the reads above (a busy loop, Redis) would otherwise push less
        # than a second after the one before.
        now = time.monotonic()
        for name in self.watchers:
            count = counts.get(name, 0)
            if self.counts.get(name) == count or now - self.told_at.get(name, 0.0) < PUSH_EVERY:
                continue
            self.counts[name], self.told_at[name] = count, now
            message = changed(name, count)
            for watcher in tuple(self.watchers.get(name, ())):
                await watcher.tell(message)
        if self.admins:
            reviews = await source.presence_members([REVIEWS])
            await self._tell_reviews(reviews[REVIEWS])

    async def _tell_reviews(self, members: list[str]) -> None:
        marks = []
        for member in members:
            try:
                _, nomination_id, user_id, name = json.loads(member)
            except ValueError:
                continue
            marks.append((int(nomination_id), int(user_id), str(name)))
        marks.sort()
        for admin in tuple(self.admins):
            reviews = [
                {"nominationId": nomination_id, "name": name}
                for nomination_id, user_id, name in marks
                if user_id != admin.user_id
            ]
            text = json.dumps(
                {"type": "review.changed", "data": {"reviews": reviews}}, separators=(",", ":")
            )
            if self.reviews_told.get(admin) != text:
                self.reviews_told[admin] = text
                await admin.tell(Outgoing(text))


def new_presence_id() -> str:
    return uuid.uuid4().hex
