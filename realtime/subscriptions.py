"""A socket's groups and its cursors in them: joining and leaving, subscribing with a cursor,
resuming, and catching up from the replay log (realtime/consumers.py keeps the connection and
reads the client's messages).

Per group, a socket sends events in strictly rising ``seq`` without gaps from the position it
announced (``hello``, ``subscribed``, ``resumed`` or ``resync``): events that arrive while a
group is being joined or replayed are held and released after, duplicates are dropped, and a
hole (a message lost on the way from Redis) is filled from the replay log.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from django.conf import settings

from realtime import metrics
from realtime.connection import Outgoing, SocketQueue
from realtime.hub import Hub, Member

logger = logging.getLogger(__name__)

REPLAY_PAGE = 200  # events read from the log per round trip while replaying
DRAIN_TIMEOUT = 10.0  # seconds a replaying socket may take to read a page before 4008

Announce = Callable[[dict[str, int]], dict[str, Any]]


class Socket(Member, Protocol):
    """What the subscriptions need of their socket (realtime.consumers.LiveConsumer): the
    hub's member, writing to the client and closing it."""

    hub: Hub
    closing: bool
    queue: SocketQueue | None
    user_id: int

    async def write(
        self, message: Outgoing, group: str | None = None, seq: int | None = None
    ) -> None: ...

    async def send_message(self, message: dict[str, Any]) -> None: ...

    async def error(self, text: str) -> None: ...

    async def unavailable(self) -> None:
        """Close as the live layer unavailable (4503): the client resumes after a backoff."""

    async def too_slow(self) -> None:
        """Close as fallen too far behind (4008): the client resumes."""

    def spawn(self, work: Awaitable[None]) -> None: ...


