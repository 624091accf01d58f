"""With ADMIN_2FA_REQUIRED, an admin whose session has not passed the second factor is a member
everywhere: every admin-sensitive read and write of the community API answers it as it answers
a member, while an admin who signed in with their code gets the admin's answer. Enrolling ends
the account's other sessions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.utils import timezone

from project.accounts.models import ProfileVisibility, Role, User, UserSession, UserSettings
from project.modlog.models import ModlogAction, ModlogEntry
from project.scouting.models import Nomination, NominationStatus, Player
from tests.accounts.test_two_factor import enrol
from tests.builders import make_nomination, make_user
from tests.helpers import ApiClient, Response

pytestmark = pytest.mark.django_db


@dataclass
class World:
    owner: User
    hidden_profile: User
    live: Nomination
    rejected: Nomination
    hidden: Nomination


@pytest.fixture
def required(settings: Any) -> None:
    settings.ADMIN_2FA_REQUIRED = True


@pytest.fixture
def world() -> World:
    owner = make_user(name="Owen Owner", phone_number="+15550100")
    hidden_profile = make_user(name="Pia Private")
    UserSettings.objects.filter(user=hidden_profile).update(
        profile_visibility=ProfileVisibility.PRIVATE
    )
    live = make_nomination(owner, status=NominationStatus.APPROVED)
    rejected = make_nomination(owner, status=NominationStatus.REJECTED)
    hidden = make_nomination(owner, status=NominationStatus.HIDDEN)
    Player.objects.filter(pk=hidden.player_id).update(hidden_at=timezone.now())
    return World(owner, hidden_profile, live, rejected, hidden)


def player_body(nomination: Nomination) -> dict[str, Any]:
    player = nomination.player
    return {
        "name": player.name,
        "age": player.age,
        "graduationYear": player.graduation_year,
        "position": "Centre back",
        "nationality": player.nationality,
        "club": player.club,
        "sport": player.sport,
    }


def _ids(response: Response) -> set[int]:
    return {item["id"] for item in response.json()}


# Each case: the request, and what a member gets (True) or what an admin gets (False).
Case = Callable[[ApiClient, World, bool], None]


def _contact(api: ApiClient, w: World, member: bool) -> None:
    body = api.get(f"/api/users/{w.owner.pk}").json()
    if member:
        assert (body["email"], body["phoneNumber"]) == (None, None)
    else:
        assert (body["email"], body["phoneNumber"]) == (w.owner.email, "+15550100")


def _private_profile(api: ApiClient, w: World, member: bool) -> None:
    assert api.get(f"/api/users/{w.hidden_profile.pk}").status_code == (404 if member else 200)


def _rejected_list(api: ApiClient, w: World, member: bool) -> None:
    for status in ("rejected", "hidden", "removed"):
        response = api.get(f"/api/nominations?status={status}")
        if member:
            assert response.status_code == 403
            assert response.json()["code"] == "admin_required"
        else:
            assert response.status_code == 200


def _rejected_one(api: ApiClient, w: World, member: bool) -> None:
    for nomination in (w.rejected, w.hidden):
        response = api.get(f"/api/nominations/{nomination.pk}")
        assert response.status_code == (404 if member else 200)


def _scout_nominations(api: ApiClient, w: World, member: bool) -> None:
    seen = _ids(api.get(f"/api/users/{w.owner.pk}/nominations"))
    everything = {w.live.pk, w.rejected.pk, w.hidden.pk}
    assert seen == ({w.live.pk} if member else everything)


def _player_edit(api: ApiClient, w: World, member: bool) -> None:
    response = api.put(f"/api/players/{w.live.player_id}", player_body(w.live))
    logged = ModlogEntry.objects.filter(action=ModlogAction.PLAYER_EDIT, target_id=w.live.player_id)
    position = Player.objects.get(pk=w.live.player_id).position
    if member:
        assert response.status_code == 403
        assert response.json()["code"] == "not_nominator"
        assert not logged.exists() and position != "Centre back"
    else:
        assert response.status_code == 200, response.content
        assert logged.count() == 1 and position == "Centre back"


def _hidden_player_edit(api: ApiClient, w: World, member: bool) -> None:
    response = api.put(f"/api/players/{w.hidden.player_id}", player_body(w.hidden))
    assert response.status_code == (404 if member else 200)


def _vote_on_hidden(api: ApiClient, w: World, member: bool) -> None:
    response = api.post("/api/votes", {"nominationId": w.hidden.pk})
    # A member learns nothing of a taken-down nomination; an admin is told voting is closed.
    assert response.status_code == (404 if member else 400)


def _follow_private(api: ApiClient, w: World, member: bool) -> None:
    response = api.post(f"/api/follow/user/{w.hidden_profile.pk}")
    assert response.status_code == (404 if member else 201)


def _report_hidden(api: ApiClient, w: World, member: bool) -> None:
    response = api.post("/api/reports", {"nominationId": w.hidden.pk, "reason": "other"})
    assert response.status_code == (404 if member else 201)


def _me(api: ApiClient, w: World, member: bool) -> None:
    for path in ("/api/auth/me", "/api/auth/session"):
        body = api.get(path).json()
        me = body.get("user", body)
        assert me["role"] == "admin" and me["actsAsAdmin"] is (not member)


CASES: dict[str, Case] = {
    "contact details": _contact,
    "private profile": _private_profile,
    "rejected and hidden lists": _rejected_list,
    "rejected and hidden nomination": _rejected_one,
    "a scout's nominations": _scout_nominations,
    "player edit": _player_edit,
    "taken-down player edit": _hidden_player_edit,
    "vote on a taken-down nomination": _vote_on_hidden,
    "follow a private scout": _follow_private,
    "report a taken-down nomination": _report_hidden,
    "session payload": _me,
}


@pytest.mark.usefixtures("required")
@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_a_password_only_admin_session_is_a_member(case: Case, world: World) -> None:
    admin = make_user(role=Role.ADMIN)
    case(ApiClient().login(admin), world, True)


@pytest.mark.usefixtures("required")
@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_an_admin_session_past_the_second_factor_is_an_admin(case: Case, world: World) -> None:
    api = ApiClient().login(make_user(role=Role.ADMIN))
    enrol(api)
    case(api, world, False)


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_without_the_requirement_a_password_is_enough(
    case: Case, world: World, settings: Any
) -> None:
    settings.ADMIN_2FA_REQUIRED = False
    case(ApiClient().login(make_user(role=Role.ADMIN)), world, False)


def test_enrolling_ends_the_accounts_other_sessions(
    monkeypatch: pytest.MonkeyPatch, settings: Any
) -> None:
    settings.ADMIN_2FA_REQUIRED = True
    closed: list[tuple[int, str]] = []
    monkeypatch.setattr(
        "project.accounts.two_factor.close_user_sockets",
        lambda user_id, *, reason, keep_session=None: closed.append((user_id, reason)),
    )
    admin = make_user(role=Role.ADMIN)
    elsewhere = ApiClient().login(admin)
    here = ApiClient().login(admin)
    assert UserSession.objects.filter(user_id=admin.pk).count() == 2

    enrol(here)
    assert elsewhere.get("/api/auth/me").status_code == 401
    assert here.get("/api/admin/stats").status_code == 200
    assert list(
        UserSession.objects.filter(user_id=admin.pk).values_list("session_key", flat=True)
    ) == [here.client.cookies["sessionid"].value]
    # Every socket closes; the enrolling tab's comes back with its session's new rights.
    assert closed == [(admin.pk, "two_factor_enabled")]
