"""Writing to daphne's connection: frames, and the backlog bound."""

from __future__ import annotations

import functools
from typing import Any

from realtime.connection import Backlog, Outgoing, daphne_connection


class FakeTransport:
    def __init__(self, producer: Any = None, streaming: bool = True) -> None:
        self.producer = producer
        self.streamingProducer = streaming

    def registerProducer(self, producer: Any, streaming: bool) -> None:
        assert self.producer is None, "Twisted refuses a second producer"
        self.producer, self.streamingProducer = producer, streaming

    def unregisterProducer(self) -> None:
        self.producer = None


class Recorder:
    def __init__(self) -> None:
        self.calls: list[str] = []

    def pauseProducing(self) -> None:
        self.calls.append("pause")

    def resumeProducing(self) -> None:
        self.calls.append("resume")

    def stopProducing(self) -> None:
        self.calls.append("stop")


def test_the_frame_is_a_server_text_frame_built_once() -> None:
    short, long = Outgoing('{"type":"pong"}'), Outgoing("é" * 200)
    assert short.frame == b"\x81\x0f" + b'{"type":"pong"}'
    assert long.frame[:4] == b"\x81\x7e\x01\x90" and long.frame[4:] == ("é" * 200).encode()
    assert long.frame is long.frame


def test_the_backlog_counts_bytes_written_while_the_transport_is_full() -> None:
    backlog = Backlog()
    assert not backlog.add(10_000, limit=100)  # not paused: Twisted is keeping up
    backlog.pauseProducing()
    assert not backlog.add(60, limit=100)
    backlog.pauseProducing()  # Twisted repeats this on every write while full
    assert backlog.add(60, limit=100)
    backlog.resumeProducing()
    assert not backlog.add(60, limit=100)


def test_the_backlog_keeps_the_producer_it_replaces() -> None:
    http_channel = Recorder()
    transport = FakeTransport(http_channel)
    backlog = Backlog.attach(transport)
    assert transport.producer is backlog
    backlog.pauseProducing()
    backlog.resumeProducing()
    backlog.stopProducing()
    assert http_channel.calls == ["pause", "resume", "stop"]
    assert Backlog.attach(FakeTransport(Recorder(), streaming=False)) is None


def test_daphnes_connection_is_found_behind_its_send() -> None:
    class Protocol:
        STATE_OPEN = 3
        state = 3
        transport = FakeTransport()

    async def handle_reply(protocol: Any, message: dict[str, Any]) -> None: ...

    protocol = Protocol()
    assert daphne_connection(functools.partial(handle_reply, protocol)) is protocol
    assert daphne_connection(handle_reply) is None


def test_twisted_still_has_what_the_immediate_write_reads() -> None:
    """DirectSocket reads Twisted's write buffer to send at once when it is empty."""
    from twisted.internet import abstract, tcp

    assert issubclass(tcp.Server, tcp.Connection)
    descriptor = abstract.FileDescriptor(reactor=object())  # type: ignore[arg-type]
    assert (descriptor._tempDataLen, descriptor.offset, descriptor.dataBuffer) == (0, 0, b"")
    assert descriptor.connected == 0
    assert callable(tcp.Connection.writeSomeData)
