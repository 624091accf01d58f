"""Approving and rejecting nominations: shapes, points, notifications, events, conflicts."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection

from project.accounts.models import Role, User, UserSettings
from project.scouting.models import Nomination, Notification
from tests.builders import make_nomination, make_user
from tests.helpers import ApiClient, EventRecorder, assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def pending(scout: User) -> Nomination:
    return make_nomination(scout, sport="basketball", name="Jordan Quick")


def read_shape(nomination: Nomination, *, status: str, has_voted: bool = False) -> dict[str, Any]:
    player = nomination.player
    nominator = nomination.nominated_by
    return {
        "id": nomination.pk,
        "player": {
            "id": player.pk,
            "name": player.name,
            "age": player.age,
            "graduationYear": player.graduation_year,
            "position": player.position,
            "nationality": player.nationality,
            "club": player.club,
            "sport": player.sport,
            "skills": player.skills,
            "videoLink": player.video_link,
            "verified": player.verified,
            "managedBy": None,
        },
        "nominatedBy": {"id": nominator.pk, "name": nominator.name, "username": nominator.username},
        "createdAt": DjangoJSONEncoder().default(nomination.created_at),
        "status": status,
        "voteCount": nomination.vote_count,
        "version": nomination.version,
        "commentCount": 0,
        "hasVoted": has_voted,
    }


def test_approve(
    admin_api: ApiClient,
    admin_user: User,
    scout: User,
    pending: Nomination,
    events: EventRecorder,
    django_capture_on_commit_callbacks: Any,
) -> None:
    scout.refresh_from_db()
    points = scout.points

    with django_capture_on_commit_callbacks(execute=True):
        response = admin_api.post(f"/api/admin/nominations/{pending.pk}/approve")

    assert response.status_code == 200, response.content
    assert response.json() == read_shape(pending, status="approved")
    pending.refresh_from_db()
    assert (pending.status, pending.reviewed_by_id) == ("approved", admin_user.pk)
    assert pending.reviewed_at is not None
    scout.refresh_from_db()
    assert scout.points == points + 25
    notification = Notification.objects.get(user=scout, type="nomination_approved")
    assert notification.message == "Your nomination of Jordan Quick has been approved."
    assert notification.related_nomination_id == pending.pk

    item = {key: value for key, value in read_shape(pending, status="approved").items()}
    del item["hasVoted"]
    by = {"id": admin_user.pk, "name": "Ada Admin", "username": admin_user.username}
    assert events.one("modlog.created").admins
    assert events.one("notification.created").user_ids == (scout.pk,)
    queue = [e for e in events if e.type.startswith(("moderation.", "nomination."))]
    assert [(e.type, e.sport, e.user_ids, e.admins, e.data) for e in queue] == [
        (
            "moderation.changed",
            None,
            (),
            True,
            {
                "pending": 0,
                "approved": 1,
                "rejected": 0,
                "item": item,
                "action": "approved",
                "by": by,
            },
        ),
        ("nomination.updated", "basketball", (scout.pk,), True, item),
    ]


def test_reject_with_a_reason(
    admin_api: ApiClient,
    admin_user: User,
    scout: User,
    pending: Nomination,
    events: EventRecorder,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_api.post(
            f"/api/admin/nominations/{pending.pk}/reject", {"reason": "  Video link is broken  "}
        )

    assert response.status_code == 200, response.content
    assert response.json() == read_shape(pending, status="rejected")
    pending.refresh_from_db()
    assert pending.status == "rejected"
    assert pending.rejection_reason == "Video link is broken"
    notification = Notification.objects.get(user=scout, type="nomination_rejected")
    assert notification.message == (
        "Your nomination of Jordan Quick was rejected. Reason: Video link is broken"
    )
    assert events.one("modlog.created").admins
    queue = [e for e in events if e.type.startswith(("moderation.", "nomination."))]
    kinds = [(e.type, e.sport, e.user_ids, e.admins) for e in queue]
    assert kinds == [
        ("moderation.changed", None, (), True),
        ("nomination.removed", "basketball", (), False),
        ("nomination.updated", None, (scout.pk,), True),
    ]
    assert queue[0].data["action"] == "rejected"
    assert (queue[0].data["pending"], queue[0].data["rejected"]) == (0, 1)
    assert queue[1].data == {"id": pending.pk}


@pytest.mark.parametrize("body", [None, {}, {"reason": ""}, {"reason": "   "}, {"reason": None}])
def test_reject_without_a_reason(
    admin_api: ApiClient, scout: User, pending: Nomination, body: Any
) -> None:
    response = admin_api.post(f"/api/admin/nominations/{pending.pk}/reject", body)

    assert response.status_code == 200, response.content
    pending.refresh_from_db()
    assert (pending.status, pending.rejection_reason) == ("rejected", "")
    notification = Notification.objects.get(user=scout, type="nomination_rejected")
    assert notification.message == "Your nomination of Jordan Quick was rejected."


@pytest.mark.parametrize(
    ("reason", "message"),
    [("x" * 501, "Reason must be at most 500 characters"), ("NUL \x00", "Invalid input")],
)
def test_reject_reason_validation(
    admin_api: ApiClient, pending: Nomination, reason: str, message: str
) -> None:
    response = admin_api.post(f"/api/admin/nominations/{pending.pk}/reject", {"reason": reason})
    body = assert_error(response, 400, message)
    assert body["fields"] == {"reason": message}
    pending.refresh_from_db()
    assert pending.status == "pending"


def test_nomination_notifications_follow_the_users_setting(
    admin_api: ApiClient, scout: User, pending: Nomination
) -> None:
    UserSettings.objects.filter(user=scout).update(nomination_notifications=False)
    assert admin_api.post(f"/api/admin/nominations/{pending.pk}/approve").status_code == 200
    assert not Notification.objects.filter(user=scout, type="nomination_approved").exists()


@pytest.mark.parametrize(
    ("first", "second", "message"),
    [
        ("approve", "approve", "Already approved by Ada Admin"),
        ("approve", "reject", "Already approved by Ada Admin"),
        ("reject", "approve", "Already rejected by Ada Admin"),
        ("reject", "reject", "Already rejected by Ada Admin"),
    ],
)
def test_a_decided_nomination_answers_409_naming_who_decided(
    admin_api: ApiClient,
    admin_user: User,
    scout: User,
    pending: Nomination,
    first: str,
    second: str,
    message: str,
) -> None:
    other_admin = ApiClient().login(make_user(role=Role.ADMIN, name="Bea Boss"))
    assert admin_api.post(f"/api/admin/nominations/{pending.pk}/{first}").status_code == 200
    scout.refresh_from_db()
    points = scout.points

    response = other_admin.post(f"/api/admin/nominations/{pending.pk}/{second}")

    assert response.status_code == 409
    status = "approved" if first == "approve" else "rejected"
    assert response.json() == {
        "message": message,
        "code": "already_decided",
        "status": status,
        "decidedBy": {"id": admin_user.pk, "name": "Ada Admin", "username": admin_user.username},
    }
    scout.refresh_from_db()
    assert scout.points == points
    assert Notification.objects.filter(user=scout, related_nomination=pending).count() == 1


def test_deciding_an_unknown_nomination_is_404(admin_api: ApiClient) -> None:
    assert_error(
        admin_api.post("/api/admin/nominations/999999/approve"), 404, "Nomination not found"
    )
    assert_error(
        admin_api.post("/api/admin/nominations/999999/reject"), 404, "Nomination not found"
    )


@pytest.mark.parametrize("action", ["approve", "reject"])
def test_only_admins_decide(
    api: ApiClient, scout_api: ApiClient, pending: Nomination, action: str
) -> None:
    path = f"/api/admin/nominations/{pending.pk}/{action}"
    assert_error(api.post(path), 401)
    assert_error(scout_api.post(path), 403, "Admin access required")
    pending.refresh_from_db()
    assert pending.status == "pending"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("first", "second"), [("approve", "approve"), ("approve", "reject")])
def test_two_admins_deciding_at_once_one_wins_the_other_hears_who(first: str, second: str) -> None:
    nominator = make_user(name="Nora Nominator")
    nomination = make_nomination(nominator, sport="soccer")
    start_points = User.objects.get(pk=nominator.pk).points
    admins = [make_user(role=Role.ADMIN, name=f"Admin {n}") for n in (1, 2)]
    clients = [ApiClient().login(admin) for admin in admins]
    barrier = threading.Barrier(2)
    results: dict[int, Any] = {}

    def decide(index: int, action: str) -> None:
        try:
            barrier.wait(timeout=10)
            response = clients[index].post(f"/api/admin/nominations/{nomination.pk}/{action}")
            results[index] = (response.status_code, response.json())
        finally:
            connection.close()

    threads = [
        threading.Thread(target=decide, args=(0, first)),
        threading.Thread(target=decide, args=(1, second)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    assert sorted(status for status, _ in results.values()) == [200, 409]
    winner = next(i for i, (status, _) in results.items() if status == 200)
    loser_body = next(body for status, body in results.values() if status == 409)
    nomination.refresh_from_db()
    assert nomination.reviewed_by_id == admins[winner].pk
    decided = nomination.status
    assert loser_body["code"] == "already_decided"
    assert loser_body["message"] == f"Already {decided} by Admin {winner + 1}"
    assert loser_body["decidedBy"]["id"] == admins[winner].pk
    expected_points = start_points + (25 if decided == "approved" else 0)
    assert User.objects.get(pk=nominator.pk).points == expected_points
    assert Notification.objects.filter(user=nominator, related_nomination=nomination).count() == 1
