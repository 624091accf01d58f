"""Verifying players, changing roles and deleting users as an admin."""

from __future__ import annotations

from typing import Any

import pytest

from project.accounts.models import Role, User
from project.scouting.models import Player
from realtime.publish import Event
from tests.accounts.factories import assert_counters_equal_rows, assert_nothing_left_of, build_world
from tests.builders import make_nomination, make_user, second_nomination, vote
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def events(monkeypatch: pytest.MonkeyPatch) -> list[Event]:
    published: list[Event] = []
    for subject in ("decisions", "takedowns", "reports"):
        monkeypatch.setattr(f"project.moderation.services.{subject}.publish", published.append)
    # Nomination events are built and published by their one audience rule.
    monkeypatch.setattr("project.scouting.services.audience.publish", published.append)
    return published


@pytest.fixture
def closed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, str]]:
    calls: list[tuple[int, str]] = []
    monkeypatch.setattr(
        "project.moderation.services.users.close_user_sockets",
        lambda user_id, *, reason: calls.append((user_id, reason)),
    )
    return calls


# --- Verified players -------------------------------------------------------------------


def test_verify_and_unverify_a_player(
    admin_api: ApiClient, scout: User, other_scout: User, events: list[Event]
) -> None:
    nomination = make_nomination(scout, sport="hockey", name="Vera Verified")
    rejected = second_nomination(
        nomination.player, by=other_scout, sport="hockey", status="rejected"
    )
    path = f"/api/admin/players/{nomination.player_id}/verified"
    events.clear()

    response = admin_api.put(path, {"verified": True})

    assert response.status_code == 200
    player = nomination.player
    assert response.json() == {
        "id": player.pk,
        "name": "Vera Verified",
        "age": 15,
        "graduationYear": None,
        "position": "Guard",
        "nationality": "Canada",
        "club": "Toronto Academy",
        "sport": "hockey",
        "skills": "Vision",
        "videoLink": "",
        "verified": True,
        "managedBy": None,
    }
    assert Player.objects.get(pk=player.pk).verified is True
    published = sorted(
        ((e.type, e.data["id"], e.sport, e.user_ids, e.admins) for e in events),
        key=lambda row: row[1],
    )
    assert published == [
        ("nomination.updated", nomination.pk, "hockey", (scout.pk,), True),
        ("nomination.updated", rejected.pk, None, (other_scout.pk,), True),
    ]
    assert all(e.data["player"]["verified"] is True for e in events)

    response = admin_api.put(path, {"verified": False})
    assert response.json()["verified"] is False
    assert Player.objects.get(pk=player.pk).verified is False


def test_setting_the_same_verified_value_publishes_nothing(
    admin_api: ApiClient, scout: User, events: list[Event]
) -> None:
    nomination = make_nomination(scout, sport="soccer")
    events.clear()
    response = admin_api.put(
        f"/api/admin/players/{nomination.player_id}/verified", {"verified": False}
    )
    assert response.status_code == 200
    assert events == []


@pytest.mark.parametrize(
    ("body", "message"),
    [({}, "Required"), ({"verified": "yes"}, "verified must be true or false")],
)
def test_verified_validation(
    admin_api: ApiClient, scout: User, body: dict[str, Any], message: str
) -> None:
    nomination = make_nomination(scout, sport="soccer")
    response = admin_api.put(f"/api/admin/players/{nomination.player_id}/verified", body)
    assert assert_error(response, 400, message)["fields"] == {"verified": message}


def test_verifying_an_unknown_player_is_404(admin_api: ApiClient) -> None:
    response = admin_api.put("/api/admin/players/999999/verified", {"verified": True})
    assert_error(response, 404, "Player not found")


# --- Roles ------------------------------------------------------------------------------


def admin_user_shape(user: User) -> dict[str, Any]:
    user.refresh_from_db()
    return {
        "id": user.pk,
        "name": user.name,
        "username": user.username,
        "email": user.email,
        "role": user.role,
        "points": user.points,
    }


def test_promote_and_demote(
    admin_api: ApiClient, scout: User, closed: list[tuple[int, str]]
) -> None:
    scout_client = ApiClient().login(scout)
    assert_error(scout_client.get("/api/admin/stats"), 403)

    response = admin_api.put(f"/api/admin/users/{scout.pk}/role", {"role": "admin"})

    assert response.status_code == 200
    assert response.json() == admin_user_shape(scout)
    assert response.json()["role"] == "admin"
    assert scout.is_staff
    assert closed == [(scout.pk, "role_changed")]
    assert scout_client.get("/api/admin/stats").status_code == 200

    response = admin_api.put(f"/api/admin/users/{scout.pk}/role", {"role": "scout"})
    assert response.json()["role"] == "scout"
    scout.refresh_from_db()
    assert not scout.is_staff
    assert_error(scout_client.get("/api/admin/stats"), 403)


