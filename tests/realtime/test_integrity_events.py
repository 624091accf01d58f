"""A vote-ring flag reaches admin sockets (and nobody else's) as the ring votes, and voiding
its votes moves the count on a member's socket of the sport."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from project.scouting.models import NominationStatus
from tests.builders import aged_user, make_nomination
from tests.helpers import ApiClient
from tests.realtime.live import signed_in
from tests.realtime.test_safety_events import next_of, types_until_quiet

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("live_cleanup")]


async def test_a_ring_is_flagged_live_and_voiding_it_moves_the_count(
    other_api: ApiClient, admin_api: ApiClient
) -> None:
    nomination = await sync_to_async(make_nomination)(
        await sync_to_async(aged_user)(), sport="soccer", status=NominationStatus.APPROVED
    )
    ring = [await sync_to_async(aged_user)() for _ in range(5)]
    admin_socket, _ = await signed_in(admin_api)
    member_socket, _ = await signed_in(other_api, sport="soccer")

    for index, member in enumerate(ring):
        client = await sync_to_async(ApiClient().login)(member)
        response = await sync_to_async(client.post)(
            "/api/votes", {"nominationId": nomination.pk}, REMOTE_ADDR=f"203.0.113.{index + 1}"
        )
        assert response.status_code == 201, response.content
    flag = await next_of(admin_socket, "integrity.flagged")
    assert (flag["rule"], flag["nominationId"], flag["evidence"]["accounts"]) == (
        "shared_prefix",
        nomination.pk,
        5,
    )
    assert "203.0.113" not in str(flag)
    assert "integrity.flagged" not in await types_until_quiet(member_socket)

    voided = await sync_to_async(admin_api.post)(
        "/api/admin/integrity/void", {"flagId": flag["id"], "reason": "One network"}
    )
    assert voided.status_code == 200, voided.content
    counts = await next_of(member_socket, "vote.changed")
    assert counts["votes"][-1]["nominationId"] == nomination.pk
    assert counts["votes"][-1]["voteCount"] == 0
    closed = await next_of(admin_socket, "integrity.flagged")
    assert (closed["id"], closed["status"]) == (flag["id"], "voided")
    await admin_socket.close()
    await member_socket.close()
