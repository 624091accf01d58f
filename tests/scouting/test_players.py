from __future__ import annotations

from typing import Any

import pytest

from project.accounts.models import User
from project.scouting.models import Activity, Nomination, NominationStatus, Player
from tests.builders import make_nomination
from tests.helpers import ApiClient, EventRecorder, assert_error

pytestmark = pytest.mark.django_db


def edit_body(**overrides: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "name": "Edited Name",
        "age": 17,
        "graduationYear": "",
        "position": "Winger",
        "nationality": "Portugal",
        "club": "Porto Youth",
        "sport": "football",
    }
    body.update(overrides)
    return body


@pytest.fixture
def nomination(scout: User) -> Nomination:
    return make_nomination(scout, skills="Dribbling", video_link="https://v.example/1")


def test_nominator_edits(scout_api: ApiClient, nomination: Nomination) -> None:
    response = scout_api.put(f"/api/players/{nomination.player_id}", edit_body())
    assert response.status_code == 200
    assert response.json() == {
        "id": nomination.player_id,
        "name": "Edited Name",
        "age": 17,
        "graduationYear": None,
        "position": "Winger",
        "nationality": "Portugal",
        "club": "Porto Youth",
        "sport": "football",
        "skills": "Dribbling",
        "videoLink": "https://v.example/1",
        "verified": False,
        "managedBy": None,
    }
    player = Player.objects.get(pk=nomination.player_id)
    assert player.normalized_identity.startswith("editedname|football|")
    assert player.normalized_identity.endswith("|portoyouth")


def test_skills_and_video_link_can_be_cleared(scout_api: ApiClient, nomination: Nomination) -> None:
    body = scout_api.put(
        f"/api/players/{nomination.player_id}", edit_body(skills="", videoLink="")
    ).json()
    assert body["skills"] == "" and body["videoLink"] == ""


def test_admin_edits_and_others_may_not(
    admin_api: ApiClient, other_api: ApiClient, api: ApiClient, nomination: Nomination
) -> None:
    path = f"/api/players/{nomination.player_id}"
    assert_error(api.put(path, edit_body()), 401)
    body = assert_error(
        other_api.put(path, edit_body()), 403, "You can only edit players you nominated"
    )
    assert body["code"] == "not_nominator"
    assert admin_api.put(path, edit_body()).status_code == 200
    assert_error(admin_api.put("/api/players/999999", edit_body()), 404, "Player not found")


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"name": "E"}, "name", "Name must be at least 2 characters"),
        ({"age": 8}, "age", "Player must be at least 9 years old"),
        ({"age": 60}, "age", "Invalid age"),
        ({"position": ""}, "position", "Position is required"),
        ({"nationality": "P"}, "nationality", "Nationality is required"),
        ({"club": ""}, "club", "Club is required"),
        (
            {"name": "Eve\nLine"},
            "name",
            "Name may not contain line breaks, tabs or other control characters",
        ),
        (
            {"club": "FC\tTab"},
            "club",
            "Club may not contain line breaks, tabs or other control characters",
        ),
        ({"sport": "cricket"}, "sport", "Please select a sport"),
        ({"age": "", "graduationYear": ""}, "age", "Enter the player's age or graduation year"),
    ],
)
def test_edit_validation(
    scout_api: ApiClient,
    nomination: Nomination,
    overrides: dict[str, Any],
    field: str,
    message: str,
) -> None:
    response = scout_api.put(f"/api/players/{nomination.player_id}", edit_body(**overrides))
    assert assert_error(response, 400, message)["fields"] == {field: message}


def test_sport_is_required_on_edit(scout_api: ApiClient, nomination: Nomination) -> None:
    body = edit_body()
    del body["sport"]
    response = scout_api.put(f"/api/players/{nomination.player_id}", body)
    assert assert_error(response, 400, "Required")["fields"] == {"sport": "Required"}


def test_edit_into_a_duplicate_is_409(scout_api: ApiClient, scout: User, other_scout: User) -> None:
    taken = make_nomination(other_scout, name="Taken Name", club="Same Club", age=14)
    mine = make_nomination(scout)
    response = scout_api.put(
        f"/api/players/{mine.player_id}",
        edit_body(name="taken name", club="SAME CLUB", age=14),
    )
    assert response.status_code == 409
    assert response.json()["nominationId"] == taken.pk
    assert response.json()["code"] == "duplicate_nomination"


def test_sport_change_moves_nominations_and_publishes(
    scout_api: ApiClient,
    nomination: Nomination,
    events: EventRecorder,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = scout_api.put(f"/api/players/{nomination.player_id}", edit_body(sport="hockey"))
    assert response.status_code == 200
    nomination.refresh_from_db()
    assert nomination.sport == "hockey"
    assert set(Activity.objects.values_list("sport", flat=True)) == {"hockey"}
    removed = events.one("nomination.removed")
    assert removed.sport == "football" and removed.data == {"id": nomination.pk}
    updated = events.one("nomination.updated")
    assert updated.sport == "hockey" and updated.admins
    assert updated.data["player"]["name"] == "Edited Name"
    assert "hasVoted" not in updated.data


def test_rejected_nomination_update_goes_to_admins_and_nominator_only(
    scout_api: ApiClient,
    scout: User,
    events: EventRecorder,
    django_capture_on_commit_callbacks: Any,
) -> None:
    rejected = make_nomination(scout, status=NominationStatus.REJECTED)
    with django_capture_on_commit_callbacks(execute=True):
        scout_api.put(f"/api/players/{rejected.player_id}", edit_body())
    updated = events.one("nomination.updated")
    assert updated.sport is None and updated.admins and updated.user_ids == (scout.pk,)
