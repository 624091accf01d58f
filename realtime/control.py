"""The live layer's control plane: commands for every socket of one user, in every process.

A socket of a signed-in user joins its user's group on Channels' channel layer when it
connects (channels-redis' pub/sub layer with ``REDIS_URL``, Channels' in-memory layer
without). Logout, a password change, an account deletion and a role change ``group_send``
one message to that group after commit; each process's layer hands it to the consumers in
the group, whose handler (``LiveConsumer.sockets_close``) closes them with 4001. The textbook
Channels pattern, for the rare per-user command; the events themselves, thousands a second to
every socket of a sport, go through the hub (realtime/hub.py), built for that job.

The group's name carries ``REALTIME_PREFIX``, and the layer's prefix the Redis database
(settings), like the hub's channels: pub/sub channels are shared by every database of a
Redis server, and two deployments (or two test runs) on one server must not close each
other's sockets.
"""

from __future__ import annotations

import asyncio
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

# A command that cannot reach Redis in this time is given up (and logged by the caller): a
# logout must not hang on an unreachable live layer. The sockets then close anyway, as
# "unavailable", when their process loses Redis.
SEND_TIMEOUT = 5.0

# Channels hands a message of this type to the consumer's ``sockets_close``.
CLOSE = "sockets.close"


def user_sockets_group(user_id: int) -> str:
    return f"{settings.REALTIME_PREFIX}.user.{user_id}"


def get_layer() -> Any:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("CHANNEL_LAYERS has no default layer: the live layer needs one")
    return layer


def close_user_sockets_now(user_id: int, *, reason: str, keep_session: str | None) -> None:
    """Send the close to every process (from a request thread, after commit). Raises when
    the layer cannot take it; ``realtime.publish.close_user_sockets`` logs that."""
    # keep: the session whose sockets stay open (the tab that changed the password).
    command = {"type": CLOSE, "reason": reason, "keep": keep_session}
    async_to_sync(_send)(user_sockets_group(user_id), command)


async def _send(group: str, message: dict[str, Any]) -> None:
    await asyncio.wait_for(get_layer().group_send(group, message), SEND_TIMEOUT)
