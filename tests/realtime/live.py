"""Sockets of the SPA's kind for the live-layer tests."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from channels.testing import WebsocketCommunicator

from realtime import broadcast
from realtime.events import Event
from realtime.routing import websocket_application
from tests.helpers import ApiClient

ORIGIN = "http://testserver"
PRESENCE_TYPES = ("presence.changed", "review.changed")


def session_of(api: ApiClient) -> str:
    return api.client.cookies["sessionid"].value


def send_now(event: Event) -> None:
    """Send an event at once, as the publisher thread does after a commit."""
    broadcast.send(event)


class Socket:
    """A websocket of the SPA's kind, with JSON helpers."""

    def __init__(self, communicator: WebsocketCommunicator) -> None:
        self.communicator = communicator
        self.snapshot: dict[str, Any] | None = None
        self.peeked: list[dict[str, Any]] = []

    async def send(self, message: Any) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        await self.communicator.send_to(text_data=text)

    async def receive(self, timeout: float = 2, *, presence: bool = False) -> dict[str, Any]:
        """The next message; presence messages (pushed on their own clock) are skipped
        unless asked for."""
        while True:
            output = await self._output(timeout)
            assert output["type"] == "websocket.send", output
            message: dict[str, Any] = json.loads(output["text"])
            if presence or message["type"] not in PRESENCE_TYPES:
                return message

    async def _output(self, timeout: float) -> dict[str, Any]:
        if self.peeked:
            return self.peeked.pop(0)
        output: dict[str, Any] = await self.communicator.receive_output(timeout)
        return output

    async def receive_type(self, kind: str, timeout: float = 2) -> dict[str, Any]:
        message = await self.receive(timeout)
        assert message["type"] == kind, message
        return message

    async def receive_presence(self, kind: str = "presence.changed", timeout: float = 3) -> Any:
        """The data of the next message of a presence type."""
        while True:
            message = await self.receive(timeout, presence=True)
            if message["type"] == kind:
                return message["data"]

    async def receive_close(self, timeout: float = 2) -> int:
        output = await self._output(timeout)
        while output["type"] == "websocket.send":
            output = await self._output(timeout)
        assert output["type"] == "websocket.close", output
        return int(output["code"])

    async def nothing(self, timeout: float = 0.3) -> bool:
        """Whether nothing but presence arrives within ``timeout``."""
        if self.peeked:
            return False
        deadline = asyncio.get_running_loop().time() + timeout
        while (left := deadline - asyncio.get_running_loop().time()) > 0:
            if await self.communicator.receive_nothing(left):
                return True
            output = await self.communicator.receive_output(left)
            if output["type"] != "websocket.send" or (
                json.loads(output["text"])["type"] not in PRESENCE_TYPES
            ):
                self.peeked.append(output)  # not consumed: receive() returns it next
                return False
        return True

    async def subscribe(self, sport: str) -> int:
        """Subscribe; past ``subscribed`` and the ``snapshot`` that follows it (kept)."""
        await self.send({"type": "subscribe", "sport": sport})
        subscribed = await self.receive_type("subscribed")
        position = int(subscribed["groups"][f"sport.{sport}"])
        self.snapshot = await self.receive_type("snapshot", timeout=5)
        assert (self.snapshot["group"], self.snapshot["seq"]) == (f"sport.{sport}", position)
        return position

    async def close(self) -> None:
        await self.communicator.disconnect()


async def open_socket(
    session_key: str | None = None, *, origin: str = ORIGIN
) -> tuple[Socket, bool]:
    headers = [(b"host", b"testserver"), (b"origin", origin.encode())]
    if session_key:
        headers.append((b"cookie", f"sessionid={session_key}".encode()))
    communicator = WebsocketCommunicator(websocket_application, "/ws/", headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    return Socket(communicator), connected


async def signed_in(api: ApiClient, sport: str | None = None) -> tuple[Socket, dict[str, int]]:
    """A socket of the user behind ``api``, past its hello (and subscribed to ``sport``)."""
    socket, connected = await open_socket(session_of(api))
    assert connected
    hello = await socket.receive_type("hello", timeout=5)
    positions = dict(hello["groups"])
    if sport:
        positions[f"sport.{sport}"] = await socket.subscribe(sport)
    return socket, positions
