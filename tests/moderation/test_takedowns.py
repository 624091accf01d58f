"""Takedown requests without an account: the player leaves every community read at once,
the requester gets emails with a reference, admins decide and can restore."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from project.accounts.models import User
from project.moderation.models import TakedownRequest, TakedownStatus
from project.modlog.models import ModlogEntry
from project.scouting.models import Nomination, NominationStatus
from project.scouting.services.follows import follow_player_create
from realtime.summary_source import summary_source
from tests.accounts.factories import nominate, vote
from tests.helpers import ApiClient, assert_error, make_user, run_tasks

# Real commits: the emails and live events leave only after one.
pytestmark = pytest.mark.django_db(transaction=True)

NAME = "Mia Minorchild"


def assert_code(response: Any, status: int, code: str) -> None:
    assert assert_error(response, status)["code"] == code, response.content


@pytest.fixture
def child(scout: User, other_scout: User) -> Nomination:
    """An approved nomination of a minor with a vote, activity and a follower."""
    nomination = nominate(scout, sport="soccer", name=NAME)
    Nomination.objects.filter(pk=nomination.pk).update(status=NominationStatus.APPROVED)
    vote(other_scout, nomination)
    follow_player_create(user=other_scout, player_id=nomination.player_id)
    run_tasks()
    mail.outbox.clear()  # the vote's notification to the nominator
    return nomination


def takedown(nomination_id: int, **overrides: Any) -> tuple[ApiClient, Any]:
    anonymous = ApiClient()
    body = {
        "nominationId": nomination_id,
        "relationship": "parent_or_guardian",
        "kind": "remove",
        "contactEmail": "parent@example.com",
        "details": "She is 12; please take her profile down.",
        **overrides,
    }
    return anonymous, anonymous.post("/api/takedown-requests", body)


COMMUNITY_READS = (
    "/api/nominations",
    "/api/nominations?sport=soccer",
    f"/api/nominations?q={NAME.split()[1]}",
    "/api/nominations/recent?sport=soccer",
    "/api/nominations/needing-votes?sport=soccer",
    "/api/leaderboard/players?sport=soccer",
    "/api/leaderboard/players?sport=soccer&board=trending",
    "/api/leaderboard/players?sport=soccer&board=weekly",
    "/api/leaderboard/players",
    "/api/feed?sport=soccer",
    "/api/feed",
    "/api/user/following?sport=soccer",
)


def wall(sport: str) -> str:
    """What the live summaries (the wall's boards and stats) say about the sport."""
    return str(summary_source().sport_summaries(sport))


def shows_the_child(api: ApiClient, path: str) -> bool:
    response = api.get(path)
    assert response.status_code == 200, (path, response.content)
    return NAME in response.content.decode()


def test_a_takedown_hides_the_player_everywhere_at_once(
    child: Nomination, scout: User, scout_api: ApiClient, other_api: ApiClient
) -> None:
    for path in COMMUNITY_READS:
        assert shows_the_child(other_api, path), path
    assert NAME in wall("soccer")

    _, response = takedown(child.pk)

    assert response.status_code == 201, response.content
    reference = response.json()["reference"]
    assert response.json()["status"] == "pending"
    for path in COMMUNITY_READS:
        assert not shows_the_child(other_api, path), path
    # Not even its nominator sees it any more: only admins.
    assert not shows_the_child(scout_api, f"/api/users/{scout.pk}/nominations")
    assert scout_api.get(f"/api/nominations/{child.pk}").status_code == 404
    assert other_api.get(f"/api/nominations/{child.pk}").status_code == 404
    assert NAME not in wall("soccer")
    stats = other_api.get("/api/stats?sport=soccer").json()
    assert stats["nominations"] == 0 and stats["votes"] == 0
    # Nor can it be voted for, followed, edited by its nominator or nominated again.
    assert other_api.post("/api/votes", {"nominationId": child.pk}).status_code == 404
    assert scout_api.post("/api/votes", {"nominationId": child.pk}).status_code == 404
    assert scout_api.post(f"/api/follow/player/{child.player_id}").status_code == 404
    edit = {
        "name": NAME,
        "age": 12,
        "position": "Wing",
        "nationality": "Ireland",
        "club": "Rovers",
        "sport": "soccer",
    }
    assert scout_api.put(f"/api/players/{child.player_id}", edit).status_code == 404
    again = scout_api.post("/api/nominations", {**edit, "age": 15, "skills": "Quick feet"})
    assert_code(again, 400, "player_taken_down")
    # The requester has the reference by email.
    run_tasks()
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["parent@example.com"]
    assert reference in mail.outbox[0].subject and reference in mail.outbox[0].body


def test_admins_still_see_the_hidden_player(child: Nomination, admin_api: ApiClient) -> None:
    takedown(child.pk)
    detail = admin_api.get(f"/api/nominations/{child.pk}")
    assert detail.status_code == 200 and detail.json()["status"] == "hidden"
    hidden = admin_api.get("/api/nominations?status=hidden").json()
    assert [item["id"] for item in hidden] == [child.pk]
    pending = admin_api.get("/api/admin/takedown-requests").json()
    assert len(pending) == 1
    request = pending[0]
    assert request["player"]["name"] == NAME and request["nominationId"] == child.pk
    assert request["relationship"] == "parent_or_guardian" and request["createdAt"]


def test_restoring_puts_every_status_back(
    child: Nomination, admin_api: ApiClient, other_api: ApiClient, admin_user: User
) -> None:
    takedown(child.pk)
    request = TakedownRequest.objects.get()
    run_tasks()
    mail.outbox.clear()

    response = admin_api.post(
        f"/api/admin/takedown-requests/{request.pk}/decide",
        {"decision": "restore", "reason": "The nominator is the athlete's coach, with consent"},
    )

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "restored"
    assert Nomination.objects.get(pk=child.pk).status == NominationStatus.APPROVED
    for path in COMMUNITY_READS:
        assert shows_the_child(other_api, path), path
    run_tasks()
    assert len(mail.outbox) == 1 and request.reference in mail.outbox[0].body
    assert "with consent" in mail.outbox[0].body
    entry = ModlogEntry.objects.get(action="takedown_decide")
    assert (entry.actor_id, entry.target_id) == (admin_user.pk, request.pk)
    assert entry.changes == {"status": ["pending", "restored"]}
    again = admin_api.post(
        f"/api/admin/takedown-requests/{request.pk}/decide",
        {"decision": "remove", "reason": "Changed my mind"},
    )
    assert_code(again, 409, "already_decided")


def test_removed_stays_hidden_until_an_admin_restores_it(
    child: Nomination, admin_api: ApiClient, other_api: ApiClient
) -> None:
    takedown(child.pk)
    request = TakedownRequest.objects.get()
    decided = admin_api.post(
        f"/api/admin/takedown-requests/{request.pk}/decide",
        {"decision": "remove", "reason": "Parent's request for a minor"},
    )
    assert decided.json()["status"] == TakedownStatus.REMOVED
    assert not shows_the_child(other_api, "/api/nominations")
    run_tasks()
    assert "stays removed" in mail.outbox[-1].body

    restored = admin_api.post(
        f"/api/admin/players/{child.player_id}/restore", {"reason": "Athlete turned 18, asked"}
    )

    assert restored.status_code == 200, restored.content
    assert shows_the_child(other_api, "/api/nominations")
    assert ModlogEntry.objects.filter(action="player_restore", target_id=child.player_id).exists()
    again = admin_api.post(f"/api/admin/players/{child.player_id}/restore", {"reason": "x"})
    assert_code(again, 409, "not_hidden")


def test_a_second_pending_request_keeps_the_player_hidden(
    child: Nomination, admin_api: ApiClient, other_api: ApiClient
) -> None:
    takedown(child.pk)
    takedown(child.pk, relationship="athlete", contactEmail="mia@example.com")
    first, _ = TakedownRequest.objects.order_by("pk")
    admin_api.post(
        f"/api/admin/takedown-requests/{first.pk}/decide", {"decision": "restore", "reason": "ok"}
    )
    assert not shows_the_child(other_api, "/api/nominations")
    blocked = admin_api.post(f"/api/admin/players/{child.player_id}/restore", {"reason": "x"})
    assert_code(blocked, 409, "takedown_pending")


def test_requests_are_bounded_per_address(child: Nomination, settings: Any) -> None:
    settings.BUDGETS_ENABLED = True
    settings.BUDGETS = {**settings.BUDGETS, "TAKEDOWNS_PER_HOUR": 2}
    assert takedown(child.pk)[1].status_code == 201
    assert takedown(child.pk)[1].status_code == 201
    _, refused = takedown(child.pk)
    assert_code(refused, 429, "throttled")
    assert int(refused["Retry-After"]) > 0
    assert TakedownRequest.objects.count() == 2
    # Another address still may.
    other = Client(enforce_csrf_checks=True, REMOTE_ADDR="198.51.100.7")
    other.get("/api/auth/csrf")
    response = other.post(
        "/api/takedown-requests",
        {
            "nominationId": child.pk,
            "relationship": "athlete",
            "kind": "correct",
            "contactEmail": "mia@example.com",
        },
        content_type="application/json",
        HTTP_X_CSRFTOKEN=other.cookies["csrftoken"].value,
    )
    assert response.status_code == 201, response.content


def test_a_request_needs_the_csrf_token_and_valid_fields(child: Nomination) -> None:
    anonymous = ApiClient()
    body = {
        "nominationId": child.pk,
        "relationship": "athlete",
        "kind": "remove",
        "contactEmail": "mia@example.com",
    }
    no_token = anonymous.post("/api/takedown-requests", body, csrf=False)
    assert_code(no_token, 403, "csrf_failed")
    bad_email = anonymous.post("/api/takedown-requests", {**body, "contactEmail": "nope"})
    assert_code(bad_email, 400, "validation_error")
    assert bad_email.json()["fields"] == {"contactEmail": "Invalid email address"}
    missing = anonymous.post("/api/takedown-requests", {**body, "nominationId": 999999})
    assert_code(missing, 404, "not_found")
    assert not TakedownRequest.objects.exists()
    assert Nomination.objects.get(pk=child.pk).status == NominationStatus.APPROVED


def test_the_requester_address_is_not_stored(child: Nomination) -> None:
    takedown(child.pk)
    stored = str(list(TakedownRequest.objects.values()))
    assert "127.0.0.1" not in stored


def test_a_rejected_nomination_of_the_player_comes_back_rejected(
    child: Nomination, scout: User, admin_api: ApiClient
) -> None:
    rejected = nominate(make_user(), sport="soccer")
    Nomination.objects.filter(pk=rejected.pk).update(
        status=NominationStatus.REJECTED, player=child.player
    )
    takedown(child.pk)
    assert Nomination.objects.get(pk=rejected.pk).status_before_hidden == "rejected"
    request = TakedownRequest.objects.get()
    admin_api.post(
        f"/api/admin/takedown-requests/{request.pk}/decide", {"decision": "correct", "reason": "ok"}
    )
    assert Nomination.objects.get(pk=rejected.pk).status == NominationStatus.REJECTED
    assert Nomination.objects.get(pk=child.pk).status == NominationStatus.APPROVED


SPEC_PLAYER_FIELDS = {
    "id",
    "name",
    "age",
    "graduationYear",
    "position",
    "nationality",
    "club",
    "sport",
    "skills",
    "videoLink",
    "verified",
}


def test_members_get_no_more_than_the_spec_player_fields(
    child: Nomination, other_api: ApiClient
) -> None:
    """Data minimisation: nothing about a minor beyond the spec's player read shape (no
    identity key, no takedown state, no claim)."""
    players = [
        other_api.get(f"/api/nominations/{child.pk}").json()["player"],
        *(item["player"] for item in other_api.get("/api/nominations").json()),
        *(item["player"] for item in other_api.get("/api/nominations/recent").json()),
        *(item["player"] for item in other_api.get("/api/leaderboard/players").json()),
    ]
    assert len(players) == 4
    for player in players:
        assert set(player) == SPEC_PLAYER_FIELDS, player
