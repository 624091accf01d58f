"""The live messages' models (realtime/event_payloads.py), source of the SPA's generated types:
every catalogued event has one, a publisher drifting from its model fails, and what real
sockets receive from real writes is what the models (so the SPA's types) say."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from pydantic import BaseModel, TypeAdapter

from project.scouting.models import NominationStatus
from realtime.event_payloads import (
    payload_models,
    protocol_types,
    register_payloads,
    server_message_adapter,
    validate_payload,
    validation_enabled,
)
from realtime.events import CATALOGUE, Event
from realtime.publish import publish
from tests.helpers import ApiClient
from tests.realtime.live import Socket, open_socket, session_of
from tests.realtime.test_redis_outage import make_nomination


def test_every_catalogued_event_has_a_payload_model_and_every_model_an_event() -> None:
    assert list(payload_models()) == list(CATALOGUE)


def test_a_model_is_registered_only_for_a_catalogued_type_and_only_once() -> None:
    class Other(BaseModel):
        id: int

    with pytest.raises(ValueError, match=r"Unknown live event type 'vote\.tallied'"):
        register_payloads({"vote.tallied": Other})
    with pytest.raises(ValueError, match=r"vote\.own already has a payload model"):
        register_payloads({"vote.own": Other})
    register_payloads({"vote.own": payload_models()["vote.own"]})  # the same one: no change


OWN = {"nominationId": 7, "hasVoted": True, "voteCount": 3, "version": 4}


@pytest.mark.parametrize(
    ("event_type", "data", "problem"),
    [
        ("vote.own", {**OWN, "version": None}, "version"),
        ("vote.own", {key: value for key, value in OWN.items() if key != "hasVoted"}, "hasVoted"),
        ("vote.own", {**OWN, "has_voted": True}, "has_voted"),  # snake_case: not the wire's
        ("vote.changed", {"nominationId": 1, "voteCount": 1}, "votes"),
        ("profile.changed", {"points": 3}, "currentStreak"),
        ("stats.changed", {"nominations": 1, "votes": 2}, "nominationsNeedingVotes"),
        ("leaderboard.changed", {"board": "monthly", "players": []}, "monthly"),
        ("nomination.created", {"id": 1}, "player"),
        # Keys a model does not know, even one of the REST shapes (which ignore them on input).
        (
            "stats.changed",
            {"nominations": 1, "votes": 2, "nominationsNeedingVotes": 0, "x": 1},
            "x",
        ),
        ("moderation.changed", {"pending": 1}, "approved"),
    ],
)
def test_a_payload_that_drifted_from_its_model_is_refused_where_it_is_published(
    event_type: str, data: dict[str, Any], problem: str, settings: Any
) -> None:
    with pytest.raises(ValueError, match=f"{event_type} payload does not match") as raised:
        validate_payload(event_type, data)
    assert problem in str(raised.value)
    allowed = CATALOGUE[event_type]
    audience: dict[str, Any] = (
        {"sport": "soccer"}
        if "sport" in allowed
        else {"user_ids": (5,)}
        if "user" in allowed
        else {"admins": True}
    )
    event = Event(event_type, data, **audience)
    with pytest.raises(ValueError, match="does not match"):
        publish(event)  # before anything is queued: the write that made it fails its test
    # Production does not pay for (or fail on) the check: it is off unless DEBUG.
    settings.REALTIME_VALIDATE_EVENTS = False
    assert not validation_enabled()


def test_a_payload_as_published_passes() -> None:
    validate_payload("vote.own", OWN)
    validate_payload("vote.changed", {"votes": [{"nominationId": 1, "voteCount": 1, "version": 1}]})
    validate_payload(
        "follow.own", {"playerId": None, "userId": 4, "clubId": None, "following": False}
    )


async def drain(socket: Socket, seconds: float) -> list[dict[str, Any]]:
    """Everything the socket receives within ``seconds`` (presence included)."""
    received = []
    deadline = asyncio.get_running_loop().time() + seconds
    while (left := deadline - asyncio.get_running_loop().time()) > 0:
        if await socket.communicator.receive_nothing(min(left, 0.05)):
            continue
        received.append(await socket.receive(presence=True))
    return received


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("live_cleanup")
async def test_what_sockets_receive_from_real_writes_is_what_the_models_say(
    scout_api: ApiClient, other_api: ApiClient, admin_api: ApiClient
) -> None:
    """A nomination approved, voted for and followed, the client messages answered: every
    message two sockets get (an admin's and a member's) validates against LiveServerMessage,
    the type the SPA's ServerMessage is generated from."""
    pending = await sync_to_async(make_nomination)("Mila Model")
    pending.status = NominationStatus.PENDING
    await sync_to_async(pending.save)(update_fields=["status"])

    seen: list[dict[str, Any]] = []
    sockets = []
    for api in (scout_api, admin_api):
        socket, connected = await open_socket(session_of(api))
        assert connected
        seen.append(await socket.receive_type("hello", timeout=5))
        await socket.send({"type": "subscribe", "sport": "soccer"})
        seen.append(await socket.receive_type("subscribed"))
        seen.append(await socket.receive_type("snapshot", timeout=5))
        sockets.append(socket)
    member, admin = sockets

    response = await sync_to_async(admin_api.post)(f"/api/admin/nominations/{pending.pk}/approve")
    assert response.status_code == 200, response.content
    response = await sync_to_async(scout_api.post)("/api/votes", {"nominationId": pending.pk})
    assert response.status_code == 201, response.content
    response = await sync_to_async(scout_api.post)(f"/api/follow/player/{pending.player_id}")
    assert response.status_code in (200, 201), response.content
    # What the SPA sends, as LiveClientMessage (its ClientMessage) describes it.
    client = TypeAdapter(protocol_types()["LiveClientMessage"])
    sent = [
        {"type": "watch", "nominationId": pending.pk},
        {"type": "ping"},
        {"type": "resume", "cursors": {"sport.soccer": 0}},
        {"type": "subscribe", "sport": "soccer", "cursor": 0},
    ]
    for message in sent:
        client.validate_python(message)
    for socket in (member, admin):
        for message in sent:
            await socket.send(message)
        await socket.send({"type": "shout"})
    seen += await drain(member, 2.0) + await drain(admin, 0.5)

    adapter = server_message_adapter()
    for message in seen:
        adapter.validate_python(message)
    kinds = {message["type"] for message in seen}
    expected = {
        "hello",
        "subscribed",
        "snapshot",
        "moderation.changed",
        "nomination.updated",
        "modlog.created",
        "vote.changed",
        "vote.own",
        "follow.own",
        "leaderboard.changed",
        "stats.changed",
        "presence.changed",
        "pong",
        "error",
    }
    assert expected <= kinds, expected - kinds
    assert kinds & {"resumed", "resync"}, kinds
    boards = next(m for m in seen if m["type"] == "snapshot")["data"]["leaderboards"]
    assert set(boards) == {"all", "trending", "weekly"}
    await member.close()
    await admin.close()
