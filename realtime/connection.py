"""Writing to a socket held by daphne: pre-framed, straight onto the connection, bounded.

Fan-out cost is per socket, so the per-socket path is kept to one ``send`` of the frame
bytes the hub built once per event (autobahn's ``PreparedMessage``: a server frame is the
same bytes for every client). Going through ASGI instead costs, per socket and message,
Channels' session wrapper, daphne's reply routing and autobahn's framing and debug-log
formatting (docs/decisions.md#direct-socket-writes).

Daphne gives no backpressure (ASGI ``send`` returns at once; Twisted buffers whatever the
peer does not read, without limit). Twisted's flow control is a streaming producer
registered on the transport: paused once the write buffer passes ``TWISTED_BUFFER``, resumed
when it has drained. :class:`Backlog` is such a producer; a socket that gets ``limit`` more
bytes while paused is too far behind and is closed, so one socket holds at most about its
kernel buffer + ``REALTIME_SOCKET_MAX_PENDING`` of server memory. What the kernel and Twisted
hold is out of reach of conflation, so both are kept small (``TCP_NOTSENT_LOWAT``: 4 KiB not
yet sent; Twisted 4 KiB): at 50 kbit/s a 64 KiB send buffer alone is 10 s of stale boards
(bench/ws_slow.py).

Compression (``REALTIME_COMPRESSION``): a client that offers ``permessage-deflate`` (every
browser does) is answered with it, without context takeover in the server's direction, so a
message compressed once is the same frame for every such socket: :class:`Outgoing` deflates
each event once per window size, however many sockets it goes to. A board (~4 KB of JSON)
goes out in ~0.5 KB, which is what lets a 50 kbit/s link keep up with four boards a second
(bench/ws_slow.py). Clients that do not offer it get the plain frames.

Under another ASGI server, or the test communicator, :func:`daphne_connection` finds
nothing and the consumer writes through ASGI ``send``.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import socket
import struct
import zlib
from collections.abc import Callable
from functools import cached_property
from typing import Any

from autobahn.websocket.compress_deflate import (
    PerMessageDeflate,
    PerMessageDeflateOffer,
    PerMessageDeflateOfferAccept,
)
from autobahn.websocket.protocol import PreparedMessage
from django.conf import settings
from twisted.internet import tcp

from realtime.metrics import SENT

SCOPE_KEY = "realtime.connection"


STATE_TYPES = ("leaderboard.changed", "stats.changed")
SEND_BUFFER = 32768  # the kernel's send buffer per socket (Linux doubles it: 64 KiB)
TWISTED_BUFFER = 4096  # Twisted's write buffer before it pauses the producer
# Bytes the kernel may hold not yet sent (beyond what is in flight): a slow peer's backlog
# then waits in the socket's queue, within reach of conflation (Linux; elsewhere a no-op).
UNSENT_LOW_WATER = 4096
TCP_NOTSENT_LOWAT = getattr(socket, "TCP_NOTSENT_LOWAT", 25)
BOARD_MARK = '"data":{"board":"'
# Messages shorter than this go out plain even to a compressing socket: deflate's few bytes
# of framing would eat what it saves.
DEFLATE_MIN = 128
DEFLATE_TAIL = b"\x00\x00\xff\xff"  # what a sync flush ends with, left out (RFC 7692 7.2.1)


class Outgoing:
    """One message for many sockets: its text, and its frames built on first use (plain,
    and deflated once per window size the sockets negotiated)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._deflated: dict[int, bytes] = {}

    @cached_property
    def frame(self) -> bytes:
        prepared = PreparedMessage(
            self.text.encode(), isBinary=False, applyMask=False, doNotCompress=True
        )
        return bytes(prepared.payloadHybi)

    def frame_for(self, window_bits: int | None) -> bytes:
        """The frame for a socket that negotiated permessage-deflate with this window size
        (None: it did not): compressed on its own (no context takeover), or plain when that
        is not smaller."""
        if window_bits is None or len(self.text) < DEFLATE_MIN:
            return self.frame
        frame = self._deflated.get(window_bits)
        if frame is None:
            frame = deflated_frame(self.text.encode(), window_bits)
            if len(frame) >= len(self.frame):
                frame = self.frame
            self._deflated[window_bits] = frame
        return frame

    @cached_property
    def state(self) -> str | None:
        """What a state event describes (a newer one replaces an older one not yet sent),
        else None."""
        for kind in STATE_TYPES:
            if self.text.startswith(f'{{"type":"{kind}"'):
                return state_name(kind, self.text)
        return None


