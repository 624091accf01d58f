"""A family claims a player's page; admins review the claim live; an approved claimant
manages the page (project/claims)."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from project.accounts.models import User
from project.claims.models import Claim
from project.moderation.models import TakedownRequest, TakedownStatus
from project.modlog.models import ModlogEntry
from project.scouting.models import Activity, Nomination, Notification, Player
from tests.builders import make_nomination, make_user
from tests.helpers import ApiClient, EventRecorder, assert_error

pytestmark = pytest.mark.django_db(transaction=True)

GUARDIAN_REQUIRED = "A parent or guardian claims the profile of an athlete under 16."
YEAR = timezone.localdate().year


def claim_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "relationship": "parent_or_guardian",
        "birthYear": YEAR - 12,
        "evidence": "Her club's roster: https://club.example/u13; coach Ana Silva vouches.",
    }
    body.update(overrides)
    return body


def claim(api: ApiClient, player_id: int, **overrides: Any) -> Any:
    return api.post(f"/api/players/{player_id}/claims", claim_body(**overrides))


def assert_code(response: Any, status: int, code: str) -> dict[str, Any]:
    body = assert_error(response, status)
    assert body["code"] == code, body
    return body


@pytest.fixture
def nomination(scout: User) -> Nomination:
    return make_nomination(scout, name="Mia Jones", age=11, club="Lisbon Juniors")


@pytest.fixture
def guardian() -> User:
    return make_user(name="Rita Jones")


@pytest.fixture
def guardian_api(guardian: User) -> ApiClient:
    return ApiClient().login(guardian)


def test_a_guardian_claims_and_gets_a_pending_claim(
    guardian_api: ApiClient, nomination: Nomination, guardian: User
) -> None:
    response = claim(guardian_api, nomination.player_id, contactPhone="+351 900 000 000")

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["status"] == "pending"
    assert body["playerId"] == nomination.player_id
    assert body["relationship"] == "parent_or_guardian"
    assert body["contactPhone"] == "+351 900 000 000"
    assert Claim.objects.get().claimant == guardian


def test_signed_out_cannot_claim(api: ApiClient, nomination: Nomination) -> None:
    assert claim(api, nomination.player_id).status_code == 401
    assert not Claim.objects.exists()


@pytest.mark.parametrize(
    ("relationship", "age", "code"),
    [
        ("self", 15, "guardian_required"),
        ("self", 16, None),
        ("self", 30, None),
        ("parent_or_guardian", 12, None),
        ("parent_or_guardian", 17, None),
        ("parent_or_guardian", 18, "adult_claims_self"),
    ],
)
def test_age_bands_decide_who_claims(
    guardian_api: ApiClient, nomination: Nomination, relationship: str, age: int, code: str | None
) -> None:
    # A birth year gives the youngest age it allows: born age + 1 years ago is ``age``.
    response = claim(
        guardian_api, nomination.player_id, relationship=relationship, birthYear=YEAR - age - 1
    )
    if code is None:
        assert response.status_code == 201, response.content
    else:
        body = assert_code(response, 400, code)
        if code == "guardian_required":
            assert body["message"] == GUARDIAN_REQUIRED


def test_one_open_claim_per_member_and_player(
    guardian_api: ApiClient, nomination: Nomination
) -> None:
    assert claim(guardian_api, nomination.player_id).status_code == 201
    assert_code(claim(guardian_api, nomination.player_id), 409, "claim_already_open")
    assert Claim.objects.count() == 1


def test_claims_are_budgeted_per_member(
    settings: Any, guardian_api: ApiClient, scout: User
) -> None:
    settings.BUDGETS_ENABLED = True
    settings.BUDGETS = {**settings.BUDGETS, "CLAIMS_PER_DAY": 2}
    players = [make_nomination(scout, age=12).player_id for _ in range(3)]
    # A refused claim spends nothing.
    assert_code(claim(guardian_api, players[0], relationship="self"), 400, "guardian_required")
    assert claim(guardian_api, players[0]).status_code == 201
    assert claim(guardian_api, players[1]).status_code == 201

    third = claim(guardian_api, players[2])

    assert_code(third, 429, "throttled")
    assert "Retry-After" in third.headers
    assert Claim.objects.count() == 2


def test_evidence_is_at_most_1000_characters(
    guardian_api: ApiClient, nomination: Nomination
) -> None:
    assert_error(claim(guardian_api, nomination.player_id, evidence="x" * 1001), 400)
    assert claim(guardian_api, nomination.player_id, evidence="x" * 1000).status_code == 201


def test_a_player_seen_by_no_one_cannot_be_claimed(guardian_api: ApiClient, scout: User) -> None:
    rejected = make_nomination(scout, status="rejected")
    assert_error(claim(guardian_api, rejected.player_id), 404)


def test_admin_queue_with_evidence_player_and_nominator(
    guardian_api: ApiClient, admin_api: ApiClient, nomination: Nomination, scout: User
) -> None:
    claim(guardian_api, nomination.player_id)

    queue = admin_api.get("/api/admin/claims?status=pending").json()

    assert len(queue) == 1
    assert queue[0]["evidence"].startswith("Her club's roster")
    assert queue[0]["player"]["name"] == "Mia Jones"
    assert queue[0]["nominatedBy"] == [
        {"id": scout.pk, "name": scout.name, "username": scout.username}
    ]


def test_the_queue_is_for_admins_with_their_second_factor(
    settings: Any, scout_api: ApiClient, admin_api: ApiClient
) -> None:
    assert_code(scout_api.get("/api/admin/claims"), 403, "admin_required")
    settings.ADMIN_2FA_REQUIRED = True
    assert_code(admin_api.get("/api/admin/claims"), 403, "two_factor_required")
    assert_code(admin_api.post("/api/admin/claims/1/approve"), 403, "two_factor_required")


def test_approval_hands_the_page_to_the_family(
    guardian_api: ApiClient,
    admin_api: ApiClient,
    nomination: Nomination,
    guardian: User,
    scout: User,
    scout_api: ApiClient,
    events: EventRecorder,
) -> None:
    claim_id = claim(guardian_api, nomination.player_id).json()["id"]
    assert events.one("claims.changed").data["pending"] == 1
    events.clear()

    response = admin_api.post(f"/api/admin/claims/{claim_id}/approve", {"reason": "Roster ok"})

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "approved"
    player = Player.objects.get(pk=nomination.player_id)
    assert player.claimed_by == guardian
    assert player.hidden_at is None
    # The feed, live.
    activity = Activity.objects.get(activity_type="player_claimed")
    assert activity.user == guardian and activity.related_player_id == player.pk
    assert [e.data["activityType"] for e in events.of_type("activity.created")] == [
        "player_claimed"
    ]
    # The claimant and the nominator are told.
    assert Notification.objects.filter(user=guardian, message__contains="approved").exists()
    assert Notification.objects.filter(
        user=scout, message="Mia Jones's profile is now managed by the athlete's family."
    ).exists()
    # Every open page gets the badge; every admin's queue its new count.
    updated = events.one("nomination.updated")
    assert updated.data["player"]["managedBy"] == "family"
    changed = events.one("claims.changed")
    assert changed.data["pending"] == 0 and changed.data["action"] == "approved"
    # The moderation log.
    entry = ModlogEntry.objects.get(action="claim_approve")
    assert entry.target_id == player.pk and entry.reason == "Roster ok"
    # Members read it.
    read = scout_api.get(f"/api/nominations/{nomination.pk}").json()
    assert read["player"]["managedBy"] == "family"


def test_a_claimed_player_answers_409(
    guardian_api: ApiClient, admin_api: ApiClient, nomination: Nomination
) -> None:
    rival_api = ApiClient().login(make_user())
    first = claim(guardian_api, nomination.player_id).json()["id"]
    second = claim(rival_api, nomination.player_id).json()["id"]
    assert admin_api.post(f"/api/admin/claims/{first}/approve").status_code == 200

    assert_code(
        admin_api.post(f"/api/admin/claims/{second}/approve"), 409, "player_already_claimed"
    )
    assert_code(
        claim(ApiClient().login(make_user()), nomination.player_id), 409, "player_already_claimed"
    )
    assert_code(admin_api.post(f"/api/admin/claims/{first}/approve"), 409, "already_decided")


def test_rejection_tells_the_claimant_and_logs(
    guardian_api: ApiClient, admin_api: ApiClient, nomination: Nomination, guardian: User
) -> None:
    claim_id = claim(guardian_api, nomination.player_id).json()["id"]

    response = admin_api.post(f"/api/admin/claims/{claim_id}/reject", {"reason": "No proof"})

    assert response.json()["status"] == "rejected"
    assert Player.objects.get(pk=nomination.player_id).claimed_by is None
    assert Notification.objects.get(user=guardian).message.endswith("Reason: No proof")
    assert ModlogEntry.objects.filter(action="claim_reject", reason="No proof").exists()
    # Rejected, the member may claim again with better evidence.
    assert claim(guardian_api, nomination.player_id).status_code == 201


def test_the_athlete_from_16_is_managed_by_the_athlete(
    admin_api: ApiClient, scout: User, events: EventRecorder
) -> None:
    nomination = make_nomination(scout, age=17)
    athlete_api = ApiClient().login(make_user())
    claim_id = claim(
        athlete_api, nomination.player_id, relationship="self", birthYear=YEAR - 18
    ).json()["id"]

    admin_api.post(f"/api/admin/claims/{claim_id}/approve")

    assert events.one("nomination.updated").data["player"]["managedBy"] == "athlete"


def test_the_family_that_asked_a_takedown_has_it_carried_out(
    guardian_api: ApiClient, admin_api: ApiClient, nomination: Nomination, guardian: User
) -> None:
    TakedownRequest.objects.create(
        player_id=nomination.player_id,
        relationship="parent_or_guardian",
        kind="remove",
        contact_email=guardian.email.upper(),
        status=TakedownStatus.PENDING,
    )
    claim_id = claim(guardian_api, nomination.player_id).json()["id"]

    admin_api.post(f"/api/admin/claims/{claim_id}/approve")

    assert Player.objects.get(pk=nomination.player_id).hidden_at is not None
    assert not Activity.objects.filter(activity_type="player_claimed").exists()


def test_once_claimed_the_nominator_edit_ends_and_the_claimant_edits(
    guardian_api: ApiClient,
    admin_api: ApiClient,
    scout_api: ApiClient,
    nomination: Nomination,
) -> None:
    claim_id = claim(guardian_api, nomination.player_id).json()["id"]
    admin_api.post(f"/api/admin/claims/{claim_id}/approve")
    body = {
        "name": "Mia Jones",
        "age": 11,
        "position": "Winger",
        "nationality": "Portugal",
        "club": "Benfica U12",
        "sport": "football",
    }

    assert_code(scout_api.put(f"/api/players/{nomination.player_id}", body), 403, "player_claimed")
    assert guardian_api.put(f"/api/players/{nomination.player_id}", body).status_code == 200
    assert admin_api.put(f"/api/players/{nomination.player_id}", body).status_code == 200
    assert Player.objects.get(pk=nomination.player_id).club == "Benfica U12"
