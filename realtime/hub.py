"""The process-local fan-out: which of this event loop's sockets are in which group.

The backend's source hands the hub ONE message per group and event (one pub/sub message per
process with Redis); the hub gives that one encoded message (its text, and its websocket
frame built once) to each local member in turn. Nothing is encoded, copied or queued per
socket here: that is what keeps a 1,000-socket fan-out close to a bare websocket server's.

The last ``RECENT`` messages stay built, by group and seq: sockets resuming after a restart or a
drop (hundreds at once) replay mostly recent events, and those are served from here, in the
frames (deflated ones included) already built for the live fan-out, without a round trip to
Redis per page and socket: under a reconnect storm those round trips would exhaust the
process's Redis pool, close sockets as unavailable and bring them back into the same storm
(docs/decisions.md#replay-from-memory). Only a run of consecutive seqs is served from memory; the
rest comes from the backend's log, the source of truth, and so does the end of a replay that has
no live position to stop at (realtime/subscriptions.py, ``catch_up``). As in
the log, a board (or stats) with a newer one of its kind seen since goes out as `skipped`;
boards kept from before the process last left a group (it then missed what followed, newer
boards included) are never served from here.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol

from realtime import metrics
from realtime.backend_base import Backend, Source
from realtime.connection import Outgoing, skipped
from realtime.presence import Presence
from realtime.snapshot import Snapshots

logger = logging.getLogger(__name__)

# Messages kept built for replays: at most this many, of at most this many bytes of text (their
# frames about double it): a few MiB per process, whatever the events' sizes.
RECENT = 4096
RECENT_BYTES = 2 << 20


class Member(Protocol):
    async def deliver(self, group: str, seq: int, message: Outgoing) -> None: ...

    async def command(self, name: str, argument: str) -> None:
        """The hub's own closes: "close" (the live layer's data were lost) or "unavailable"
        (its Redis connection was). A user's sockets are closed by the control plane
        (realtime/control.py), not through the hub."""


class Hub:
    def __init__(self, backend: Backend) -> None:
        self.backend = backend
        self.members: dict[str, set[Member]] = {}
        self.epoch: str | None = None
        self._source: Source | None = None
        self.snapshots = Snapshots(self._position)
        self.presence = Presence(lambda: self.source)
        self.recent: OrderedDict[tuple[str, int], Outgoing] = OrderedDict()
        self.recent_bytes = 0
        # group -> state -> the newest seq of a state event (a board, stats) kept here
        self.newest_state: dict[str, dict[str, int]] = {}
        # group -> the first seq from which state events kept here may be served: the process
        # left the group before it, and may have missed newer boards
        self.trusted_from: dict[str, int] = {}
        # group -> the lock its replays from the log take (gone once nobody holds or awaits it)
        self._log_reads: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )

    @property
    def source(self) -> Source:
        if self._source is None:
            self._source = self.backend.new_source()
            self._source.start(self)
        return self._source

    async def join(self, group: str, member: Member) -> None:
        """Add a member; return once the group's events published from now on reach it."""
        self.members.setdefault(group, set()).add(member)
        try:
            await self.source.subscribe(group)
        except BaseException:
            await self.leave(group, member)
            raise

    async def leave(self, group: str, member: Member) -> None:
        members = self.members.get(group)
        if members is None or member not in members:
            return
        members.discard(member)
        if members:
            return
        del self.members[group]
        newest = self.newest_state.pop(group, None)
        if newest:
            self.trusted_from[group] = max(newest.values()) + 1
        if self._source is not None:
            try:
                await self._source.unsubscribe(group)
            except Exception:
                logger.warning("Could not unsubscribe from %s", group, exc_info=True)

    async def ping(self) -> None:
        """Return once the process's subscription answers (opened first when no socket has
        opened it yet): what readiness waits for (project/health.py)."""
        await self.source.ping()

    async def current(self, groups: Sequence[str]) -> dict[str, int]:
        epoch, positions = await self.source.current(groups)
        await self._check_epoch(epoch)
        return positions

    async def _position(self, group: str) -> int:
        return (await self.current([group]))[group]

    async def replay(self, group: str, after: int, limit: int) -> list[tuple[int, Outgoing]] | None:
        """Up to ``limit`` of the group's events after ``after``, as messages: those this
        process holds in a row from ``after + 1`` on, else the backend's log (None: it no
        longer has them).

        Reads of a group's log take turns, and each looks at what is kept again once it has
        its turn: after a restart (of this process, or of Redis) nothing is kept, and the
        sockets coming back resume at once from nearly the same cursors; the first read
        keeps what it brings, and the sockets waiting behind it are served from memory
        instead of each reading the same pages (hundreds of reads at once would empty the
        live layer's Redis pool and close those sockets as unavailable)."""
        events = self._kept(group, after, limit)
        if events:
            return events
        lock = self._log_reads.get(group)
        if lock is None:
            lock = self._log_reads[group] = asyncio.Lock()
        async with lock:
            events = self._kept(group, after, limit)
            if events:
                return events
            logged = await self.source.replay(group, after, limit)
            if logged is None:
                return None
            return [(seq, self.message(group, seq, text)) for seq, text in logged]

    def _kept(self, group: str, after: int, limit: int) -> list[tuple[int, Outgoing]]:
        """The group's events this process holds in a row after ``after`` (at most
        ``limit``; a board a newer one replaced as ``skipped``)."""
        events: list[tuple[int, Outgoing]] = []
        seq = after + 1
        newest = self.newest_state.get(group, {})
        while len(events) < limit and (message := self.recent.get((group, seq))) is not None:
            state = message.state
            if state is not None:
                if seq < self.trusted_from.get(group, 0):
                    break  # kept from before the process left the group: the log knows
                if newest.get(state, seq) > seq:
                    message = skipped(group, seq)
            events.append((seq, message))
            seq += 1
        return events

    def message(self, group: str, seq: int, text: str) -> Outgoing:
        """The group's event ``seq`` as one message for every socket: the one built already
        when it is recent, else a new one, kept."""
        key = (group, seq)
        message = self.recent.get(key)
        if message is not None and message.text != text:
            return Outgoing(text)  # the log's `skipped` for a board kept here whole
        if message is None:
            message = self.recent[key] = Outgoing(text)
            self.recent_bytes += len(text)
            if message.state is not None:
                newest = self.newest_state.setdefault(group, {})
                newest[message.state] = max(seq, newest.get(message.state, seq))
            while len(self.recent) > RECENT or self.recent_bytes > RECENT_BYTES:
                _, oldest = self.recent.popitem(last=False)
                self.recent_bytes -= len(oldest.text)
        return message

    def forget_recent(self) -> None:
        """Drop the kept messages (their seqs name other events in another epoch)."""
        self.recent.clear()
        self.recent_bytes = 0
        self.newest_state.clear()
        self.trusted_from.clear()

    async def receive(self, group: str, payload: str) -> None:
        """One message from the source: ``"<epoch> <seq> <envelope>"``."""
        members = self.members.get(group)
        if not members:
            return
        epoch, seq_text, text = payload.split(" ", 2)
        if not await self._check_epoch(epoch):
            return
        seq = int(seq_text)
        message = self.message(group, seq, text)
        metrics.EVENTS_DELIVERED.labels(metrics.event_type(text)).inc(len(members))
        for member in tuple(members):
            try:
                await member.deliver(group, seq, message)
            except Exception:
                logger.exception("Could not deliver to a socket of %s", group)

    async def _check_epoch(self, epoch: str | None) -> bool:
        if epoch is None or epoch == self.epoch:
            return True
        known, self.epoch = self.epoch, epoch
        self.forget_recent()
        if known is None:
            return True
        logger.warning("The live layer's data were lost (new epoch): closing every socket")
        await self._close_members("close", "live_layer_reset")
        return False

    async def lost(self, source: Source) -> None:
        """The source lost its server: events published meanwhile may not reach this hub,
        so every member is closed as "unavailable" (4503): clients come back with backoff
        and resume from the replay log, or get resync when it no longer covers them (a
        restarted Redis has a new epoch, announced in hello). The next join opens a new
        source. The epoch is forgotten too: the sockets joining next read their positions
        from whatever data Redis holds now."""
        if source is not self._source:
            return
        self._source = None
        self.epoch = None
        self.forget_recent()
        await self._close_members("unavailable", "live_layer_lost")
        await source.close()

    async def _close_members(self, command: str, reason: str) -> None:
        members = {member for group in self.members.values() for member in group}
        for member in members:
            await member.command(command, reason)

    async def close(self) -> None:
        """Stop listening (tests; a server's hub lives as long as its loop)."""
        source, self._source = self._source, None
        self.members.clear()
        self.presence.stop()
        if source is not None:
            await source.close()


# The hub of each event loop, for the process's backend.
_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()


def hub_of(backend: Backend) -> Hub:
    """The running event loop's hub for ``backend`` (a new one when the backend changed: a
    test's own settings)."""
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None or hub.backend is not backend:
        hub = _hubs[loop] = Hub(backend)
    return hub
