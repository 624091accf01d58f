"""Websocket frames by hand, for the raw clients of the tests and the benchmarks (a client that
never reads, one throttled to 50 kbit/s, one that offers an extension): the standard library
only, so ``python bench/<name>.py`` imports it as devtools/launcher.py is."""

from __future__ import annotations

import base64
import os


def masked_frame(payload: str | bytes, opcode: int = 0x81) -> bytes:
    """One final client frame (masked, as RFC 6455 wants from clients) of a short payload."""
    data = payload.encode() if isinstance(payload, str) else payload
    assert len(data) < 126, "client messages here are short"
    mask = os.urandom(4)
    return (
        bytes([opcode, 0x80 | len(data)])
        + mask
        + bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    )


def upgrade_request(host: str, port: int, session_key: str, extensions: str = "") -> bytes:
    """A browser's websocket upgrade request for ``/ws/``, signed in by the session cookie
    (offering ``extensions``, if any)."""
    key = base64.b64encode(os.urandom(16)).decode()
    offer = f"Sec-WebSocket-Extensions: {extensions}\r\n" if extensions else ""
    return (
        f"GET /ws/ HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
        f"{offer}Origin: http://{host}:{port}\r\nCookie: sessionid={session_key}\r\n\r\n"
    ).encode()


def _frame_at(data: bytes | bytearray, at: int) -> tuple[int, int] | None:
    """Where the payload of the server frame (unmasked) starting at ``at`` lies, (start,
    end); None while it is unfinished."""
    end = len(data)
    if end - at < 2:
        return None
    size, start = data[at + 1] & 0x7F, at + 2
    if size == 126:
        if end - at < 4:
            return None
        size, start = int.from_bytes(data[at + 2 : at + 4], "big"), at + 4
    elif size == 127:
        if end - at < 10:
            return None
        size, start = int.from_bytes(data[at + 2 : at + 10], "big"), at + 10
    return None if end < start + size else (start, start + size)


def split_frame(data: bytes) -> tuple[int, bytes, bytes] | None:
    """The first server frame (unmasked) in ``data``: its first byte (FIN, RSV1, opcode), its
    payload and what follows; None while it is unfinished."""
    found = _frame_at(data, 0)
    if found is None:
        return None
    start, end = found
    return data[0], data[start:end], data[end:]


def server_frames(data: bytes | bytearray) -> tuple[list[tuple[int, bytes]], int]:
    """Every whole server frame (unmasked) at the start of ``data``: (first byte, payload)
    each, and how many bytes they took (what follows is an unfinished frame). Reads by
    offset, so a buffer of many small frames is not copied once per frame."""
    frames: list[tuple[int, bytes]] = []
    at = 0
    while (found := _frame_at(data, at)) is not None:
        start, end = found
        frames.append((data[at], bytes(data[start:end])))
        at = end
    return frames, at
