"""The /ws/ handshake and the client messages."""

from __future__ import annotations

from typing import Any

import pytest

from realtime.events import Event
from tests.helpers import ApiClient
from tests.realtime.live import open_socket, send_now, session_of, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]


async def test_a_socket_from_another_origin_is_refused(scout_api: ApiClient) -> None:
    _, connected = await open_socket(session_of(scout_api), origin="https://evil.example")
    assert not connected


@pytest.mark.parametrize(
    "origin", ["http://testserver:9999", "https://testserver", "http://testserver.evil", "null"]
)
async def test_the_origin_is_compared_whole_like_csrf(scout_api: ApiClient, origin: str) -> None:
    """Scheme and port count: the page at another port of the same host is another site."""
    _, connected = await open_socket(session_of(scout_api), origin=origin)
    assert not connected


async def test_a_trusted_origin_is_accepted(scout_api: ApiClient, settings: Any) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://app.example"]
    socket, connected = await open_socket(session_of(scout_api), origin="https://app.example")
    assert connected
    assert (await socket.receive_type("hello"))["groups"]
    await socket.close()


async def test_an_anonymous_socket_is_closed_with_4401() -> None:
    socket, connected = await open_socket(None)
    assert connected
    assert await socket.receive_close() == 4401


async def test_a_socket_with_a_stale_session_is_closed_with_4401() -> None:
    socket, connected = await open_socket("not-a-session")
    assert connected
    assert await socket.receive_close() == 4401


async def test_hello_gives_the_starting_cursor_of_each_group(
    scout_api: ApiClient, admin_api: ApiClient
) -> None:
    scout, admin = scout_api.user, admin_api.user
    assert scout is not None and admin is not None
    send_now(Event("profile.changed", {"points": 1}, user_ids=(scout.pk,)))

    socket, positions = await signed_in(scout_api)
    assert positions == {f"user.{scout.pk}": 1}
    admin_socket, admin_positions = await signed_in(admin_api)
    assert admin_positions == {f"user.{admin.pk}": 0, "admins": 0}
    await socket.close()
    await admin_socket.close()


async def test_ping_answers_pong(scout_api: ApiClient) -> None:
    socket, _ = await signed_in(scout_api)
    await socket.send({"type": "ping"})
    assert await socket.receive() == {"type": "pong"}
    await socket.close()


MALFORMED = [
    ("not json", "Malformed message: expected a JSON object"),
    ("[1, 2]", "Malformed message: expected a JSON object"),
    ({"kind": "ping"}, "Unknown message type: None"),
    ({"type": "shout"}, "Unknown message type: shout"),
    ({"type": "subscribe", "sport": "quidditch"}, "Unknown sport: quidditch"),
    ({"type": "subscribe"}, "Unknown sport: None"),
    (
        {"type": "resume", "cursors": {"sport.soccer": "7"}},
        "Malformed resume: cursors must map groups to sequence numbers",
    ),
    (
        {"type": "resume", "cursors": {"sport.soccer": True}},
        "Malformed resume: cursors must map groups to sequence numbers",
    ),
    (
        {"type": "resume", "cursors": [1]},
        "Malformed resume: cursors must map groups to sequence numbers",
    ),
    ({"type": "resume", "cursors": {"user.999999": 3}}, "Not subscribed: user.999999"),
]


async def test_a_malformed_message_answers_an_error_and_the_socket_stays_open(
    scout_api: ApiClient,
) -> None:
    socket, _ = await signed_in(scout_api)
    for message, error in MALFORMED:
        await socket.send(message)
        assert await socket.receive() == {"type": "error", "message": error}, message
    await socket.send({"type": "ping"})
    assert await socket.receive() == {"type": "pong"}
    await socket.close()


async def test_subscribe_switches_sport_without_reconnecting(scout_api: ApiClient) -> None:
    socket, _ = await signed_in(scout_api, sport="soccer")
    send_now(Event("vote.changed", {"nominationId": 1, "voteCount": 1}, sport="soccer"))
    assert (await socket.receive_type("vote.changed"))["sport"] == "soccer"

    assert await socket.subscribe("hockey") == 0
    send_now(Event("vote.changed", {"nominationId": 1, "voteCount": 2}, sport="soccer"))
    send_now(Event("vote.changed", {"nominationId": 2, "voteCount": 1}, sport="hockey"))
    event = await socket.receive_type("vote.changed")
    assert event["sport"] == "hockey"
    assert event["data"] == {"nominationId": 2, "voteCount": 1}
    assert await socket.nothing()

    # Subscribing again to the same sport only repeats where the socket stands.
    await socket.send({"type": "subscribe", "sport": "hockey"})
    assert await socket.receive() == {
        "type": "subscribed",
        "sport": "hockey",
        "groups": {"sport.hockey": 1},
    }
    await socket.close()


async def test_the_envelope_is_type_group_seq_sport_data(scout_api: ApiClient) -> None:
    socket, _ = await signed_in(scout_api, sport="soccer")
    send_now(Event("vote.changed", {"nominationId": 7, "voteCount": 12}, sport="soccer"))
    output = await socket.communicator.receive_output(2)
    while '"presence.changed"' in output["text"]:  # presence has its own clock
        output = await socket.communicator.receive_output(2)
    assert output["text"] == (
        '{"type":"vote.changed","group":"sport.soccer","seq":1,"sport":"soccer",'
        '"data":{"nominationId":7,"voteCount":12}}'
    )
    await socket.close()
