"""A verified claimant's controls: what members and the public see, voting, removing the
page and taking everything held about the player; the server refuses anyone else."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from project.accounts.models import User
from project.privacy.models import PlayerControls
from project.scouting.models import Nomination, Player
from tests.builders import make_nomination, make_user
from tests.helpers import ApiClient, EventRecorder, assert_error

pytestmark = pytest.mark.django_db(transaction=True)

YEAR = timezone.localdate().year


def claimed(
    nomination: Nomination,
    admin_api: ApiClient,
    *,
    relationship: str = "parent_or_guardian",
    birth_year: int | None = None,
) -> tuple[User, ApiClient]:
    claimant = make_user()
    claimant_api = ApiClient().login(claimant)
    response = claimant_api.post(
        f"/api/players/{nomination.player_id}/claims",
        {
            "relationship": relationship,
            "birthYear": birth_year or YEAR - 12,
            "evidence": "Club roster",
        },
    )
    assert response.status_code == 201, response.content
    approved = admin_api.post(f"/api/admin/claims/{response.json()['id']}/approve")
    assert approved.status_code == 200, approved.content
    return claimant, claimant_api


def assert_code(response: Any, status: int, code: str) -> None:
    assert assert_error(response, status)["code"] == code, response.content


@pytest.fixture
def nomination(scout: User) -> Nomination:
    return make_nomination(
        scout, name="Mia Jones", age=11, club="Lisbon Juniors", nationality="Portugal"
    )


@pytest.fixture
def family(nomination: Nomination, admin_api: ApiClient) -> ApiClient:
    return claimed(nomination, admin_api)[1]


def controls(api: ApiClient, nomination: Nomination, **body: Any) -> Any:
    return api.put(f"/api/players/{nomination.player_id}/controls", body)


def test_only_the_claimant_changes_the_controls(
    nomination: Nomination,
    family: ApiClient,
    scout_api: ApiClient,
    other_api: ApiClient,
    admin_api: ApiClient,
    scout: User,
) -> None:
    # A guardian of another player.
    other_player = make_nomination(scout, age=10)
    _, other_family = claimed(other_player, admin_api)

    for api in (scout_api, other_api, other_family, admin_api):
        assert_code(controls(api, nomination, hideClub=True), 403, "not_claimant")
        assert_code(api.get(f"/api/players/{nomination.player_id}/export"), 403, "not_claimant")
        assert_code(
            api.post(f"/api/players/{nomination.player_id}/controls/remove"), 403, "not_claimant"
        )
    assert not PlayerControls.objects.get(player_id=nomination.player_id).hide_club

    response = controls(family, nomination, hideClub=True)

    assert response.status_code == 200, response.content
    assert response.json()["hideClub"] is True
    assert response.json()["managedBy"] == "family"


def test_signed_out_and_unclaimed(api: ApiClient, scout_api: ApiClient, scout: User) -> None:
    unclaimed = make_nomination(scout)
    assert controls(api, unclaimed, hideClub=True).status_code == 401
    assert_code(controls(scout_api, unclaimed, hideClub=True), 403, "not_claimant")


def test_hidden_club_and_nationality_from_members_not_admins(
    nomination: Nomination,
    family: ApiClient,
    other_api: ApiClient,
    admin_api: ApiClient,
    events: EventRecorder,
) -> None:
    events.clear()
    controls(family, nomination, hideClub=True, hideNationality=True)

    member = other_api.get(f"/api/nominations/{nomination.pk}").json()["player"]
    assert (member["club"], member["nationality"]) == ("", "")
    board = other_api.get("/api/leaderboard/players").json()
    assert [(e["player"]["club"], e["player"]["nationality"]) for e in board] == [("", "")]
    admin = admin_api.get(f"/api/nominations/{nomination.pk}").json()["player"]
    assert (admin["club"], admin["nationality"]) == ("Lisbon Juniors", "Portugal")
    claimant = family.get(f"/api/nominations/{nomination.pk}").json()["player"]
    assert claimant["club"] == "Lisbon Juniors"
    # Open pages update at once, without the hidden fields.
    live = events.one("nomination.updated").data["player"]
    assert (live["club"], live["nationality"]) == ("", "")


def test_closed_voting_freezes_the_count(
    nomination: Nomination, family: ApiClient, other_api: ApiClient, scout_api: ApiClient
) -> None:
    assert scout_api.post("/api/votes", {"nominationId": nomination.pk}).status_code == 201
    controls(family, nomination, votingOpen=False)

    refused = other_api.post("/api/votes", {"nominationId": nomination.pk})
    body = assert_error(refused, 400)
    assert body["code"] == "voting_closed"
    assert "closed it" in body["message"]
    assert_code(scout_api.delete(f"/api/votes/{nomination.pk}"), 400, "voting_closed")
    nomination.refresh_from_db()
    assert nomination.vote_count == 1
    assert other_api.get(f"/api/nominations/{nomination.pk}").json()["voteCount"] == 1

    controls(family, nomination, votingOpen=True)
    assert other_api.post("/api/votes", {"nominationId": nomination.pk}).status_code == 201


def test_controls_are_strict_booleans(nomination: Nomination, family: ApiClient) -> None:
    assert_error(controls(family, nomination, hideClub="yes"), 400)


def test_remove_at_once_and_restore_within_30_days(
    nomination: Nomination, family: ApiClient, other_api: ApiClient, events: EventRecorder
) -> None:
    events.clear()
    response = family.post(f"/api/players/{nomination.player_id}/controls/remove")

    assert response.status_code == 200, response.content
    assert Player.objects.get(pk=nomination.player_id).hidden_at is not None
    assert other_api.get(f"/api/nominations/{nomination.pk}").status_code == 404
    assert events.one("claims.changed").data["action"] == "removed"  # admins are told
    assert_code(
        family.post(f"/api/players/{nomination.player_id}/controls/remove"), 409, "already_removed"
    )

    assert family.post(f"/api/players/{nomination.player_id}/controls/restore").status_code == 200
    assert Player.objects.get(pk=nomination.player_id).hidden_at is None
    assert other_api.get(f"/api/nominations/{nomination.pk}").status_code == 200


def test_restore_ends_after_30_days(nomination: Nomination, family: ApiClient) -> None:
    family.post(f"/api/players/{nomination.player_id}/controls/remove")
    PlayerControls.objects.filter(player_id=nomination.player_id).update(
        removed_at=timezone.now() - timedelta(days=31)
    )

    response = family.post(f"/api/players/{nomination.player_id}/controls/restore")

    assert_code(response, 400, "restore_too_late")
    assert Player.objects.get(pk=nomination.player_id).hidden_at is not None


def test_export_holds_everything_about_the_player(
    nomination: Nomination, family: ApiClient, scout_api: ApiClient
) -> None:
    scout_api.post("/api/votes", {"nominationId": nomination.pk})

    response = family.get(f"/api/players/{nomination.player_id}/export")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["player"]["name"] == "Mia Jones"
    assert body["controls"]["relationship"] == "parent_or_guardian"
    # The age transitions' steps (none yet for an athlete of 11).
    assert (body["controls"]["athlete_invited_at"], body["controls"]["guardian_ended_at"]) == (
        None,
        None,
    )
    assert [c["status"] for c in body["claims"]] == ["approved"]
    assert body["nominations"][0]["vote_count"] == 1
    assert {a["activity_type"] for a in body["activity"]} >= {
        "nomination_created",
        "player_claimed",
    }


def test_what_the_family_decided_outlives_its_account(
    nomination: Nomination, admin_api: ApiClient, other_api: ApiClient
) -> None:
    claimant, family = claimed(nomination, admin_api)
    controls(family, nomination, hideClub=True)

    claimant.delete()

    member = other_api.get(f"/api/nominations/{nomination.pk}").json()["player"]
    assert member["club"] == ""
    # No one manages the page any more: no badge, and it takes a new claim.
    assert member["managedBy"] is None
    board = other_api.get("/api/leaderboard/players").json()
    assert [(e["player"]["club"], e["player"]["managedBy"]) for e in board] == [("", None)]


def test_a_removed_profile_is_brought_back_from_the_claimants_list(
    nomination: Nomination, family: ApiClient, other_api: ApiClient
) -> None:
    assert other_api.get("/api/me/managed-players").json() == []
    listed = family.get("/api/me/managed-players").json()
    assert [(p["playerId"], p["nominationId"], p["restorable"]) for p in listed] == [
        (nomination.player_id, nomination.pk, False)
    ]
    family.post(f"/api/players/{nomination.player_id}/controls/remove")

    # Its page is gone for the claimant too, so the list is where it comes back from.
    assert family.get(f"/api/nominations/{nomination.pk}").status_code == 404
    removed = family.get("/api/me/managed-players").json()[0]
    assert (removed["nominationId"], removed["restorable"]) == (None, True)
    assert removed["restoreUntil"] is not None

    PlayerControls.objects.filter(player_id=nomination.player_id).update(
        removed_at=timezone.now() - timedelta(days=31)
    )
    assert family.get("/api/me/managed-players").json()[0]["restorable"] is False
