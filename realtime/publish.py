"""The one door from domain code to the live layer.

Services call :func:`publish` inside their transaction; the event leaves only after the
transaction commits, so nothing is pushed for a write that rolled back.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Event:
    type: str
    data: dict[str, Any]
    sport: str | None = None
    user_ids: tuple[int, ...] = field(default_factory=tuple)
    admins: bool = False

    def groups(self) -> list[str]:
        groups: list[str] = []
        if self.sport:
            groups.append(f"sport.{self.sport}")
        groups.extend(f"user.{user_id}" for user_id in self.user_ids)
        if self.admins:
            groups.append("admins")
        return groups


def publish(event: Event) -> None:
    transaction.on_commit(lambda: send_now(event))


def send_now(event: Event) -> None:
    from realtime.broadcast import broadcast

    try:
        broadcast(event)
    except Exception:
        # A live push must never fail the write that caused it: clients resync on reconnect.
        logger.exception("Could not publish %s", event.type)


def close_user_sockets(user_id: int, *, reason: str) -> None:
    """Close every socket of a user after commit (logout, password or role change...)."""

    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            async_to_sync(layer.group_send)(
                f"user.{user_id}", {"type": "session.close", "reason": reason}
            )
        except Exception:
            logger.exception("Could not close sockets of user %s", user_id)

    transaction.on_commit(send)
