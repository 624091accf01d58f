"""What one socket may ask of the server: client messages per second, and replay bytes."""

from __future__ import annotations

from typing import Any

import pytest

from project.accounts.models import User
from realtime import broadcast, drain
from realtime.events import Event
from tests.helpers import ApiClient
from tests.realtime.live import open_socket, session_of, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]

SOCCER = "sport.soccer"


def vote(count: int) -> Event:
    return Event("vote.changed", {"nominationId": 1, "voteCount": count}, sport="soccer")


async def test_a_socket_flooding_messages_is_closed_with_4429(
    scout_api: ApiClient, settings: Any
) -> None:
    settings.REALTIME_CLIENT_MESSAGE_BURST = 10
    settings.REALTIME_CLIENT_MESSAGE_RATE = 1
    socket, _ = await signed_in(scout_api)
    for _ in range(9):  # the burst (hello's subscribe-less socket has sent nothing yet)
        await socket.send({"type": "ping"})
        assert await socket.receive() == {"type": "pong"}
    await socket.send({"type": "ping"})
    assert await socket.receive() == {"type": "pong"}
    for _ in range(200):
        await socket.send({"type": "resume", "cursors": {}})
    assert await socket.receive_close() == 4429


async def test_a_steady_client_is_never_limited(scout_api: ApiClient, settings: Any) -> None:
    settings.REALTIME_CLIENT_MESSAGE_BURST = 3
    settings.REALTIME_CLIENT_MESSAGE_RATE = 20
    socket, _ = await signed_in(scout_api)
    for _ in range(30):
        await socket.send({"type": "ping"})
        assert await socket.receive() == {"type": "pong"}
        await socket.nothing(0.06)
    await socket.close()


async def test_a_resume_past_the_sockets_replay_budget_gets_resync(
    scout_api: ApiClient, settings: Any
) -> None:
    """A 70-byte resume cannot make the server send much: replay is bounded per socket."""
    one = len(vote(1).envelope().tail) + 40
    settings.REALTIME_RESUME_MAX_BYTES = 30 * one
    broadcast.send(*(vote(count) for count in range(1, 51)))
    socket, _ = await signed_in(scout_api, sport="soccer")
    await socket.send({"type": "resume", "cursors": {SOCCER: 40}})
    seqs = []
    while (message := await socket.receive())["type"] != "resumed":
        seqs.append(message["seq"])
    assert seqs == list(range(41, 51))
    # 50 more would pass what is left of the budget: resync (and the snapshot) instead.
    await socket.send({"type": "resume", "cursors": {SOCCER: 0}})
    assert await socket.receive() == {"type": "resync", "groups": [SOCCER], "cursors": {SOCCER: 50}}
    assert (await socket.receive_type("snapshot"))["seq"] == 50
    await socket.close()


async def test_sockets_opened_again_share_their_users_replay_budget(
    scout_api: ApiClient, other_api: ApiClient, settings: Any
) -> None:
    """Each socket has a budget of its own, and a new socket a new one: the user's sockets
    together get at most REALTIME_RESUME_USER_MAX_BYTES of replay per window."""
    one = len(vote(1).envelope().tail) + 40
    settings.REALTIME_RESUME_MAX_BYTES = 100 * one
    settings.REALTIME_RESUME_USER_MAX_BYTES = 60 * one
    broadcast.send(*(vote(count) for count in range(1, 41)))
    first, _ = await signed_in(scout_api, sport="soccer")
    await first.send({"type": "resume", "cursors": {SOCCER: 0}})
    seqs = []
    while (message := await first.receive())["type"] != "resumed":
        seqs.append(message["seq"])
    assert seqs == list(range(1, 41))
    await first.close()
    # A socket of the same user, opened afresh, has a fresh budget of its own but not of its
    # user's: 40 more events would pass the 60 a window.
    again, _ = await signed_in(scout_api, sport="soccer")
    await again.send({"type": "resume", "cursors": {SOCCER: 0}})
    assert await again.receive() == {"type": "resync", "groups": [SOCCER], "cursors": {SOCCER: 40}}
    # Another user's budget is their own.
    other, _ = await signed_in(other_api, sport="soccer")
    await other.send({"type": "resume", "cursors": {SOCCER: 0}})
    seqs = []
    while (message := await other.receive())["type"] != "resumed":
        seqs.append(message["seq"])
    assert seqs == list(range(1, 41))
    await again.close()
    await other.close()


async def test_a_member_past_their_socket_limit_is_closed_with_4429(
    scout_api: ApiClient, other_api: ApiClient, settings: Any
) -> None:
    settings.REALTIME_SOCKETS_PER_MEMBER = 3
    sockets = [(await signed_in(scout_api))[0] for _ in range(3)]
    extra, connected = await open_socket(session_of(scout_api))
    assert connected  # accepted, then closed before its hello
    assert await extra.receive_close() == 4429
    # Another member is counted apart.
    other, _ = await signed_in(other_api)
    # One closed: its place is free again.
    await sockets.pop().close()
    sockets.append((await signed_in(scout_api))[0])
    for socket in [*sockets, other]:
        await socket.close()


@pytest.fixture
def scout_signed_in_again(scout: User) -> ApiClient:
    """A second sign-in (session) of the member behind ``scout_api``."""
    return ApiClient().login(scout)


async def test_the_socket_limit_counts_a_member_across_their_sign_ins(
    scout_api: ApiClient, scout_signed_in_again: ApiClient, settings: Any
) -> None:
    """Signing in again (another browser, another session) gives no new sockets."""
    settings.REALTIME_SOCKETS_PER_MEMBER = 3
    assert session_of(scout_api) != session_of(scout_signed_in_again)
    sockets = [(await signed_in(scout_api))[0] for _ in range(2)]
    sockets.append((await signed_in(scout_signed_in_again))[0])
    extra, connected = await open_socket(session_of(scout_signed_in_again))
    assert connected
    assert await extra.receive_close() == 4429
    for socket in sockets:
        await socket.close()


async def test_sockets_the_server_closes_leave_the_count_before_their_clients_return(
    scout_api: ApiClient, settings: Any
) -> None:
    """A hand-over closes every socket (1001 through daphne; 4001 here, with no daphne
    protocol under the test's sockets) and its clients reconnect at once, before the
    closes complete: their old sockets no longer count against the member's limit."""
    settings.REALTIME_SOCKETS_PER_MEMBER = 2
    sockets = [(await signed_in(scout_api))[0] for _ in range(2)]
    await drain.hand_over(0)
    for socket in sockets:
        assert await socket.receive_close() == 4001
    # The clients' sockets have not gone yet (no disconnect has reached the server).
    again = [(await signed_in(scout_api))[0] for _ in range(2)]
    extra, connected = await open_socket(session_of(scout_api))
    assert connected
    assert await extra.receive_close() == 4429
    for socket in [*again, *sockets]:
        await socket.close()
