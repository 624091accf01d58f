"""Websocket frames by hand, for the raw clients of the tests and the benchmarks (a client that
never reads, one throttled to 50 kbit/s, one that offers an extension): the standard library
only, so ``python bench/<name>.py`` imports it as tests/launcher.py is."""

from __future__ import annotations

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


def split_frame(data: bytes) -> tuple[int, bytes, bytes] | None:
    """The first server frame (unmasked) in ``data``: its first byte (FIN, RSV1, opcode), its
    payload and what follows; None while it is unfinished."""
    if len(data) < 2:
        return None
    size, start = data[1] & 0x7F, 2
    if size == 126:
        size, start = int.from_bytes(data[2:4], "big"), 4
    elif size == 127:
        size, start = int.from_bytes(data[2:10], "big"), 10
    if len(data) < start + size:
        return None
    return data[0], data[start : start + size], data[start + size :]


def server_frames(data: bytes | bytearray) -> tuple[list[tuple[int, bytes]], int]:
    """Every whole server frame (unmasked) at the start of ``data``: (first byte, payload)
    each, and how many bytes they took (what follows is an unfinished frame). Reads by
    offset, so a buffer of many small frames is not copied once per frame."""
    frames: list[tuple[int, bytes]] = []
    at, end = 0, len(data)
    while end - at >= 2:
        size, start = data[at + 1] & 0x7F, at + 2
        if size == 126:
            if end - at < 4:
                break
            size, start = int.from_bytes(data[at + 2 : at + 4], "big"), at + 4
        elif size == 127:
            if end - at < 10:
                break
            size, start = int.from_bytes(data[at + 2 : at + 10], "big"), at + 10
        if end < start + size:
            break
        frames.append((data[at], bytes(data[start : start + size])))
        at = start + size
    return frames, at
