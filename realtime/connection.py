"""Writing to a socket held by daphne: pre-framed, straight onto the connection, bounded.

Fan-out cost is per socket, so the per-socket path is kept to one ``send`` of the frame
bytes the hub built once per event (autobahn's ``PreparedMessage``: a server frame is the
same bytes for every client). Going through ASGI instead costs, per socket and message,
Channels' session wrapper, daphne's reply routing and autobahn's framing and debug-log
formatting (see bench/RESULTS.md).

Daphne gives no backpressure (ASGI ``send`` returns at once; Twisted buffers whatever the
peer does not read, without limit). Twisted's flow control is a streaming producer
registered on the transport: paused once the write buffer passes 64 KiB, resumed when it
has drained. :class:`Backlog` is such a producer; a socket that gets ``limit`` more bytes
while paused is too far behind and is closed, so one socket holds at most about 64 KiB +
``REALTIME_SOCKET_MAX_PENDING`` of server memory.

Under another ASGI server, or the test communicator, :func:`daphne_connection` finds
nothing and the consumer writes through ASGI ``send``.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from autobahn.websocket.protocol import PreparedMessage
from twisted.internet import tcp

SCOPE_KEY = "realtime.connection"


class Outgoing:
    """One message for many sockets: its text, and its frame built on first use."""

    def __init__(self, text: str) -> None:
        self.text = text

    @cached_property
    def frame(self) -> bytes:
        prepared = PreparedMessage(
            self.text.encode(), isBinary=False, applyMask=False, doNotCompress=True
        )
        return bytes(prepared.payloadHybi)


class Backlog:
    """A Twisted streaming producer (``IPushProducer``) that counts what is written while
    the transport says its buffer is full.

    A transport has one producer: the one already there (daphne upgrades the connection
    from twisted.web's ``HTTPChannel``, which stays registered) is chained, so it is still
    paused and resumed as before.
    """

    def __init__(self, chained: Any = None) -> None:
        self.chained = chained
        self.paused = False
        self.queued = 0

    def pauseProducing(self) -> None:
        # Twisted calls this on every write while the buffer stays full: count from the first.
        if not self.paused:
            self.paused = True
            self.queued = 0
        if self.chained is not None:
            self.chained.pauseProducing()

    def resumeProducing(self) -> None:
        self.paused = False
        self.queued = 0
        if self.chained is not None:
            self.chained.resumeProducing()

    def stopProducing(self) -> None:
        self.paused = True
        if self.chained is not None:
            self.chained.stopProducing()

    def add(self, size: int, limit: int) -> bool:
        """Count ``size`` more bytes for the peer; True when it is more than ``limit`` behind."""
        if not self.paused:
            return False
        self.queued += size
        return self.queued > limit

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
    turn: two ``epoll_ctl`` and a deferred call per socket and message, a third of the
    fan-out's CPU (bench/RESULTS.md). TLS transports (not ``tcp.Connection``) always buffer.
    """

    def __init__(self, protocol: Any) -> None:
        self.protocol = protocol
        self.transport = protocol.transport
        self.immediate = isinstance(self.transport, tcp.Connection)
        self.backlog = Backlog.attach(self.transport)

    def behind(self, size: int, limit: int) -> bool:
        return self.backlog is not None and self.backlog.add(size, limit)

    def write(self, frame: bytes) -> None:
        protocol, transport = self.protocol, self.transport
        # Frames only while open: once a close has started no data frame may follow it.
        if protocol.state != protocol.STATE_OPEN:
            return
        if self.immediate and transport.connected and not _buffered(transport):
            sent = transport.writeSomeData(frame)
            if sent == len(frame):
                return
            if isinstance(sent, int):
                frame = frame[sent:]
        transport.write(frame)


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
        return await self.inner(scope, receive, send)
