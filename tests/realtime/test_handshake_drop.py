"""A client that drops during the handshake, while the consumer still authenticates it.

Daphne then ignores the consumer's accept and Twisted has already closed the connection (and
deleted its socket): the consumer must stop quietly and leave nothing behind, not fail with
"'Server' object has no attribute 'socket'" on the lost connection."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import struct
import tempfile
import time

import pytest
from django.conf import settings
from websockets.asyncio.client import connect

from devtools.wsframes import upgrade_request
from tests.helpers import ApiClient, unless_available
from tests.realtime.live import session_of
from tests.realtime.servers import HOST, daphne

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    unless_available(
        not (os.environ.get("DATABASE_URL") and settings.REDIS_URL),
        reason="a daphne process on PostgreSQL and Redis",
    ),
]


def drop_during_handshake(port: int, session_key: str, delay: float) -> None:
    """Send the upgrade request, wait ``delay`` and reset the connection."""
    client = socket.socket()
    client.connect((HOST, port))
    client.sendall(upgrade_request(HOST, port, session_key))
    client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    time.sleep(delay)
    client.close()  # SO_LINGER 0: a reset, as a phone losing its network


async def test_a_client_dropping_during_the_handshake_is_let_go_quietly(
    scout_api: ApiClient,
) -> None:
    session_key = session_of(scout_api)
    with tempfile.TemporaryFile() as log:
        with daphne(log) as (port, _):
            # Drops spread over the first 30 ms: some before the consumer runs, some while
            # it authenticates (the case that failed), some after it accepted.
            for index in range(60):
                await asyncio.to_thread(drop_during_handshake, port, session_key, index % 15 / 500)
            await asyncio.sleep(1)  # the server process handles the resets: nothing to await
            origin = f"http://{HOST}:{port}"
            async with connect(
                f"ws://{HOST}:{port}/ws/",
                origin=origin,  # type: ignore[arg-type]
                additional_headers={"Cookie": f"sessionid={session_key}"},
            ) as ws:
                assert json.loads(await ws.recv())["type"] == "hello"
                await ws.send(json.dumps({"type": "subscribe", "sport": "soccer"}))
                while (message := json.loads(await ws.recv()))["type"] != "presence.changed":
                    pass
                # The server still serves, and counts only this socket on the sport.
                assert message["data"] == {"scope": "sport", "id": "soccer", "watching": 1}
        log.seek(0)
        output = log.read().decode(errors="replace")
    assert "Traceback" not in output, output[-3000:]
    assert "Exception inside application" not in output, output[-3000:]
