"""The control plane (realtime/control.py): a user's sockets closed through the channel layer,
and what happens when the layer cannot be reached."""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers

from realtime.consumers import _cancelled
from realtime.control import user_sockets_group
from tests.helpers import ApiClient
from tests.realtime.live import open_socket, session_of, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]

# A Redis nobody listens on: connections are refused at once.
UNREACHABLE = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [{"address": "redis://127.0.0.1:1/0", "socket_connect_timeout": 1}]},
    }
}


@pytest.fixture
def unreachable_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = UNREACHABLE  # Channels drops its layers on setting_changed


async def test_a_close_reaches_every_socket_of_the_user_through_the_layer(
    scout_api: ApiClient, other_api: ApiClient
) -> None:
    """Two sockets of one user, each its own channel in the user's group; another user's
    socket is in another group and stays."""
    scout = scout_api.user
    assert scout is not None
    first, _ = await signed_in(scout_api)
    second, _ = await signed_in(scout_api, sport="soccer")
    other, _ = await signed_in(other_api)
    layer = channel_layers["default"]
    await layer.group_send(
        user_sockets_group(scout.pk), {"type": "sockets.close", "reason": "test", "keep": None}
    )
    assert await first.receive_close() == 4001
    assert await second.receive_close() == 4001
    assert await other.nothing()
    await other.close()


async def test_a_close_that_cannot_reach_the_layer_is_logged_and_the_logout_goes_on(
    scout_api: ApiClient, unreachable_layer: None, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR, logger="realtime.publish"):
        response = await sync_to_async(scout_api.post)("/api/auth/logout")
    assert response.status_code == 204
    assert "Could not close the sockets of user" in caplog.text
    me = await sync_to_async(scout_api.get)("/api/auth/me")
    assert me.status_code == 401


async def test_a_socket_that_cannot_join_the_control_plane_is_closed_as_unavailable(
    scout_api: ApiClient, unreachable_layer: None
) -> None:
    """4503, as for a hub it cannot join: the client backs off and comes back, instead of a
    socket that a logout could not close."""
    socket, connected = await open_socket(session_of(scout_api))
    assert connected
    assert await socket.receive_close(timeout=5) == 4503


def _raised_while_handling(first: BaseException, then: Exception) -> Exception:
    try:
        try:
            raise first
        except BaseException:
            raise then  # noqa: B904  (the implicit context is the point)
    except Exception as error:
        return error


@pytest.mark.parametrize(
    ("error", "cancelled"),
    [
        (ConnectionError("Redis went away"), False),
        (concurrent.futures.CancelledError(), True),
        (_raised_while_handling(asyncio.CancelledError(), RuntimeError("Lock released")), True),
        (_raised_while_handling(ValueError("bad"), RuntimeError("worse")), False),
    ],
)
def test_a_leave_cut_short_by_a_cancellation_is_told_from_a_failure(
    error: Exception, cancelled: bool
) -> None:
    """Only a real failure to leave the control plane is worth a warning; a leave that a
    stopping process cancelled (daphne cancels its applications on the way out) is not."""
    assert _cancelled(error) is cancelled
