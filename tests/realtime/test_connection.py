"""Writing to daphne's connection: frames, and the backlog bound."""

from __future__ import annotations

import asyncio
import functools
import json
import zlib
from typing import Any

from realtime.connection import Backlog, Outgoing, SocketQueue, daphne_connection


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


def payload_of(frame: bytes) -> bytes:
    size, start = frame[1], 2
    if size == 126:
        size, start = int.from_bytes(frame[2:4], "big"), 4
    assert len(frame) == start + size
    return frame[start:]


def test_a_compressed_frame_is_rfc_7692_and_built_once_per_window() -> None:
    players = [{"id": i, "name": f"Player {i}", "club": "Fjord FC"} for i in range(10)]
    text = json.dumps({"type": "leaderboard.changed", "data": {"players": players}})
    message = Outgoing(text)
    for bits in (15, 10):
        frame = message.frame_for(bits)
        assert frame[0] == 0xC1  # FIN, RSV1 (compressed), text
        assert len(frame) * 3 < len(message.frame)
        inflated = zlib.decompressobj(-bits).decompress(payload_of(frame) + b"\x00\x00\xff\xff")
        assert inflated == text.encode()
        assert message.frame_for(bits) is frame  # once per event and window, not per socket
    # A receiver that keeps its context between messages (browsers do) inflates each too.
    inflater = zlib.decompressobj(-15)
    for other in (text, text.replace("Fjord", "Bergen"), text):
        tail = b"\x00\x00\xff\xff"
        assert inflater.decompress(payload_of(Outgoing(other).frame_for(15)) + tail) == (
            other.encode()
        )
    pong = Outgoing('{"type":"pong"}')
    assert pong.frame_for(15) is pong.frame  # too short to be worth it: plain
    assert message.frame_for(None) is message.frame  # the socket did not negotiate it


class FakeDirect:
    """A connection whose buffer the test fills and drains."""

    def __init__(self) -> None:
        self.backlog = Backlog()
        self.written: list[bytes] = []

    def frame(self, message: Outgoing) -> bytes:
        return message.frame

    @property
    def paused(self) -> bool:
        return self.backlog.paused

    def write(self, frame: bytes) -> None:
        self.written.append(frame)


def event(kind: str, seq: int, data: str = "{}") -> Outgoing:
    return Outgoing(f'{{"type":"{kind}","group":"sport.soccer","seq":{seq},"data":{data}}}')


def texts(frames: list[bytes]) -> list[str]:
    """The text messages in written bytes (short frames: 2-byte or 4-byte headers)."""
    data, out = b"".join(frames), []
    while data:
        size, start = data[1], 2
        if size == 126:
            size, start = int.from_bytes(data[2:4], "big"), 4
        out.append(data[start : start + size].decode())
        data = data[start + size :]
    return out


async def test_a_full_socket_keeps_only_the_newest_state_of_each_kind() -> None:
    direct = FakeDirect()
    queue = SocketQueue(direct, limit=100_000)  # type: ignore[arg-type]
    direct.backlog.pauseProducing()
    queue.put(event("leaderboard.changed", 1, '{"board":"all","v":1}'), "sport.soccer", 1)
    queue.put(event("leaderboard.changed", 2, '{"board":"weekly","v":1}'), "sport.soccer", 2)
    queue.put(event("vote.changed", 3), "sport.soccer", 3)
    queue.put(event("stats.changed", 4), "sport.soccer", 4)
    queue.put(event("leaderboard.changed", 5, '{"board":"all","v":2}'), "sport.soccer", 5)
    queue.put(event("stats.changed", 6), "sport.soccer", 6)
    await asyncio.sleep(0)
    assert direct.written == []  # the transport is full: nothing more is written
    direct.backlog.resumeProducing()
    await asyncio.sleep(0)
    assert [json.loads(text) for text in texts(direct.written)] == [
        {"type": "skipped", "group": "sport.soccer", "seq": 1},
        json.loads(event("leaderboard.changed", 2, '{"board":"weekly","v":1}').text),
        json.loads(event("vote.changed", 3).text),
        {"type": "skipped", "group": "sport.soccer", "seq": 4},
        json.loads(event("leaderboard.changed", 5, '{"board":"all","v":2}').text),
        json.loads(event("stats.changed", 6).text),
    ]
    assert await queue.drained(0.1)


async def test_ordinary_events_are_never_dropped_a_socket_past_the_bound_is_over() -> None:
    direct = FakeDirect()
    queue = SocketQueue(direct, limit=500)  # type: ignore[arg-type]
    queue.put(event("vote.changed", 1), "sport.soccer", 1)
    assert not queue.over  # the transport keeps up: nothing waits
    direct.backlog.pauseProducing()
    for seq in range(2, 12):
        queue.put(event("vote.changed", seq, '{"pad":"' + "x" * 40 + '"}'), "sport.soccer", seq)
    assert queue.over
    assert not await queue.drained(0.05)


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
