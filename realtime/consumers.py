"""The one websocket of a browser tab: its connection's life (accept, limits, the control
plane, closes), the client's messages and writing to the client.

The protocol is documented in realtime/README.md. The socket's groups, its cursors in them,
subscribing, resuming and catching up from the replay log are realtime/subscriptions.py's.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable
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
from realtime.subscriptions import Subscriptions

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
        self.subscriptions = Subscriptions(self)
        self.tasks: set[asyncio.Task[None]] = set()
        self.sport: str | None = None
        self.closing = False
        self.queue: SocketQueue | None = None
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

        await self.subscriptions.join(groups, hello)
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
        await self.subscriptions.leave_all()
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
            await self.error("Malformed message: expected a JSON object")
            return
        kind = message.get("type")
        if kind == "ping":
            await self.write(PONG)
        elif kind == "subscribe":
            await self._subscribe(message.get("sport"), message.get("cursor"))
        elif kind == "resume":
            await self._resume(message.get("cursors"))
        elif kind == "watch":
            await self._watch(message.get("nominationId"))
        else:
            await self.error(f"Unknown message type: {kind}")

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
            await self.error(f"Unknown sport: {sport}")
            return
        if cursor is not None and not _is_seq(cursor):
            await self.error("Malformed subscribe: cursor must be a sequence number")
            return
        group = sport_group(sport)
        if self.sport is not None and self.sport != group:
            await self.subscriptions.leave(self.sport)
            await self.hub.presence.unwatch(self, f"sport:{self.sport.removeprefix('sport.')}")
        self.sport = group

        def subscribed(positions: dict[str, int]) -> dict[str, Any]:
            return {"type": "subscribed", "sport": sport, "groups": positions}

        await self.subscriptions.subscribe(group, subscribed, cursor)
        if not self.closing:
            await self._presence(self.hub.presence.watch(self, f"sport:{sport}"))

    async def _watch(self, nomination_id: Any) -> None:
        """Watch a nomination (its detail page is open), or nothing (None)."""
        if nomination_id is not None and (
            not isinstance(nomination_id, int) or isinstance(nomination_id, bool)
        ):
            await self.error("Malformed watch: nominationId must be an integer or null")
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
        await self.write(message)

    async def _resume(self, cursors: Any) -> None:
        if not isinstance(cursors, dict) or not all(_is_seq(seq) for seq in cursors.values()):
            await self.error("Malformed resume: cursors must map groups to sequence numbers")
            return
        await self.subscriptions.resume(cursors)

    async def error(self, text: str) -> None:
        await self.send_message({"type": "error", "message": text})

    # --- Events from the hub ------------------------------------------------------------

    async def deliver(self, group: str, seq: int, message: Outgoing) -> None:
        await self.subscriptions.deliver(group, seq, message)

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
            self.spawn(self._read_control_plane(layer, channel))
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

    # --- Writing and closing ---------------------------------------------------------

    async def unavailable(self) -> None:
        await self._close(CLOSE_UNAVAILABLE)

    async def too_slow(self) -> None:
        await self._close(CLOSE_TOO_SLOW)

    def spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def send_message(self, message: dict[str, Any]) -> None:
        await self.write(_outgoing(message))

    async def write(
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
            self.spawn(self.close(code=CLOSE_TOO_SLOW))
