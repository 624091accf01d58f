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
