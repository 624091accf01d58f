"""Reports, takedown requests and moderation log rows reach admin sockets, and nobody else's;
a takedown takes the player off the sport's sockets at once."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from project.moderation.models import TakedownRequest
from project.moderation.services.takedowns import takedown_confirm_token
from project.scouting.models import Nomination
from tests.builders import make_nomination
from tests.helpers import ApiClient
from tests.realtime.live import Socket, signed_in

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]


async def next_of(socket: Socket, kind: str, timeout: float = 3) -> dict[str, Any]:
    """The data of the next message of ``kind``, skipping others."""
    while True:
        message = await socket.receive(timeout)
        if message["type"] == kind:
            data: dict[str, Any] = message["data"]
            return data


async def types_until_quiet(socket: Socket) -> set[str]:
    seen = set()
    while not await socket.nothing(0.5):
        seen.add((await socket.receive())["type"])
    return seen


async def test_reports_takedowns_and_log_rows_reach_admins_only(
    scout_api: ApiClient, other_api: ApiClient, admin_api: ApiClient
) -> None:
    assert scout_api.user is not None
    nomination: Nomination = await sync_to_async(make_nomination)(
        scout_api.user, sport="soccer", name="Live Minor"
    )
    admin_socket, _ = await signed_in(admin_api)
    scout_socket, _ = await signed_in(other_api, sport="soccer")

    reported = await sync_to_async(other_api.post)(
        "/api/reports", {"nominationId": nomination.pk, "reason": "privacy"}
    )
    assert reported.status_code == 201, reported.content
    group = await next_of(admin_socket, "report.created")
    assert (group["targetType"], group["targetId"], group["count"]) == (
        "nomination",
        nomination.pk,
        1,
    )

    anonymous = ApiClient()
    requested = await sync_to_async(anonymous.post)(
        "/api/takedown-requests",
        {
            "nominationId": nomination.pk,
            "relationship": "parent_or_guardian",
            "kind": "remove",
            "contactEmail": "parent@example.com",
        },
    )
    assert requested.status_code == 201, requested.content
    takedown = await next_of(admin_socket, "takedown.created")
    assert takedown["reference"] == requested.json()["reference"]
    assert takedown["player"]["name"] == "Live Minor"
    assert takedown["status"] == "unconfirmed"
    # Confirmed from its email's link: hidden from the public at once, under review for
    # members (docs/privacy.md, "The takedown rule").
    request = await TakedownRequest.objects.aget(pk=takedown["id"])
    confirmed = await sync_to_async(anonymous.post)(
        "/api/takedown-requests/confirm", {"token": takedown_confirm_token(request)}
    )
    assert confirmed.status_code == 200, confirmed.content
    assert (await next_of(admin_socket, "takedown.confirmed"))["status"] == "pending"

    # An admin's decision takes it down: the sport's sockets drop the nomination at once.
    decided = await sync_to_async(admin_api.post)(
        f"/api/admin/takedown-requests/{takedown['id']}/decide",
        {"decision": "remove", "reason": "A parent asked"},
    )
    assert decided.status_code == 200, decided.content
    row = await next_of(admin_socket, "modlog.created")
    assert (row["action"], row["reason"]) == ("takedown_decide", "A parent asked")
    removed = await next_of(scout_socket, "nomination.removed")
    assert removed == {"id": nomination.pk}

    assert not {"report.created", "takedown.created", "takedown.confirmed", "modlog.created"} & (
        await types_until_quiet(scout_socket)
    )
    await admin_socket.close()
    await scout_socket.close()