@pytest.mark.parametrize("role", ["player", "coach", "superuser", ""])
def test_only_scout_or_admin_can_be_assigned(admin_api: ApiClient, scout: User, role: str) -> None:
    response = admin_api.put(f"/api/admin/users/{scout.pk}/role", {"role": role})
    body = assert_error(response, 400, "Role must be scout or admin")
    assert body["fields"] == {"role": "Role must be scout or admin"}
    scout.refresh_from_db()
    assert scout.role == "scout"


def test_an_admin_cannot_change_their_own_role(admin_api: ApiClient, admin_user: User) -> None:
    response = admin_api.put(f"/api/admin/users/{admin_user.pk}/role", {"role": "scout"})
    assert_error(response, 400, "You cannot change your own role")
    admin_user.refresh_from_db()
    assert admin_user.role == "admin"


def test_changing_the_role_of_an_unknown_user_is_404(admin_api: ApiClient) -> None:
    response = admin_api.put("/api/admin/users/999999/role", {"role": "admin"})
    assert_error(response, 404, "User not found")


# --- Deleting users ---------------------------------------------------------------------


def test_an_admin_deletes_a_user_with_the_same_cascade_as_account_deletion() -> None:
    world = build_world()
    victim_client = ApiClient().login(world.victim)
    admin_client = ApiClient().login(make_user(role=Role.ADMIN))
    friend_points = User.objects.get(pk=world.friend.pk).points

    response = admin_client.delete(f"/api/admin/users/{world.victim.pk}")

    assert response.status_code == 204
    assert_nothing_left_of(world.victim.pk)
    assert_counters_equal_rows()
    # The victim's vote gave the friend 2 points; the friend's vote on the victim's (deleted)
    # nomination had earned them 1.
    assert User.objects.get(pk=world.friend.pk).points == friend_points - 2 - 1
    assert_error(victim_client.get("/api/auth/me"), 401)
    assert admin_client.get("/api/auth/me").status_code == 200


def test_an_admin_cannot_delete_themselves_here(admin_api: ApiClient, admin_user: User) -> None:
    response = admin_api.delete(f"/api/admin/users/{admin_user.pk}")
    assert_error(response, 400, "You cannot delete your own account here")
    assert User.objects.filter(pk=admin_user.pk).exists()


def test_deleting_an_unknown_user_is_404(admin_api: ApiClient) -> None:
    assert_error(admin_api.delete("/api/admin/users/999999"), 404, "User not found")


def test_deleting_an_admin_keeps_the_nominations_they_reviewed(
    admin_api: ApiClient, scout: User
) -> None:
    other_admin = make_user(role=Role.ADMIN)
    nomination = make_nomination(scout, sport="soccer")
    vote(other_admin, nomination)
    ApiClient().login(other_admin).post(f"/api/admin/nominations/{nomination.pk}/approve")

    assert admin_api.delete(f"/api/admin/users/{other_admin.pk}").status_code == 204

    nomination.refresh_from_db()
    assert (nomination.status, nomination.reviewed_by_id, nomination.vote_count) == (
        "approved",
        None,
        0,
    )


# --- Authorization matrix ---------------------------------------------------------------


def test_admin_writes_are_for_admins_only(
    api: ApiClient, scout_api: ApiClient, scout: User, other_scout: User
) -> None:
    nomination = make_nomination(other_scout, sport="soccer")
    calls = [
        ("put", f"/api/admin/players/{nomination.player_id}/verified", {"verified": True}),
        ("delete", f"/api/admin/users/{other_scout.pk}", None),
        ("put", f"/api/admin/users/{other_scout.pk}/role", {"role": "admin"}),
        ("put", f"/api/admin/users/{scout.pk}/role", {"role": "admin"}),
    ]
    for method, path, body in calls:
        assert_error(getattr(api, method)(path, body), 401)
        assert_error(getattr(scout_api, method)(path, body), 403, "Admin access required")
    assert User.objects.filter(pk=other_scout.pk, role="scout").exists()
    assert User.objects.get(pk=scout.pk).role == "scout"
    assert Player.objects.get(pk=nomination.player_id).verified is False
