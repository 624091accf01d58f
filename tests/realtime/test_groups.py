"""Every event type reaches exactly its groups, and a private one nobody else."""

from __future__ import annotations

from typing import Any

import pytest

from realtime.events import Event
from tests.builders import make_user
from tests.helpers import ApiClient
from tests.realtime.live import Socket, send_now, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]


@pytest.fixture
def other_admin_api(admin_user: object) -> ApiClient:
    return ApiClient().login(make_user(role="admin"))


async def drain(socket: Socket) -> set[tuple[str, str]]:
    """(type, group) of everything the socket receives until it goes quiet."""
    seen: set[tuple[str, str]] = set()
    while not await socket.nothing(0.3):
        message = await socket.receive()
        seen.add((message["type"], message["group"]))
    return seen


async def test_each_event_reaches_exactly_its_groups(
    scout_api: ApiClient, other_api: ApiClient, admin_api: ApiClient, other_admin_api: ApiClient
) -> None:
    other_admin = other_admin_api
    scout, other, admin, admin2 = (
        api.user for api in (scout_api, other_api, admin_api, other_admin)
    )
    assert scout and other and admin and admin2
    soccer_scout, _ = await signed_in(scout_api, sport="soccer")
    football_scout, _ = await signed_in(other_api, sport="football")
    soccer_admin, _ = await signed_in(admin_api, sport="soccer")
    lone_admin, _ = await signed_in(other_admin)
    nomination: dict[str, Any] = {"id": 9, "status": "pending", "voteCount": 0}

    events = [
        Event("vote.changed", {"nominationId": 9, "voteCount": 1}, sport="soccer"),
        Event("nomination.created", nomination, sport="soccer", admins=True),
        Event("nomination.updated", nomination, user_ids=(scout.pk,), admins=True),
        Event("nomination.removed", {"id": 9}, sport="soccer", admins=True),
        Event("activity.created", {"id": 1}, sport="soccer"),
        Event("leaderboard.changed", {"players": [], "scouts": []}, sport="soccer"),
        Event("stats.changed", {"nominations": 1}, sport="soccer"),
        Event("notification.created", {"id": 3}, user_ids=(scout.pk,)),
        Event("profile.changed", {"points": 2}, user_ids=(other.pk,)),
        Event("moderation.changed", {"pending": 1}, admins=True),
    ]
    for event in events:
        send_now(event)

    soccer = "sport.soccer"
    assert await drain(soccer_scout) == {
        ("vote.changed", soccer),
        ("nomination.created", soccer),
        ("nomination.updated", f"user.{scout.pk}"),
        ("nomination.removed", soccer),
        ("activity.created", soccer),
        ("leaderboard.changed", soccer),
        ("stats.changed", soccer),
        ("notification.created", f"user.{scout.pk}"),
    }
    assert await drain(football_scout) == {("profile.changed", f"user.{other.pk}")}
    admin_events = {
        ("nomination.created", "admins"),
        ("nomination.updated", "admins"),
        ("nomination.removed", "admins"),
        ("moderation.changed", "admins"),
    }
    assert await drain(lone_admin) == admin_events
    # An admin watching the sport gets the sport's copy too: each group's sequence is whole.
    assert await drain(soccer_admin) == admin_events | {
        ("vote.changed", soccer),
        ("nomination.created", soccer),
        ("nomination.removed", soccer),
        ("activity.created", soccer),
        ("leaderboard.changed", soccer),
        ("stats.changed", soccer),
    }
    for socket in (soccer_scout, football_scout, soccer_admin, lone_admin):
        await socket.close()


async def test_an_admin_session_without_a_second_factor_hears_no_admin_event(
    admin_api: ApiClient, settings: Any
) -> None:
    settings.ADMIN_2FA_REQUIRED = True
    socket, _ = await signed_in(admin_api)
    send_now(Event("moderation.changed", {"pending": 1}, admins=True))
    assert await socket.nothing(0.5)
    await socket.close()

    settings.ADMIN_2FA_REQUIRED = False
    socket, _ = await signed_in(admin_api)
    send_now(Event("moderation.changed", {"pending": 2}, admins=True))
    assert (await socket.receive())["type"] == "moderation.changed"
    await socket.close()
