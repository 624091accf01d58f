"""A socket's rights are read at connect: the services close it when they change."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction

from realtime.publish import close_user_sockets
from tests.builders import PASSWORD
from tests.helpers import ApiClient
from tests.realtime.live import open_socket, session_of, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]


async def assert_refused(session_key: str) -> None:
    socket, connected = await open_socket(session_key)
    assert connected
    assert await socket.receive_close() == 4401


async def test_logout_closes_the_socket_and_its_reconnect_is_refused(
    scout_api: ApiClient,
) -> None:
    session_key = session_of(scout_api)
    socket, _ = await signed_in(scout_api, sport="soccer")
    response = await sync_to_async(scout_api.post)("/api/auth/logout")
    assert response.status_code == 204
    assert await socket.receive_close() == 4001
    await assert_refused(session_key)


async def test_account_deletion_closes_the_socket_and_its_reconnect_is_refused(
    scout_api: ApiClient,
) -> None:
    session_key = session_of(scout_api)
    socket, _ = await signed_in(scout_api)
    response = await sync_to_async(scout_api.delete)("/api/settings/account")
    assert response.status_code == 204
    assert await socket.receive_close() == 4001
    await assert_refused(session_key)


async def test_password_change_closes_the_sockets_of_other_sessions(scout_api: ApiClient) -> None:
    assert scout_api.user is not None
    elsewhere = await sync_to_async(ApiClient().login)(scout_api.user)
    other_session = session_of(elsewhere)
    socket, _ = await signed_in(elsewhere)
    own_socket, _ = await signed_in(scout_api)
    response = await sync_to_async(scout_api.put)(
        "/api/settings/password", {"currentPassword": PASSWORD, "newPassword": "another-pass-2"}
    )
    assert response.status_code == 200, response.content
    assert await socket.receive_close() == 4001
    await assert_refused(other_session)
    # The tab that changed the password keeps its socket: its browser learns the session's
    # new key only from the answer, so a reconnect forced now would be refused.
    assert await own_socket.nothing(0.5)
    await own_socket.close()
    # The session that changed the password keeps its live connection on reconnect.
    again, _ = await signed_in(scout_api)
    await again.close()


async def test_a_role_change_reconnects_the_socket_with_its_new_rights(
    scout_api: ApiClient, admin_api: ApiClient
) -> None:
    scout = scout_api.user
    assert scout is not None
    socket, positions = await signed_in(scout_api)
    assert "admins" not in positions

    response = await sync_to_async(admin_api.put)(
        f"/api/admin/users/{scout.pk}/role", {"role": "admin"}
    )
    assert response.status_code == 200, response.content
    assert await socket.receive_close() == 4001
    promoted, positions = await signed_in(scout_api)
    assert "admins" in positions

    response = await sync_to_async(admin_api.put)(
        f"/api/admin/users/{scout.pk}/role", {"role": "scout"}
    )
    assert response.status_code == 200, response.content
    assert await promoted.receive_close() == 4001
    demoted, positions = await signed_in(scout_api)
    assert "admins" not in positions
    await demoted.close()


async def test_closing_a_users_sockets_spares_everyone_else(
    scout_api: ApiClient, other_api: ApiClient
) -> None:
    scout = scout_api.user
    assert scout is not None
    socket, _ = await signed_in(scout_api)
    other, _ = await signed_in(other_api)

    def rolled_back() -> None:
        with transaction.atomic():
            close_user_sockets(scout.pk, reason="logout")
            transaction.set_rollback(True)

    await sync_to_async(rolled_back)()
    assert await socket.nothing()

    await sync_to_async(close_user_sockets)(scout.pk, reason="logout")
    assert await socket.receive_close() == 4001
    assert await other.nothing()
    await other.send({"type": "ping"})
    assert await other.receive() == {"type": "pong"}
    await other.close()
