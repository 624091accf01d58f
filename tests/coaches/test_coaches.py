"""Verified coaches and their endorsements (project/coaches): who may write what, who sees the
rating, one endorsement per coach, the claimant's hiding, reports, the live events."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from project.accounts.models import Role, User
from project.coaches.models import CoachVerification
from project.coaches.services import NOT_VERIFIED_COACH
from project.moderation.models import Report
from project.modlog.models import ModlogEntry
from project.notify.models import OutboundEvent
from project.scouting.models import Activity, Endorsement, Nomination, Notification
from tests.builders import follow, make_nomination, make_user
from tests.helpers import ApiClient, EventRecorder, assert_error, run_tasks

pytestmark = pytest.mark.django_db(transaction=True)

YEAR = timezone.localdate().year


def assert_code(response: Any, status: int, code: str) -> dict[str, Any]:
    body = assert_error(response, status)
    assert body["code"] == code, body
    return body


def ask(api: ApiClient, **overrides: Any) -> Any:
    body: dict[str, Any] = {
        "organization": "Lisbon Juniors FC",
        "roleTitle": "Head coach, U14",
        "evidenceUrl": "https://lisbonjuniors.example/staff",
    }
    body.update(overrides)
    return api.post("/api/coach-verifications", body)


def verified_coach(admin_api: ApiClient, **fields: Any) -> tuple[User, ApiClient]:
    coach = make_user(**fields)
    coach_api = ApiClient().login(coach)
    response = ask(coach_api)
    assert response.status_code == 201, response.content
    approved = admin_api.post(f"/api/admin/coach-verifications/{response.json()['id']}/approve")
    assert approved.status_code == 200, approved.content
    return coach, coach_api


def claimed(nomination: Nomination, admin_api: ApiClient) -> tuple[User, ApiClient]:
    claimant = make_user(name="Rita Jones")
    claimant_api = ApiClient().login(claimant)
    response = claimant_api.post(
        f"/api/players/{nomination.player_id}/claims",
        {"relationship": "parent_or_guardian", "birthYear": YEAR - 12, "evidence": "Roster"},
    )
    assert response.status_code == 201, response.content
    assert admin_api.post(f"/api/admin/claims/{response.json()['id']}/approve").status_code == 200
    return claimant, claimant_api


def endorse(api: ApiClient, player_id: int, **overrides: Any) -> Any:
    body: dict[str, Any] = {"content": "Reads the game two passes ahead.", "rating": 4}
    body.update(overrides)
    return api.post(f"/api/players/{player_id}/endorsements", body)


@pytest.fixture
def nomination(scout: User) -> Nomination:
    return make_nomination(scout, name="Mia Jones", age=11, status="approved")


@pytest.fixture
def coach(admin_api: ApiClient) -> tuple[User, ApiClient]:
    return verified_coach(admin_api, name="Carla Coach")


# --- Verification -----------------------------------------------------------------------------


def test_a_member_asks_and_an_admin_approves(
    scout_api: ApiClient, scout: User, admin_api: ApiClient, events: EventRecorder
) -> None:
    response = ask(scout_api)
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "pending"
    queue = admin_api.get("/api/admin/coach-verifications?status=pending").json()
    assert [item["user"]["id"] for item in queue] == [scout.pk]
    assert queue[0]["evidenceUrl"] == "https://lisbonjuniors.example/staff"
    changed = events.one("coaches.changed")
    assert changed.admins and changed.data["pending"] == 1
    assert changed.data["action"] == "created"

    events.clear()
    approved = admin_api.post(
        f"/api/admin/coach-verifications/{queue[0]['id']}/approve", {"reason": "Staff page"}
    )
    assert approved.status_code == 200, approved.content
    assert approved.json()["status"] == "approved"
    scout.refresh_from_db()
    assert scout.role == Role.COACH
    assert scout.pk in scout_api.get("/api/coaches").json()["ids"]
    assert events.one("coaches.changed").data == {
        **events.one("coaches.changed").data,
        "pending": 0,
        "action": "approved",
    }
    entry = ModlogEntry.objects.get(action="coach_approve")
    assert entry.target_id == scout.pk and entry.reason == "Staff page"
    assert Notification.objects.filter(user=scout, message__contains="verified coach").exists()
    assert_code(ask(scout_api), 409, "already_verified")


def test_a_request_needs_evidence_and_one_stays_open(scout_api: ApiClient) -> None:
    body = assert_error(ask(scout_api, evidenceUrl=None), 400)
    assert "roster or staff page link, a work email" in body["message"]
    assert_error(ask(scout_api, evidenceUrl="not a link"), 400)
    assert ask(scout_api).status_code == 201
    assert_code(ask(scout_api), 409, "verification_open")


def test_the_work_email_gets_a_signed_link_that_confirms_it(
    scout_api: ApiClient, admin_api: ApiClient, events: EventRecorder
) -> None:
    response = ask(scout_api, evidenceUrl=None, workEmail="carla@lisbonjuniors.example")
    assert response.status_code == 201, response.content
    assert response.json()["emailConfirmed"] is False
    run_tasks()
    [email] = [m for m in mail.outbox if "carla@lisbonjuniors.example" in m.to]
    token = email.body.split("/coach/confirm-email?token=")[1].split()[0]

    assert_code(
        ApiClient().post("/api/coach-verifications/confirm-email", {"token": token + "x"}),
        400,
        "link_invalid",
    )
    events.clear()
    # The link opens in any browser, signed in or not.
    confirmed = ApiClient().post("/api/coach-verifications/confirm-email", {"token": token})
    assert confirmed.status_code == 200, confirmed.content
    assert confirmed.json()["emailConfirmed"] is True
    assert events.one("coaches.changed").data["action"] == "email_confirmed"
    [item] = admin_api.get("/api/admin/coach-verifications").json()
    assert item["emailConfirmed"] is True


def test_reject_and_withdraw(
    scout_api: ApiClient, scout: User, admin_api: ApiClient, nomination: Nomination
) -> None:
    first = ask(scout_api).json()
    rejected = admin_api.post(
        f"/api/admin/coach-verifications/{first['id']}/reject", {"reason": "No staff page"}
    )
    assert rejected.json()["status"] == "rejected"
    assert_code(
        admin_api.post(f"/api/admin/coach-verifications/{first['id']}/approve"),
        409,
        "already_decided",
    )
    scout.refresh_from_db()
    assert scout.role == Role.SCOUT
    assert Notification.objects.filter(user=scout, message__contains="No staff page").exists()

    second = ask(scout_api).json()
    admin_api.post(f"/api/admin/coach-verifications/{second['id']}/approve")
    assert endorse(scout_api, nomination.player_id).status_code == 201
    member_api = ApiClient().login(make_user())
    assert member_api.get(f"/api/players/{nomination.player_id}/endorsements").json()["count"] == 1

    withdrawn = admin_api.post(
        f"/api/admin/coach-verifications/{second['id']}/withdraw", {"reason": "Left the club"}
    )
    assert withdrawn.status_code == 200, withdrawn.content
    scout.refresh_from_db()
    assert scout.role == Role.SCOUT
    assert scout.pk not in member_api.get("/api/coaches").json()["ids"]
    # Withdrawing the badge hides the coach's endorsements everywhere, admins' reads included.
    for reader in (member_api, admin_api):
        read = reader.get(f"/api/players/{nomination.player_id}/endorsements").json()
        assert read["items"] == [] and read["count"] == 0
    assert ModlogEntry.objects.filter(action="coach_withdraw").count() == 1
    assert_code(endorse(scout_api, nomination.player_id), 403, "not_verified_coach")


def test_only_admins_decide(scout_api: ApiClient, other_api: ApiClient, api: ApiClient) -> None:
    pk = ask(scout_api).json()["id"]
    assert api.get("/api/admin/coach-verifications").status_code == 401
    assert other_api.get("/api/admin/coach-verifications").status_code == 403
    assert other_api.post(f"/api/admin/coach-verifications/{pk}/approve").status_code == 403
    assert CoachVerification.objects.get().status == "pending"


def test_an_admin_approved_as_coach_stays_admin(admin_user: User, admin_api: ApiClient) -> None:
    pk = ask(admin_api).json()["id"]
    assert admin_api.post(f"/api/admin/coach-verifications/{pk}/approve").status_code == 200
    admin_user.refresh_from_db()
    assert admin_user.role == Role.ADMIN
    assert admin_user.pk in admin_api.get("/api/coaches").json()["ids"]


# --- Endorsements: who writes, who sees ---------------------------------------------------------


def test_permission_matrix_for_writing(
    api: ApiClient,
    scout_api: ApiClient,
    admin_api: ApiClient,
    nomination: Nomination,
    coach: tuple[User, ApiClient],
) -> None:
    player_id = nomination.player_id
    _, claimant_api = claimed(nomination, admin_api)
    unverified = make_user()
    unverified_api = ApiClient().login(unverified)
    assert ask(unverified_api).status_code == 201  # asked, not yet verified

    assert endorse(api, player_id).status_code == 401
    for who in (scout_api, unverified_api, claimant_api, admin_api):
        assert_error(endorse(who, player_id), 403, NOT_VERIFIED_COACH)
    assert not Endorsement.objects.exists()
    assert endorse(coach[1], player_id).status_code == 201


def test_one_endorsement_per_coach_the_second_is_an_edit(
    nomination: Nomination, coach: tuple[User, ApiClient]
) -> None:
    coach_user, coach_api = coach
    first = endorse(coach_api, nomination.player_id)
    assert first.status_code == 201
    second = endorse(coach_api, nomination.player_id, content="Even better now.", rating=5)
    assert second.status_code == 200, second.content
    assert second.json()["id"] == first.json()["id"]
    row = Endorsement.objects.get()
    assert (row.content, row.rating, row.endorser_id) == ("Even better now.", 5, coach_user.pk)
    # The feed says it once.
    assert Activity.objects.filter(activity_type="endorsement_given").count() == 1


def test_bounds_of_text_and_rating(nomination: Nomination, coach: tuple[User, ApiClient]) -> None:
    coach_api = coach[1]
    assert_error(endorse(coach_api, nomination.player_id, content="x" * 2001), 400)
    assert_error(endorse(coach_api, nomination.player_id, content="   "), 400)
    assert_error(endorse(coach_api, nomination.player_id, rating=0), 400)
    assert_error(endorse(coach_api, nomination.player_id, rating=6), 400)
    assert endorse(coach_api, nomination.player_id, content="x" * 2000).status_code == 201


def test_rating_visibility_per_reader(
    api: ApiClient,
    scout_api: ApiClient,
    admin_api: ApiClient,
    nomination: Nomination,
    coach: tuple[User, ApiClient],
) -> None:
    player_id = nomination.player_id
    endorse(coach[1], player_id, rating=3)
    _, claimant_api = claimed(nomination, admin_api)
    _, other_coach_api = verified_coach(admin_api)
    unverified_api = ApiClient().login(make_user())
    ask(unverified_api)

    path = f"/api/players/{player_id}/endorsements"
    assert api.get(path).status_code == 401  # the public sees nothing of endorsements
    for reader, sees in (
        (scout_api, False),
        (unverified_api, False),
        (other_coach_api, True),
        (coach[1], True),
        (claimant_api, True),
        (admin_api, True),
    ):
        body = reader.get(path).json()
        [item] = body["items"]
        assert item["content"] == "Reads the game two passes ahead."
        assert item["coach"]["name"] == "Carla Coach"
        assert item["coach"]["organization"] == "Lisbon Juniors FC"
        assert item["rating"] == (3 if sees else None), reader.user
        assert body["ratingVisible"] is sees


def test_own_endorsement_put_and_delete(
    nomination: Nomination, admin_api: ApiClient, coach: tuple[User, ApiClient]
) -> None:
    endorsement_id = endorse(coach[1], nomination.player_id).json()["id"]
    path = f"/api/players/{nomination.player_id}/endorsements/{endorsement_id}"
    _, other_coach_api = verified_coach(admin_api)
    body = {"content": "Changed", "rating": 2}
    assert_code(other_coach_api.put(path, body), 403, "not_your_endorsement")
    assert_code(other_coach_api.delete(path), 403, "not_your_endorsement")
    assert_code(admin_api.delete(path), 403, "not_your_endorsement")
    updated = coach[1].put(path, body)
    assert updated.status_code == 200 and updated.json()["content"] == "Changed"
    assert coach[1].delete(path).status_code == 204
    assert not Endorsement.objects.exists()


def test_claimant_and_followers_are_told_and_the_feed_shows_it(
    nomination: Nomination,
    admin_api: ApiClient,
    coach: tuple[User, ApiClient],
    events: EventRecorder,
) -> None:
    claimant, _ = claimed(nomination, admin_api)
    fan = make_user()
    follow(fan, player=nomination.player)
    events.clear()
    assert endorse(coach[1], nomination.player_id).status_code == 201

    told = Notification.objects.filter(type="endorsement_received")
    assert set(told.values_list("user_id", flat=True)) == {claimant.pk, fan.pk}
    # Their emails and pushes go through notify, under their toggles at dispatch.
    outbound = OutboundEvent.objects.filter(kind="endorsement_received")
    assert set(outbound.values_list("user_id", flat=True)) == {claimant.pk, fan.pk}
    assert "Carla Coach, a verified coach, endorsed Mia Jones." in told.get(user=claimant).message
    activity = Activity.objects.get(activity_type="endorsement_given")
    assert activity.related_player_id == nomination.player_id
    assert "rating" not in activity.metadata
    assert "activity.created" in events.types()
    changed = events.one("endorsements.changed")
    assert changed.data == {"playerId": nomination.player_id, "count": 1}
    assert changed.sport == nomination.sport and changed.admins
    assert claimant.pk in changed.user_ids


def test_the_claimant_hides_an_endorsement(
    scout_api: ApiClient,
    admin_api: ApiClient,
    nomination: Nomination,
    coach: tuple[User, ApiClient],
) -> None:
    endorsement_id = endorse(coach[1], nomination.player_id).json()["id"]
    _, claimant_api = claimed(nomination, admin_api)
    hide = f"/api/players/{nomination.player_id}/endorsements/{endorsement_id}/hide"
    for who in (scout_api, coach[1], admin_api):
        assert_code(who.post(hide), 403, "not_claimant")
    assert claimant_api.post(hide).status_code == 204

    path = f"/api/players/{nomination.player_id}/endorsements"
    assert scout_api.get(path).json() == {**scout_api.get(path).json(), "items": [], "count": 0}
    mine = claimant_api.get(path).json()
    assert mine["canHide"] is True and [i["hidden"] for i in mine["items"]] == [True]
    assert claimant_api.post(hide.replace("/hide", "/show")).status_code == 204
    assert scout_api.get(path).json()["count"] == 1


def test_a_member_who_cannot_see_the_player_gets_404(
    scout: User, coach: tuple[User, ApiClient]
) -> None:
    rejected = make_nomination(scout, status="rejected")
    stranger_api = ApiClient().login(make_user())
    assert stranger_api.get(f"/api/players/{rejected.player_id}/endorsements").status_code == 404
    assert endorse(coach[1], rejected.player_id).status_code == 404


# --- Reports ----------------------------------------------------------------------------------


def test_reports_apply_to_endorsements(
    scout_api: ApiClient,
    scout: User,
    admin_api: ApiClient,
    nomination: Nomination,
    coach: tuple[User, ApiClient],
    events: EventRecorder,
) -> None:
    endorsement_id = endorse(coach[1], nomination.player_id).json()["id"]
    events.clear()
    body = {"endorsementId": endorsement_id, "reason": "inappropriate", "text": "Rude"}
    assert scout_api.post("/api/reports", body).status_code == 201
    assert_code(scout_api.post("/api/reports", body), 409, "already_reported")
    assert_code(coach[1].post("/api/reports", body), 400, "own_account")
    group = events.one("report.created").data
    assert group["targetType"] == "endorsement" and group["count"] == 1
    assert group["endorsement"]["rating"] == 4  # admins see it
    assert group["endorsement"]["nominationId"] == nomination.pk
    [listed] = admin_api.get("/api/admin/reports").json()
    assert listed["targetId"] == endorsement_id

    assert_code(
        admin_api.post(
            "/api/admin/reports/resolve",
            {"endorsementId": endorsement_id, "action": "hide_nomination", "reason": "x"},
        ),
        400,
        "not_for_endorsements",
    )
    events.clear()
    resolved = admin_api.post(
        "/api/admin/reports/resolve",
        {"endorsementId": endorsement_id, "action": "hide_endorsement", "reason": "Abusive"},
    )
    assert resolved.status_code == 200, resolved.content
    assert Report.objects.get().resolution == "hide_endorsement"
    path = f"/api/players/{nomination.player_id}/endorsements"
    assert scout_api.get(path).json()["items"] == []
    assert events.one("endorsements.changed").data["count"] == 0
    assert ModlogEntry.objects.get(action="report_resolve").target_type == "endorsement"


def test_the_coach_export_holds_requests_and_endorsements(
    nomination: Nomination, coach: tuple[User, ApiClient]
) -> None:
    endorse(coach[1], nomination.player_id)
    exported = coach[1].get("/api/profile/export").json()
    assert [row["organization"] for row in exported["coachVerifications"]] == ["Lisbon Juniors FC"]
    assert [row["content"] for row in exported["endorsements"]] == [
        "Reads the game two passes ahead."
    ]


def test_the_public_preview_carries_nothing_of_endorsements(
    settings: Any, tmp_path: Any, scout: User, coach: tuple[User, ApiClient]
) -> None:
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "index.html").write_text(
        "<!doctype html><html><head><title>ScoutVote</title></head><body></body></html>", "utf-8"
    )
    settings.SPA_DIST_DIR = dist
    teen = make_nomination(scout, name="Lia Long", age=16, status="approved")
    endorse(coach[1], teen.player_id, content="Unmistakable first touch.", rating=5)
    html = Client().get(f"/nominations/{teen.pk}").content.decode()
    assert "Lia Long" in html  # the page does unfold into the player's preview
    for told in ("Unmistakable first touch.", "Carla Coach", "ndorse", "verified coach"):
        assert told not in html, told


def test_the_claimants_export_of_the_player_holds_its_endorsements_with_ratings(
    nomination: Nomination, coach: tuple[User, ApiClient], admin_api: ApiClient
) -> None:
    _, coach_api = coach
    assert endorse(coach_api, nomination.player_id, rating=5).status_code == 201
    _, claimant_api = claimed(nomination, admin_api)

    body = claimant_api.get(f"/api/players/{nomination.player_id}/export").json()

    assert [(e["coach"], e["rating"], e["hidden"]) for e in body["endorsements"]] == [
        ("Carla Coach", 5, False)
    ]
