"""The control plane (realtime/control.py): a user's sockets closed through the channel layer,
and what happens when the layer cannot be reached."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers

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