def deflated_frame(payload: bytes, window_bits: int) -> bytes:
    """One unmasked, final text frame of ``payload`` compressed per RFC 7692 (RSV1 set): a raw
    deflate stream of its own, ended by a sync flush whose empty block's tail is left out. A
    receiver that keeps its context between messages inflates it as well as one that does
    not."""
    compressor = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -window_bits)
    data = compressor.compress(payload) + compressor.flush(zlib.Z_SYNC_FLUSH)
    if data.endswith(DEFLATE_TAIL):
        data = data[: -len(DEFLATE_TAIL)]
    size = len(data)
    if size < 126:
        header = struct.pack("!BB", 0xC1, size)
    elif size < 1 << 16:
        header = struct.pack("!BBH", 0xC1, 126, size)
    else:
        header = struct.pack("!BBQ", 0xC1, 127, size)
    return header + data


def accept_deflate(offers: list[Any]) -> PerMessageDeflateOfferAccept | None:
    """autobahn's ``perMessageCompressionAccept`` for daphne's connections: the first
    permessage-deflate offer, with no context takeover in the server's direction (one
    compressed frame serves every socket) and the window the client asked for, if any."""
    for offer in offers:
        if isinstance(offer, PerMessageDeflateOffer):
            return PerMessageDeflateOfferAccept(offer, no_context_takeover=True)
    return None


def deflate_window(protocol: Any) -> int | None:
    """The window size (bits) of the permessage-deflate a connection negotiated, when it
    compresses server frames without context takeover (``accept_deflate``); else None."""
    negotiated = getattr(protocol, "_perMessageCompress", None)
    if isinstance(negotiated, PerMessageDeflate) and negotiated.server_no_context_takeover:
        return int(negotiated.server_max_window_bits)
    return None


def state_name(kind: str, text: str) -> str | None:
    """The state an event of type ``kind`` describes: its type, and for a board its kind
    (``leaderboard.changed`` of each board replaces only its own board)."""
    if kind not in STATE_TYPES:
        return None
    start = text.find(BOARD_MARK)
    if start < 0:
        return kind
    start += len(BOARD_MARK)
    board = text[start : text.find('"', start)]
    return f"{kind}:{board}"


def skipped(group: str, seq: int) -> Outgoing:
    """What stands in for a state event superseded before it was sent: the client only
    advances its cursor (the newer state follows)."""
    return Outgoing(f'{{"type":"skipped","group":"{group}","seq":{seq}}}')


class Backlog:
    """A Twisted streaming producer (``IPushProducer``) that tells the socket when the
    transport's buffer is full (``paused``) and when it has drained (``on_resume``).

    A transport has one producer: the one already there (daphne upgrades the connection
    from twisted.web's ``HTTPChannel``, which stays registered) is chained, so it is still
    paused and resumed as before.
    """

    def __init__(self, chained: Any = None) -> None:
        self.chained = chained
        self.paused = False
        self.on_resume: Callable[[], None] | None = None

    def pauseProducing(self) -> None:
        self.paused = True
        if self.chained is not None:
            self.chained.pauseProducing()

    def resumeProducing(self) -> None:
        self.paused = False
        if self.chained is not None:
            self.chained.resumeProducing()
        if self.on_resume is not None:
            self.on_resume()

    def stopProducing(self) -> None:
        self.paused = True
        if self.chained is not None:
            self.chained.stopProducing()

    @classmethod
    def attach(cls, transport: Any) -> Backlog | None:
        previous = transport.producer
        if previous is not None and not transport.streamingProducer:
            return None  # a pull producer would stall without its own registration
        if previous is not None:
            transport.unregisterProducer()
        backlog = cls(previous)
        transport.registerProducer(backlog, True)
        return backlog