class Subscriptions:
    """The groups one socket is in, its cursor in each and the events held for each."""

    def __init__(self, socket: Socket) -> None:
        self.socket = socket
        self.joined: set[str] = set()
        self.cursors: dict[str, int] = {}
        # group -> its position read once the socket had joined it: every later event of the
        # group reaches the socket as it is published (deliver), whatever it replays
        self.joined_at: dict[str, int] = {}
        self.holding: dict[str, list[tuple[int, Outgoing]]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.replay_budget: int = settings.REALTIME_RESUME_MAX_BYTES

    # --- Joining and leaving ------------------------------------------------------------

    async def join(
        self, groups: list[str], announce: Announce, *, after: int | None = None
    ) -> None:
        """Join groups and announce their positions; events that race the join are held,
        then released after the announcement. With ``after`` (one group: a subscribe that
        carries the client's cursor) the socket starts at the client's cursor instead and
        catches up from it, when the group has not started over below it."""
        hub = self.socket.hub
        for group in groups:
            self.holding[group] = []
            self.joined.add(group)
        try:
            for group in groups:
                await hub.join(group, self.socket)
            positions = await hub.current(groups)
        except Exception:
            logger.warning("Live layer unavailable while joining %s", groups, exc_info=True)
            await self.socket.unavailable()
            return
        self.joined_at.update(positions)
        if after is not None and len(groups) == 1 and after <= positions[groups[0]]:
            group = groups[0]
            self.cursors[group] = after
            await self.socket.send_message(announce({group: after}))
            await self.catch_up(group, after, announce=True, live=True)
            return
        self.cursors.update(positions)
        await self.socket.send_message(announce(positions))
        for group in groups:
            await self.snapshot(group)
            await self._release(group)

    async def subscribe(self, group: str, announce: Announce, after: int | None) -> None:
        """A subscribe to ``group``: joined already, its cursor announced again; else joined
        from the client's cursor ``after`` (or from the group's position)."""
        if group in self.joined:
            await self.socket.send_message(announce({group: self.cursors[group]}))
        else:
            await self.join([group], announce, after=after)

    async def leave(self, group: str) -> None:
        self.joined.discard(group)
        self.cursors.pop(group, None)
        self.joined_at.pop(group, None)
        self.holding.pop(group, None)
        await self.socket.hub.leave(group, self.socket)

    async def leave_all(self) -> None:
        for group in list(self.joined):
            await self.leave(group)

    async def resume(self, cursors: dict[str, int]) -> None:
        """Catch up every group of ``cursors`` from the client's cursor (``resumed`` or
        ``resync`` each); a group the socket is not in gets an error."""
        unknown = [group for group in cursors if group not in self.joined]
        if unknown:
            await self.socket.error(f"Not subscribed: {', '.join(sorted(unknown))}")
        for group, after in cursors.items():
            if group in self.joined:
                await self.catch_up(group, after, announce=True, live=True)

    # --- Events from the hub ------------------------------------------------------------

    async def deliver(self, group: str, seq: int, message: Outgoing) -> None:
        held = self.holding.get(group)
        if held is not None:
            held.append((seq, message))
        else:
            await self._forward(group, seq, message)

    async def _release(self, group: str) -> None:
        for seq, message in self.holding.pop(group, ()):
            await self._forward(group, seq, message)

    async def _forward(self, group: str, seq: int, message: Outgoing) -> None:
        cursor = self.cursors.get(group)
        if cursor is None or seq <= cursor:
            return  # not joined yet, or already sent (by a replay, or before a hello)
        if seq > cursor + 1:
            self.holding[group] = [(seq, message)]
            self.socket.spawn(self.catch_up(group, cursor, announce=False, live=False))
            return
        self.cursors[group] = seq
        await self.socket.write(message, group, seq)

    # --- Catching up from the replay log -----------------------------------------------

    async def catch_up(self, group: str, after: int, *, announce: bool, live: bool) -> None:
        """Send the group's events after ``after`` in order from the replay log (then
        ``resumed``), or ``resync`` when the log no longer has them all or they would pass
        the socket's replay budget. Pages go out as fast as the client reads them.

        ``live``: the replay ends at the socket's live position (the group's position when it
        joined, or the last event forwarded since, which a resuming client set aside): every
        later event reaches the socket as it is published, held until the replay ends. Without
        it (a hole in what was forwarded) the replay ends where the log does."""
        lock = self.locks.setdefault(group, asyncio.Lock())
        async with lock:
            if group not in self.joined:
                return
            self.holding.setdefault(group, [])
            until = None
            joined_at = self.joined_at.get(group)
            if live and joined_at is not None:
                until = max(joined_at, self.cursors.get(group, joined_at))
                if after > until:
                    until = None  # a cursor ahead of the group: the log answers (resync)
            try:
                cursor = await self._replay(group, after, until)
                if cursor is None:
                    position = (await self.socket.hub.current([group]))[group]
                    self.cursors[group] = position
                    await self.socket.send_message(
                        {"type": "resync", "groups": [group], "cursors": {group: position}}
                    )
                    metrics.RESYNCS.inc()
                    await self.snapshot(group)
                else:
                    self.cursors[group] = cursor
                    if announce:
                        await self.socket.send_message(
                            {"type": "resumed", "groups": {group: cursor}}
                        )
            except Exception:
                logger.warning("Live layer unavailable while replaying %s", group, exc_info=True)
                await self.socket.unavailable()
                return
            if group in self.joined:
                await self._release(group)

    async def _replay(self, group: str, after: int, until: int | None) -> int | None:
        """Write the kept events after ``after`` (up to ``until`` at least, when it is known,
        else up to the log's end); the last seq written, or None (resync)."""
        socket = self.socket
        cursor = after
        while not socket.closing:
            if until is not None and cursor >= until:
                return cursor
            events = await socket.hub.replay(group, cursor, REPLAY_PAGE)
            if events is None:
                return None
            if not events:
                return cursor
            size = sum(len(message.text) for _, message in events)
            if size > self.replay_budget or not await self._user_replay_allows(size):
                return None
            self.replay_budget -= size
            metrics.REPLAYED.inc(len(events))
            for seq, message in events:
                await socket.write(message, group, seq)
            cursor = events[-1][0]
            if socket.queue is not None and not await socket.queue.drained(DRAIN_TIMEOUT):
                await socket.too_slow()
        return cursor

    async def _user_replay_allows(self, size: int) -> bool:
        """Charge ``size`` bytes of replay to the socket's user (every socket of theirs, in
        every process, shares REALTIME_RESUME_USER_MAX_BYTES per REALTIME_RESUME_USER_WINDOW);
        False once that is passed."""
        total = await self.socket.hub.source.charge(
            f"replay:{self.socket.user_id}", size, settings.REALTIME_RESUME_USER_WINDOW
        )
        return total <= settings.REALTIME_RESUME_USER_MAX_BYTES

    async def snapshot(self, group: str) -> None:
        """A sport group's boards and stats as of the socket's cursor (state-like groups
        start from it: no REST call needed for them)."""
        if not group.startswith("sport.") or group not in self.cursors:
            return
        seq = self.cursors[group]
        try:
            data = await self.socket.hub.snapshots.get(group.removeprefix("sport."), seq)
        except Exception:
            # The screens read the boards themselves when no snapshot comes.
            logger.warning("Could not compute the snapshot of %s", group, exc_info=True)
            return
        await self.socket.send_message(
            {"type": "snapshot", "group": group, "seq": seq, "data": data}
        )
        metrics.SNAPSHOTS.inc()
