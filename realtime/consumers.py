from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from project.common.choices import Sport

CLOSE_UNAUTHENTICATED = 4401


class LiveConsumer(AsyncWebsocketConsumer):
    """One socket per tab: a sport group, the user's private group and, for admins, admins."""

    groups_joined: set[str]

    async def connect(self) -> None:
        self.groups_joined = set()
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        await self.accept()
        await self._join(f"user.{user.pk}")
        if getattr(user, "role", None) == "admin":
            await self._join("admins")

    async def disconnect(self, code: int) -> None:
        for group in list(getattr(self, "groups_joined", ())):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def _join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.add(group)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message: Any = json.loads(text_data or "")
        except ValueError:
            await self._error("Malformed message: expected JSON")
            return
        if not isinstance(message, dict):
            await self._error("Malformed message: expected an object")
            return
        kind = message.get("type")
        if kind == "ping":
            await self.send(text_data='{"type":"pong"}')
        elif kind == "subscribe":
            sport = message.get("sport")
            if sport not in Sport.values:
                await self._error("Unknown sport")
                return
            for group in [g for g in self.groups_joined if g.startswith("sport.")]:
                await self.channel_layer.group_discard(group, self.channel_name)
                self.groups_joined.discard(group)
            await self._join(f"sport.{sport}")
        else:
            await self._error(f"Unknown message type: {kind}")

    async def _error(self, text: str) -> None:
        await self.send(text_data=json.dumps({"type": "error", "message": text}))

    async def event_message(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])

    async def session_close(self, event: dict[str, Any]) -> None:
        await self.close(code=4001)