class DirectSocket:
    """A daphne websocket connection (autobahn's Twisted protocol) written to directly.

    A frame goes out with one ``send`` while Twisted holds nothing for the peer (as asyncio's
    transports do); otherwise it joins Twisted's buffer behind what is there. Twisted's
    ``write`` alone would register the socket for writability and send on the next loop
    turn: two ``epoll_ctl`` and a deferred call per socket and message, a large share of the
    fan-out's CPU (docs/decisions.md#direct-socket-writes). TLS transports (not
    ``tcp.Connection``) always buffer.
    """

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol
        self.transport = protocol.transport
        self.immediate = isinstance(self.transport, tcp.Connection)
        if self.immediate:
            # What the kernel and Twisted hold for a slow peer is out of reach of conflation
            # (and grows to megabytes on its own): keep it small, so a slow socket's backlog
            # waits in the consumer's queue, where a newer board replaces an older one. (A
            # connection already lost has no socket left: Twisted deletes it.)
            with contextlib.suppress(OSError, AttributeError):
                self.transport.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
                self.transport.socket.setsockopt(
                    socket.IPPROTO_TCP, TCP_NOTSENT_LOWAT, UNSENT_LOW_WATER
                )
            self.transport.bufferSize = TWISTED_BUFFER
        self.backlog = Backlog.attach(self.transport)
        self.window_bits = deflate_window(protocol)

    def frame(self, message: Outgoing) -> bytes:
        """The message's frame as this socket takes it (deflated, if it negotiated that)."""
        return message.frame_for(self.window_bits)

    @property
    def paused(self) -> bool:
        """Whether Twisted holds a full buffer for the peer: write nothing more now."""
        return self.backlog is not None and self.backlog.paused

    def write(self, frame: bytes) -> None:
        protocol, transport = self.protocol, self.transport
        # Frames only while open: once a close has started no data frame may follow it.
        if protocol.state != protocol.STATE_OPEN:
            return
        SENT.total += len(frame)
        if self.immediate and transport.connected and not _buffered(transport):
            sent = transport.writeSomeData(frame)
            if sent == len(frame):
                return
            if isinstance(sent, int):
                frame = frame[sent:]
        transport.write(frame)


def open_socket(protocol: Any) -> DirectSocket | None:
    """Daphne's connection to write to, or None when the peer is already gone.

    A client may drop during the handshake, while the consumer still authenticates: daphne
    then ignores the accept, and Twisted has closed the connection and deleted its socket. The
    consumer's disconnect follows; until then there is nothing to set up or write to.
    """
    transport = getattr(protocol, "transport", None)
    if transport is None or getattr(transport, "disconnected", False):
        return None
    if isinstance(transport, tcp.Connection) and not hasattr(transport, "socket"):
        return None
    return DirectSocket(protocol)


class Queued:
    """A message waiting for the transport; a state event keeps its group and seq so a newer
    one can replace it."""

    __slots__ = ("group", "message", "seq")

    def __init__(self, message: Outgoing, group: str | None, seq: int | None) -> None:
        self.message = message
        self.group = group
        self.seq = seq


