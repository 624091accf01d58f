"""The one websocket of a browser tab: its groups, its cursors, its protocol.

The protocol is documented in realtime/README.md. Per group, a socket sends events in
strictly rising ``seq`` without gaps from the position it announced (``hello``,
``subscribed``, ``resumed`` or ``resync``): events that arrive while a group is being joined
or replayed are held and released after, duplicates are dropped, and a hole (a message lost
on the way from Redis) is filled from the replay log.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from project.common.choices import Sport
from project.common.second_factor import acts_as_admin
from realtime import drain, metrics
from realtime.backend import get_backend
from realtime.connection import SCOPE_KEY, Outgoing, SocketQueue, open_socket
from realtime.control import get_layer, user_sockets_group
from realtime.events import ADMINS_GROUP, sport_group, user_group
from realtime.hub import Hub, hub_of
from realtime.presence import new_presence_id, sockets_set

logger = logging.getLogger(__name__)

# Close codes the SPA acts on (see README.md).
CLOSE_GOING_AWAY = 1001  # the process drains for a restart: reconnect soon and resume
CLOSE_RECONNECT = 4001  # session or rights changed, or events may be lost: reconnect, refetch
CLOSE_TOO_SLOW = 4008  # the socket fell too far behind: reconnect and resume
CLOSE_UNAUTHENTICATED = 4401  # not signed in: do not reconnect until signed in
CLOSE_TOO_MANY_MESSAGES = 4429  # the client sent messages faster than allowed: back off
# The live layer cannot serve now (Redis unreachable): reconnect with backoff and resume. A
# private code, as daphne (autobahn) refuses to send 1011 from an application.
CLOSE_UNAVAILABLE = 4503

REPLAY_PAGE = 200  # events read from the log per round trip while replaying
DRAIN_TIMEOUT = 10.0  # seconds a replaying socket may take to read a page before 4008

PONG = Outgoing('{"type":"pong"}')


def _is_seq(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _outgoing(message: dict[str, Any]) -> Outgoing:
    return Outgoing(json.dumps(message, separators=(",", ":")))


class LiveConsumer(AsyncWebsocketConsumer):
    # The hub delivers events straight to the socket. The channel layer carries only the
    # control plane (realtime/control.py), which a socket joins itself once it knows its
    # user: an alias with no configuration keeps Channels from giving every socket a channel
    # before that (an anonymous socket, closed at once, never costs a Redis round trip), and
    # a layer that cannot be reached closes the socket as unavailable (4503) instead of
    # failing the handshake.
    channel_layer_alias = "realtime-joins-the-control-plane-itself"

    hub: Hub

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.joined: set[str] = set()
        self.cursors: dict[str, int] = {}
        # group -> its position read once the socket had joined it: every later event of the
        # group reaches the socket as it is published (deliver), whatever it replays
        self.joined_at: dict[str, int] = {}
        self.holding: dict[str, list[tuple[int, Outgoing]]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.sport: str | None = None
        self.closing = False
        self.queue: SocketQueue | None = None
        self.replay_budget: int = settings.REALTIME_RESUME_MAX_BYTES
        self.tokens = float(settings.REALTIME_CLIENT_MESSAGE_BURST)
        self.tokens_at = time.monotonic()
        self.presence_id = new_presence_id()
        self.user_id = 0
        self.user_name = ""
        self.admin = False
        self.watching: str | None = None  # the nomination presence set this socket is in
        self.control_group: str | None = None  # its user's group on the channel layer
        self.counted = False  # in websocket_connections_open

    # --- Connection ---------------------------------------------------------------------

    async def connect(self) -> None:
        user = self.scope.get("user")
        await self.accept()
        self.counted = True
        metrics.CONNECTIONS_OPEN.inc()
        if drain.draining():  # accepted just before the process stopped listening
            await self.going_away()
            return
        drain.register(self)
        if user is None or not user.is_authenticated:
            await self._close(CLOSE_UNAUTHENTICATED)
            return
        self.hub = hub_of(get_backend())
        protocol = self.scope.get(SCOPE_KEY)
        if protocol is not None:
            direct = open_socket(protocol)
            if direct is None:  # the client dropped during the handshake; disconnect follows
                self.closing = True
                return
            self.queue = SocketQueue(direct, settings.REALTIME_SOCKET_MAX_PENDING)
        groups = [user_group(user.pk)]
        self.user_id, self.user_name = user.pk, user.name or user.username
        if not await self._within_socket_limit():
            return
        # Before hello: once the client has it, a logout or a password change closes it.
        if not await self._join_control_plane():
            return
        self.admin = acts_as_admin(user, self.scope.get("session"))
        if self.admin:
            groups.append(ADMINS_GROUP)

        def hello(positions: dict[str, int]) -> dict[str, Any]:
            # The epoch names the live layer's data: a client holding cursors of another
            # epoch (Redis lost its data meanwhile) drops them instead of resuming.
            return {"type": "hello", "epoch": self.hub.epoch, "groups": positions}

        await self._join(groups, hello)
        if self.admin and not self.closing:
            await self.hub.presence.add_admin(self)

    async def _within_socket_limit(self) -> bool:
        """Count the socket in its member's set; past REALTIME_SOCKETS_PER_MEMBER open
        sockets of the member (across their sign-ins and every live process) it is closed
        with 4429. Best effort: Redis away costs the limit, not the socket."""
        limit = settings.REALTIME_SOCKETS_PER_MEMBER
        if limit <= 0:
            return True
        try:
            count = await self.hub.presence.open_session(self, sockets_set(self.user_id))
        except Exception:
            logger.info("Presence unavailable: the member's sockets are not counted")
            return True
        if count <= limit:
            return True
        logger.info("Closing a socket past its member's %d", limit)
        await self.hub.presence.forget(self)  # counted no more, whenever its disconnect comes
        await self._close(CLOSE_TOO_MANY_MESSAGES)
        return False

    async def disconnect(self, code: int) -> None:
        self.closing = True
        drain.unregister(self)
        if self.counted:
            self.counted = False
            metrics.CONNECTIONS_OPEN.dec()
        for task in self.tasks:
            task.cancel()
        await self._leave_control_plane()
        for group in list(self.joined):
            await self._leave(group)
        if hasattr(self, "hub"):
            await self.hub.presence.forget(self)

    async def close(self, code: int | bool | None = None, reason: str | None = None) -> None:
        """Every close the server makes goes through here: counted by its code."""
        metrics.CLOSES.labels(str(code)).inc()
        await super().close(code, reason)

    async def going_away(self) -> None:
        """Close with 1001 (the process drains or hands its sockets over, realtime/drain.py):
        the client reconnects, through nginx, and resumes from its cursors. autobahn's
        ``sendClose`` takes only 1000 and 3000-4999 from an application, so the close frame
        goes straight onto daphne's connection, after what is queued for it."""
        if self.closing:
            return
        protocol = self.scope.get(SCOPE_KEY)
        if protocol is None or protocol.state != protocol.STATE_OPEN:
            await self._close(CLOSE_RECONNECT)
            return
        if self.queue is not None:
            self.queue.flush()
        self.closing = True
        await self._leave_socket_count()
        metrics.CLOSES.labels(str(CLOSE_GOING_AWAY)).inc()
        protocol.closeHandshakeTimeout = drain.CLOSE_HANDSHAKE_TIMEOUT
        protocol.sendCloseFrame(code=CLOSE_GOING_AWAY, reasonUtf8=b"restart", isReply=False)

    async def _close(self, code: int) -> None:
        if not self.closing:
            if self.queue is not None:
                self.queue.flush()  # what was written before the close goes before it
            self.closing = True
            if code != CLOSE_UNAVAILABLE:  # Redis is away: the entry expires
                await self._leave_socket_count()
            await self.close(code=code)

    async def _leave_socket_count(self) -> None:
        """The server closes the socket: it no longer counts against its member's limit,
        whose client may reconnect before the close completes."""
        if hasattr(self, "hub"):
            await self.hub.presence.leave_session(self)

    # --- Client messages ----------------------------------------------------------------

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not self._allowed():
            logger.info("Closing a socket that sent messages too fast")
            await self._close(CLOSE_TOO_MANY_MESSAGES)
            return
        try:
            message = json.loads(text_data) if text_data is not None else None
        except ValueError:
            message = None
        if not isinstance(message, dict):
            await self._error("Malformed message: expected a JSON object")
            return
        kind = message.get("type")
        if kind == "ping":
            await self._write(PONG)
        elif kind == "subscribe":
            await self._subscribe(message.get("sport"), message.get("cursor"))
        elif kind == "resume":
            await self._resume(message.get("cursors"))
        elif kind == "watch":
            await self._watch(message.get("nominationId"))
        else:
            await self._error(f"Unknown message type: {kind}")

    def _allowed(self) -> bool:
        """A token bucket: a burst of messages, then a steady rate (every kind counts)."""
        now = time.monotonic()
        burst = settings.REALTIME_CLIENT_MESSAGE_BURST
        refill = (now - self.tokens_at) * settings.REALTIME_CLIENT_MESSAGE_RATE
        self.tokens, self.tokens_at = min(burst, self.tokens + refill), now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def _subscribe(self, sport: Any, cursor: Any = None) -> None:
        """Join a sport's group (leaving the previous one). With ``cursor`` (the client's last
        seq of the group, from an earlier connection) the socket starts there: the events after
        it follow ``subscribed`` in order, then ``resumed`` (or ``resync`` and the snapshot
        when the log no longer has them); without it, from the group's position with the
        snapshot."""
        if not isinstance(sport, str) or sport not in Sport.values:
            await self._error(f"Unknown sport: {sport}")
            return
        if cursor is not None and not _is_seq(cursor):
            await self._error("Malformed subscribe: cursor must be a sequence number")
            return
        group = sport_group(sport)
        if self.sport is not None and self.sport != group:
            await self._leave(self.sport)
            await self.hub.presence.unwatch(self, f"sport:{self.sport.removeprefix('sport.')}")
        self.sport = group

        def subscribed(positions: dict[str, int]) -> dict[str, Any]:
            return {"type": "subscribed", "sport": sport, "groups": positions}

        if group in self.joined:
            await self._send_json(subscribed({group: self.cursors[group]}))
        else:
            await self._join([group], subscribed, after=cursor)
        if not self.closing:
            await self._presence(self.hub.presence.watch(self, f"sport:{sport}"))

    async def _watch(self, nomination_id: Any) -> None:
        """Watch a nomination (its detail page is open), or nothing (None)."""
        if nomination_id is not None and (
            not isinstance(nomination_id, int) or isinstance(nomination_id, bool)
        ):
            await self._error("Malformed watch: nominationId must be an integer or null")
            return
        name = None if nomination_id is None else f"nomination:{nomination_id}"
        if name == self.watching:
            return
        if self.watching is not None:
            await self._presence(self.hub.presence.unwatch(self, self.watching))
        self.watching = name
        if name is not None:
            await self._presence(self.hub.presence.watch(self, name))
        if self.admin:
            await self._presence(self.hub.presence.review(self, nomination_id, self.user_name))

    async def _presence(self, work: Awaitable[None]) -> None:
        """Presence is best effort: Redis away costs the counts, not the socket."""
        try:
            await work
        except Exception:
            logger.info("Presence unavailable", exc_info=True)

    async def tell(self, message: Outgoing) -> None:
        """A message for this socket alone (presence)."""
        await self._write(message)

    async def _resume(self, cursors: Any) -> None:
        if not isinstance(cursors, dict) or not all(_is_seq(seq) for seq in cursors.values()):
            await self._error("Malformed resume: cursors must map groups to sequence numbers")
            return
        unknown = [group for group in cursors if group not in self.joined]
        if unknown:
            await self._error(f"Not subscribed: {', '.join(sorted(unknown))}")
        for group, after in cursors.items():
            if group in self.joined:
                await self._catch_up(group, after, announce=True, live=True)

    async def _error(self, text: str) -> None:
        await self._send_json({"type": "error", "message": text})

    # --- Groups -------------------------------------------------------------------------

    async def _join(
        self,
        groups: list[str],
        announce: Callable[[dict[str, int]], dict[str, Any]],
        *,
        after: int | None = None,
    ) -> None:
        """Join groups and announce their positions; events that race the join are held,
        then released after the announcement. With ``after`` (one group: a subscribe that
        carries the client's cursor) the socket starts at the client's cursor instead and
        catches up from it, when the group has not started over below it."""
        for group in groups:
            self.holding[group] = []
            self.joined.add(group)
        try:
            for group in groups:
                await self.hub.join(group, self)
            positions = await self.hub.current(groups)
        except Exception:
            logger.warning("Live layer unavailable while joining %s", groups, exc_info=True)
            await self._close(CLOSE_UNAVAILABLE)
            return
        self.joined_at.update(positions)
        if after is not None and len(groups) == 1 and after <= positions[groups[0]]:
            group = groups[0]
            self.cursors[group] = after
            await self._send_json(announce({group: after}))
            await self._catch_up(group, after, announce=True, live=True)
            return
        self.cursors.update(positions)
        await self._send_json(announce(positions))
        for group in groups:
            await self._snapshot(group)
            await self._release(group)

    async def _leave(self, group: str) -> None:
        self.joined.discard(group)
        self.cursors.pop(group, None)
        self.joined_at.pop(group, None)
        self.holding.pop(group, None)
        await self.hub.leave(group, self)

    async def _release(self, group: str) -> None:
        for seq, message in self.holding.pop(group, ()):
            await self._forward(group, seq, message)

    # --- Events from the hub ------------------------------------------------------------

    async def deliver(self, group: str, seq: int, message: Outgoing) -> None:
        held = self.holding.get(group)
        if held is not None:
            held.append((seq, message))
        else:
            await self._forward(group, seq, message)

    async def command(self, name: str, argument: str) -> None:
        """The hub's own closes (realtime/hub.py)."""
        if name == "close":
            await self._close(CLOSE_RECONNECT)
        elif name == "unavailable":
            await self._close(CLOSE_UNAVAILABLE)

    # --- The control plane (realtime/control.py) ----------------------------------------

    async def _join_control_plane(self) -> bool:
        layer = get_layer()
        group = user_sockets_group(self.user_id)
        try:
            channel = await layer.new_channel()
            self.channel_layer, self.channel_name = layer, channel
            # Reading first and the group noted before joining it: whatever fails after this
            # point, disconnect undoes (cancelling the read unsubscribes the channel).
            self._spawn(self._read_control_plane(layer, channel))
            self.control_group = group
            await layer.group_add(group, channel)
        except Exception:
            logger.warning("Control plane unavailable while joining %s", group, exc_info=True)
            await self._close(CLOSE_UNAVAILABLE)
            return False
        return True

    async def _read_control_plane(self, layer: Any, channel: str) -> None:
        """What ``AsyncConsumer.__call__`` does for a consumer with a layer: each message to
        the socket's channel goes to the handler its type names (``sockets.close`` ->
        ``sockets_close``). Cancelled at disconnect (the pub/sub layer then unsubscribes)."""
        while True:
            message = await layer.receive(channel)
            try:
                await self.dispatch(message)
            except Exception:
                logger.exception("Could not handle a control message %r", message.get("type"))

    async def _leave_control_plane(self) -> None:
        if self.control_group is None or self.channel_layer is None:
            return
        group, self.control_group = self.control_group, None
        try:
            await self.channel_layer.group_discard(group, self.channel_name)
        except Exception as error:
            # One line: while Redis is down every socket leaving says so (hundreds of
            # tracebacks of the same refused connection in one outage).
            logger.warning("Could not leave %s: %r", group, error)

    async def sockets_close(self, message: dict[str, Any]) -> None:
        """Close this socket unless it was opened with the session to keep (the tab that
        changed the password)."""
        keep = message.get("keep")
        session = self.scope.get("session")
        if keep and keep == getattr(session, "session_key", None):
            return
        await self._close(CLOSE_RECONNECT)

    async def _forward(self, group: str, seq: int, message: Outgoing) -> None:
        cursor = self.cursors.get(group)
        if cursor is None or seq <= cursor:
            return  # not joined yet, or already sent (by a replay, or before a hello)
        if seq > cursor + 1:
            self.holding[group] = [(seq, message)]
            self._spawn(self._catch_up(group, cursor, announce=False, live=False))
            return
        self.cursors[group] = seq
        await self._write(message, group, seq)

    async def _catch_up(self, group: str, after: int, *, announce: bool, live: bool) -> None:
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
                    position = (await self.hub.current([group]))[group]
                    self.cursors[group] = position
                    await self._send_json(
                        {"type": "resync", "groups": [group], "cursors": {group: position}}
                    )
                    metrics.RESYNCS.inc()
                    await self._snapshot(group)
                else:
                    self.cursors[group] = cursor
                    if announce:
                        await self._send_json({"type": "resumed", "groups": {group: cursor}})
            except Exception:
                logger.warning("Live layer unavailable while replaying %s", group, exc_info=True)
                await self._close(CLOSE_UNAVAILABLE)
                return
            if group in self.joined:
                await self._release(group)

    async def _replay(self, group: str, after: int, until: int | None) -> int | None:
        """Write the kept events after ``after`` (up to ``until`` at least, when it is known,
        else up to the log's end); the last seq written, or None (resync)."""
        cursor = after
        while not self.closing:
            if until is not None and cursor >= until:
                return cursor
            events = await self.hub.replay(group, cursor, REPLAY_PAGE)
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
                await self._write(message, group, seq)
            cursor = events[-1][0]
            if self.queue is not None and not await self.queue.drained(DRAIN_TIMEOUT):
                await self._close(CLOSE_TOO_SLOW)
        return cursor

    async def _user_replay_allows(self, size: int) -> bool:
        """Charge ``size`` bytes of replay to the socket's user (every socket of theirs, in
        every process, shares REALTIME_RESUME_USER_MAX_BYTES per REALTIME_RESUME_USER_WINDOW);
        False once that is passed."""
        total = await self.hub.source.charge(
            f"replay:{self.user_id}", size, settings.REALTIME_RESUME_USER_WINDOW
        )
        return total <= settings.REALTIME_RESUME_USER_MAX_BYTES

    async def _snapshot(self, group: str) -> None:
        """A sport group's boards and stats as of the socket's cursor (state-like groups
        start from it: no REST call needed for them)."""
        if not group.startswith("sport.") or group not in self.cursors:
            return
        seq = self.cursors[group]
        try:
            data = await self.hub.snapshots.get(group.removeprefix("sport."), seq)
        except Exception:
            # The screens read the boards themselves when no snapshot comes.
            logger.warning("Could not compute the snapshot of %s", group, exc_info=True)
            return
        await self._send_json({"type": "snapshot", "group": group, "seq": seq, "data": data})
        metrics.SNAPSHOTS.inc()

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # --- Writing ---------------------------------------------------------------------

    async def _send_json(self, message: dict[str, Any]) -> None:
        await self._write(_outgoing(message))

    async def _write(
        self, message: Outgoing, group: str | None = None, seq: int | None = None
    ) -> None:
        if self.closing:
            return
        if self.queue is None:
            await self.base_send({"type": "websocket.send", "text": message.text})
            return
        self.queue.put(message, group, seq)
        if self.queue.over:
            logger.info("Closing a socket that fell more than %d bytes behind", self.queue.limit)
            self.closing = True  # nothing more is queued; the close goes after what was sent
            self._spawn(self.close(code=CLOSE_TOO_SLOW))