class SocketQueue:
    """What one socket has yet to hand to the transport.

    Messages of one turn of the event loop leave together (one ``send``). While Twisted's
    buffer is full they wait here, where a state event (a whole board or stats) replaces the
    older one of its group not yet sent (that one becomes ``skipped``: the client's sequence
    stays whole). Ordinary events are never dropped: past ``limit`` bytes the socket is
    ``over`` and the consumer closes it (4008), and the client resumes.
    """

    CHUNK = 4096  # bytes per write while draining: the rest stays here, conflatable

    def __init__(self, direct: DirectSocket, limit: int) -> None:
        self.direct = direct
        self.limit = limit
        self.items: collections.deque[Queued] = collections.deque()
        self.bytes = 0
        self.states: dict[tuple[str, str], Queued] = {}
        self.scheduled = False
        self.waiters: list[asyncio.Future[None]] = []
        # Made on the socket's event loop, and used only there. Held rather than asked for
        # once per socket per event: CPython 3.11's asyncio.get_running_loop() makes a
        # getpid() system call each time, a point where the kernel switches a busy process
        # out.
        self.loop = asyncio.get_running_loop()
        if direct.backlog is not None:
            direct.backlog.on_resume = self._schedule

    @property
    def over(self) -> bool:
        return self.direct.paused and self.bytes > self.limit

    def put(self, message: Outgoing, group: str | None = None, seq: int | None = None) -> None:
        item = Queued(message, group, seq)
        if message.state is not None and group is not None and seq is not None:
            key = (group, message.state)
            older = self.states.get(key)
            if older is not None and older.group is not None and older.seq is not None:
                self.bytes -= len(self.direct.frame(older.message))
                older.message = skipped(older.group, older.seq)
                self.bytes += len(self.direct.frame(older.message))
            self.states[key] = item
        self.items.append(item)
        self.bytes += len(self.direct.frame(message))
        self._schedule()

    def _schedule(self) -> None:
        if not self.scheduled and self.items and not self.direct.paused:
            self.scheduled = True
            self.loop.call_soon(self.flush)

    def flush(self) -> None:
        """Hand queued frames to the transport until it is full or nothing is left."""
        self.scheduled = False
        while self.items and not self.direct.paused:
            frames, size = [], 0
            while self.items and size < self.CHUNK:
                item = self.items.popleft()
                if item.message.state is not None and item.group is not None:
                    key = (item.group, item.message.state)
                    if self.states.get(key) is item:
                        del self.states[key]
                frame = self.direct.frame(item.message)
                frames.append(frame)
                size += len(frame)
            self.bytes -= size
            self.direct.write(frames[0] if len(frames) == 1 else b"".join(frames))
        if not self.items:
            waiters, self.waiters = self.waiters, []
            for waiter in waiters:
                if not waiter.done():
                    waiter.set_result(None)

    async def drained(self, timeout: float) -> bool:
        """Wait until everything queued has gone to the transport; False after ``timeout``."""
        if not self.items:
            return True
        waiter = self.loop.create_future()
        self.waiters.append(waiter)
        try:
            await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            return False
        return True


def _buffered(transport: Any) -> bool:
    """Whether Twisted still holds bytes for this peer (``abstract.FileDescriptor``)."""
    return bool(transport._tempDataLen or transport.offset < len(transport.dataBuffer))


def daphne_connection(send: Any) -> Any | None:
    """The autobahn protocol behind daphne's ASGI ``send``, if that is what ``send`` is.

    Daphne hands each application instance ``functools.partial(server.handle_reply,
    protocol)``; the protocol is autobahn's ``WebSocketServerProtocol`` (tests assert that
    this still holds for the installed daphne).
    """
    args = getattr(send, "args", ())
    protocol = args[0] if args else None
    needed = ("transport", "state", "STATE_OPEN")
    return protocol if all(hasattr(protocol, name) for name in needed) else None


class DaphneConnectionMiddleware:
    """Outermost websocket middleware: note daphne's connection in the scope, before any
    other middleware wraps ``send``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        protocol = daphne_connection(send)
        if protocol is not None:
            scope = {**scope, SCOPE_KEY: protocol}
            if settings.REALTIME_COMPRESSION:
                # Read when the consumer accepts (autobahn's succeedHandshake), after this.
                protocol.perMessageCompressionAccept = accept_deflate
        return await self.inner(scope, receive, send)
