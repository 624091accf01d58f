from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from project.accounts.models import User
from project.scouting.models import Activity, Nomination, NominationStatus, Player
from project.scouting.services import activity, follows
from project.scouting.services.nominations import player_identity
from tests.builders import make_nomination, make_user, nomination_body
from tests.helpers import NOMINATION_KEYS, ApiClient, EventRecorder, assert_error
from tests.scouting.conftest import nominate

pytestmark = pytest.mark.django_db

PLAYER_KEYS = {
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
    # Who manages the profile since a verified claim (project/claims), null before.
    "managedBy",
}


def assert_nomination_shape(body: dict[str, Any]) -> None:
    assert set(body) == NOMINATION_KEYS, body
    assert set(body["player"]) == PLAYER_KEYS
    assert set(body["nominatedBy"]) == {"id", "name", "username"}


# --- Create -----------------------------------------------------------------------------


def test_nominate_returns_the_read_shape(scout_api: ApiClient, scout: User) -> None:
    body = nominate(scout_api)
    assert_nomination_shape(body)
    assert body["player"] == {
        "id": body["player"]["id"],
        "name": "Zoë Núñez",
        "age": 16,
        "graduationYear": None,
        "position": "Striker",
        "nationality": "Spain",
        "club": "FC Valencia Youth",
        "sport": "football",
        "skills": "Pace, finishing",
        "videoLink": "https://video.example/zoe",
        "verified": False,
        "managedBy": None,
    }
    assert body["nominatedBy"] == {"id": scout.pk, "name": scout.name, "username": scout.username}
    assert body["status"] == "pending"
    assert body["voteCount"] == 0
    assert body["hasVoted"] is False
    nomination = Nomination.objects.get(pk=body["id"])
    assert nomination.sport == nomination.player.sport == "football"


def test_nominate_writes_identity_activity_and_points(scout_api: ApiClient, scout: User) -> None:
    body = nominate(scout_api, sport="soccer")
    player = Player.objects.get(pk=body["player"]["id"])
    year = timezone.localdate().year - 16
    assert player.normalized_identity == f"zoenunez|soccer|{year}|fcvalenciayouth"
    activity = Activity.objects.get(related_nomination_id=body["id"])
    assert activity.activity_type == "nomination_created"
    assert activity.user_id == scout.pk
    assert activity.sport == "soccer"
    assert activity.related_player_id == player.pk
    assert activity.metadata == {"playerName": "Zoë Núñez"}
    scout.refresh_from_db()
    assert scout.points == 10
    assert scout.current_streak == 1
    assert scout.longest_streak == 1
    assert scout.last_activity_date == timezone.localdate()


def test_identity_folds_case_accents_and_punctuation() -> None:
    first = player_identity(
        name="  Zoë  O'Brien-Núñez ",
        sport="hockey",
        club="F.C. Montréal",
        age=None,
        graduation_year=2030,
    )
    second = player_identity(
        name="zoe obrien nunez",
        sport="hockey",
        club="FC Montreal",
        age=None,
        graduation_year=2030,
    )
    assert first == second == "zoeobriennunez|hockey|2030|fcmontreal"


def test_nominate_events_on_commit(
    scout_api: ApiClient,
    scout: User,
    events: EventRecorder,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        body = nominate(scout_api, sport="hockey")
    created = events.one("nomination.created")
    assert created.sport == "hockey" and created.admins is True
    assert created.data == {key: value for key, value in body.items() if key != "hasVoted"}
    activity = events.one("activity.created")
    assert activity.sport == "hockey"
    assert activity.data["activityType"] == "nomination_created"
    assert activity.data["metadata"] == {"playerName": "Zoë Núñez"}
    profile = events.one("profile.changed")
    assert profile.user_ids == (scout.pk,)
    assert profile.data == {"points": 10, "currentStreak": 1, "longestStreak": 1}


def test_nothing_is_published_without_a_commit(scout_api: ApiClient, events: EventRecorder) -> None:
    nominate(scout_api)
    assert events.events == []


def test_nominate_requires_sign_in(api: ApiClient) -> None:
    assert_error(api.post("/api/nominations", nomination_body()), 401)


def test_graduation_year_alone_is_enough(scout_api: ApiClient) -> None:
    body = nominate(scout_api, age="", graduationYear=2031)
    assert body["player"]["age"] is None
    assert body["player"]["graduationYear"] == 2031
    player = Player.objects.get(pk=body["player"]["id"])
    assert "|2031|" in player.normalized_identity


def test_blank_age_and_graduation_year_say_which_to_fill(scout_api: ApiClient) -> None:
    body = assert_error(
        scout_api.post("/api/nominations", nomination_body(age="", graduationYear="")),
        400,
        "Enter the player's age or graduation year",
    )
    assert body["fields"] == {"age": "Enter the player's age or graduation year"}
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    ("overrides", "field", "message"),
    [
        ({"name": "A"}, "name", "Name must be at least 2 characters"),
        ({"name": "  A  "}, "name", "Name must be at least 2 characters"),
        ({"age": 8}, "age", "Player must be at least 9 years old"),
        ({"age": 51}, "age", "Invalid age"),
        ({"age": "twelve"}, "age", "Invalid input"),
        ({"position": "S"}, "position", "Position is required"),
        ({"nationality": ""}, "nationality", "Nationality is required"),
        ({"club": "X"}, "club", "Club is required"),
        (
            {"graduationYear": 2023},
            "graduationYear",
            "Graduation year must be between 2024 and 2040",
        ),
        (
            {"graduationYear": 2041},
            "graduationYear",
            "Graduation year must be between 2024 and 2040",
        ),
        ({"sport": "tennis"}, "sport", "Please select a sport"),
        ({"skills": ""}, "skills", "Skills are required"),
        ({"skills": "   "}, "skills", "Skills are required"),
        ({"name": "Nul\x00Byte"}, "name", "Invalid input"),
        (
            {"name": "Carl\r\nBcc: x@example.com"},
            "name",
            "Name may not contain line breaks, tabs or other control characters",
        ),
        (
            {"name": "Tab\tTabson"},
            "name",
            "Name may not contain line breaks, tabs or other control characters",
        ),
        (
            {"name": "Line\u2028Break"},
            "name",
            "Name may not contain line breaks, tabs or other control characters",
        ),
        (
            {"position": "Wing\nBack"},
            "position",
            "Position may not contain line breaks, tabs or other control characters",
        ),
        (
            {"nationality": "Dan\x1bish"},
            "nationality",
            "Nationality may not contain line breaks, tabs or other control characters",
        ),
        (
            {"club": "FC\x85Example"},
            "club",
            "Club may not contain line breaks, tabs or other control characters",
        ),
        (
            {"videoLink": "javascript:alert(1)"},
            "videoLink",
            "Video link must be a web address (http or https)",
        ),
    ],
)
def test_validation_messages(
    scout_api: ApiClient, overrides: dict[str, Any], field: str, message: str
) -> None:
    body = assert_error(
        scout_api.post("/api/nominations", nomination_body(**overrides)), 400, message
    )
    assert body["code"] == "validation_error"
    assert body["fields"] == {field: message}


def test_missing_fields_say_required(scout_api: ApiClient) -> None:
    body = assert_error(scout_api.post("/api/nominations", {}), 400)
    assert body["fields"]["name"] == "Required"
    assert body["fields"]["skills"] == "Skills are required"


def test_boundaries_are_accepted(scout_api: ApiClient) -> None:
    nominate(scout_api, name="Al", age=9, graduationYear=2024, videoLink="", sport="")
    body = nominate(scout_api, name="Bo", age=50, graduationYear=2040, videoLink=None)
    assert body["player"]["videoLink"] == ""
    assert body["player"]["sport"] == "football"


def test_duplicate_answers_409_with_the_existing_id(
    scout_api: ApiClient, other_api: ApiClient
) -> None:
    first = nominate(scout_api)
    response = other_api.post(
        "/api/nominations",
        nomination_body(name="ZOE NUNEZ", club="fc valencia youth", skills="Other words"),
    )
    assert response.status_code == 409
    assert response.json() == {
        "message": "This player has already been nominated",
        "code": "duplicate_nomination",
        "nominationId": first["id"],
    }
    assert Player.objects.count() == 1


def test_not_a_duplicate_in_another_sport_or_year(scout_api: ApiClient) -> None:
    nominate(scout_api)
    nominate(scout_api, sport="soccer")
    nominate(scout_api, age=17)


def test_a_rejected_nomination_does_not_block_a_new_one(
    scout_api: ApiClient, other_api: ApiClient
) -> None:
    first = nominate(scout_api)
    Nomination.objects.filter(pk=first["id"]).update(status=NominationStatus.REJECTED)
    second = nominate(other_api)
    assert second["id"] != first["id"]


# --- Lists ------------------------------------------------------------------------------


def ids(response: Any) -> list[int]:
    assert response.status_code == 200, response.content
    return [item["id"] for item in response.json()]


def test_list_is_live_newest_first_with_has_voted(
    scout_api: ApiClient, scout: User, other_scout: User
) -> None:
    older = make_nomination(other_scout)
    newer = make_nomination(other_scout, status=NominationStatus.APPROVED)
    make_nomination(other_scout, status=NominationStatus.REJECTED)
    scout_api.post("/api/votes", {"nominationId": older.pk})
    response = scout_api.get("/api/nominations")
    assert ids(response) == [newer.pk, older.pk]
    voted = {item["id"]: item["hasVoted"] for item in response.json()}
    assert voted == {newer.pk: False, older.pk: True}
    for item in response.json():
        assert_nomination_shape(item)


def test_list_filters_by_sport_and_text(scout_api: ApiClient, other_scout: User) -> None:
    other_scout.name = "Quentin Finder"
    other_scout.save()
    football = make_nomination(other_scout, name="Alpha Keeper", position="Goalkeeper")
    hockey = make_nomination(other_scout, sport="hockey", nationality="Finland")
    assert ids(scout_api.get("/api/nominations?sport=hockey")) == [hockey.pk]
    assert ids(scout_api.get("/api/nominations?q=goalKEEPER")) == [football.pk]
    assert ids(scout_api.get("/api/nominations?q=finl")) == [hockey.pk]
    assert ids(scout_api.get("/api/nominations?q=alpha")) == [football.pk]
    assert ids(scout_api.get("/api/nominations?q=toronto")) == [hockey.pk, football.pk]
    assert ids(scout_api.get("/api/nominations?q=quentin")) == [hockey.pk, football.pk]
    assert ids(scout_api.get("/api/nominations?q=nothing-like-it")) == []


def test_status_filter_is_for_admins(
    scout_api: ApiClient, admin_api: ApiClient, other_scout: User
) -> None:
    rejected = make_nomination(other_scout, status=NominationStatus.REJECTED)
    approved = make_nomination(other_scout, status=NominationStatus.APPROVED)
    assert_error(scout_api.get("/api/nominations?status=rejected&limit=50"), 403)
    assert ids(admin_api.get("/api/nominations?status=rejected&limit=50")) == [rejected.pk]
    assert ids(admin_api.get("/api/nominations?status=approved&limit=50")) == [approved.pk]
    assert_error(admin_api.get("/api/nominations?status=nonsense"), 400, "Invalid input")


def test_search_text_with_a_nul_is_refused(scout_api: ApiClient) -> None:
    assert_error(scout_api.get("/api/nominations?q=a%00b"), 400, "Invalid input")


def test_lists_require_sign_in(api: ApiClient) -> None:
    for path in (
        "/api/nominations",
        "/api/nominations/recent",
        "/api/nominations/needing-votes",
        "/api/nominations/1",
        "/api/users/1/nominations",
    ):
        assert_error(api.get(path), 401)


def test_pagination_follows_the_link_header(scout_api: ApiClient, other_scout: User) -> None:
    created = [make_nomination(other_scout).pk for _ in range(5)]
    seen: list[int] = []
    path = "/api/nominations?limit=2&sport=football"
    pages = 0
    while path:
        response = scout_api.get(path)
        seen += ids(response)
        pages += 1
        link = response.headers.get("Link")
        if link is None:
            break
        assert link.endswith('>; rel="next"')
        path = link[1 : link.index(">")]
        assert "sport=football" in path and "limit=2" in path
    assert seen == list(reversed(created))
    assert pages == 3


def test_pagination_limit_is_capped_and_cursor_checked(
    scout_api: ApiClient, other_scout: User
) -> None:
    for _ in range(3):
        make_nomination(other_scout)
    assert len(ids(scout_api.get("/api/nominations?limit=1000"))) == 3
    assert "Link" not in scout_api.get("/api/nominations?limit=1000").headers
    body = assert_error(
        scout_api.get("/api/nominations?cursor=not-a-cursor"), 400, "Invalid cursor"
    )
    assert body["fields"] == {"cursor": "Invalid cursor"}


def test_new_rows_do_not_shift_later_pages(scout_api: ApiClient, other_scout: User) -> None:
    first, second, third = (make_nomination(other_scout).pk for _ in range(3))
    response = scout_api.get("/api/nominations?limit=2")
    assert ids(response) == [third, second]
    make_nomination(other_scout)
    link = response.headers["Link"]
    assert ids(scout_api.get(link[1 : link.index(">")])) == [first]


@pytest.mark.parametrize(
    "path",
    [
        "/api/nominations",
        "/api/nominations?q=player",
        "/api/nominations/recent",
        "/api/nominations/needing-votes",
        "/api/leaderboard/players",
    ],
)
def test_list_query_count_is_constant(scout_api: ApiClient, other_scout: User, path: str) -> None:
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert scout_api.get(path).status_code == 200
        return len(queries)

    for _ in range(3):
        make_nomination(other_scout)
    few = count()
    for _ in range(27):
        make_nomination(other_scout)
    assert count() == few


def test_recent_defaults_to_six_newest(scout_api: ApiClient, other_scout: User) -> None:
    created = [make_nomination(other_scout).pk for _ in range(8)]
    make_nomination(other_scout, status=NominationStatus.REJECTED)
    assert ids(scout_api.get("/api/nominations/recent")) == list(reversed(created))[:6]
    assert ids(scout_api.get("/api/nominations/recent?limit=2")) == list(reversed(created))[:2]
    hockey = make_nomination(other_scout, sport="hockey")
    assert ids(scout_api.get("/api/nominations/recent?sport=hockey")) == [hockey.pk]


def test_needing_votes(scout_api: ApiClient, other_scout: User) -> None:
    few = make_nomination(other_scout)
    many = make_nomination(other_scout)
    Nomination.objects.filter(pk=many.pk).update(vote_count=5)
    Nomination.objects.filter(pk=make_nomination(other_scout).pk).update(vote_count=4)
    make_nomination(other_scout, status=NominationStatus.REJECTED)
    hockey = make_nomination(other_scout, sport="hockey")
    listed = ids(scout_api.get("/api/nominations/needing-votes?sport=football"))
    assert many.pk not in listed and few.pk in listed and len(listed) == 2
    assert ids(scout_api.get("/api/nominations/needing-votes?sport=hockey")) == [hockey.pk]


# --- Detail and a scout's nominations ---------------------------------------------------


def test_detail(scout_api: ApiClient, other_scout: User) -> None:
    nomination = make_nomination(other_scout)
    response = scout_api.get(f"/api/nominations/{nomination.pk}")
    assert response.status_code == 200
    assert_nomination_shape(response.json())
    assert response.json()["id"] == nomination.pk


def test_detail_of_missing_or_hidden_is_404(
    scout_api: ApiClient, other_api: ApiClient, admin_api: ApiClient, other_scout: User
) -> None:
    assert_error(scout_api.get("/api/nominations/999999"), 404, "Nomination not found")
    rejected = make_nomination(other_scout, status=NominationStatus.REJECTED)
    assert_error(scout_api.get(f"/api/nominations/{rejected.pk}"), 404, "Nomination not found")
    assert other_api.get(f"/api/nominations/{rejected.pk}").json()["status"] == "rejected"
    assert admin_api.get(f"/api/nominations/{rejected.pk}").status_code == 200


def test_user_nominations(
    scout_api: ApiClient, other_api: ApiClient, admin_api: ApiClient, other_scout: User
) -> None:
    pending = make_nomination(other_scout)
    rejected = make_nomination(other_scout, status=NominationStatus.REJECTED)
    path = f"/api/users/{other_scout.pk}/nominations"
    assert ids(scout_api.get(path)) == [pending.pk]
    assert ids(other_api.get(path)) == [rejected.pk, pending.pk]
    assert ids(admin_api.get(path)) == [rejected.pk, pending.pk]
    assert_error(scout_api.get("/api/users/999999/nominations"), 404, "Scout not found")


def test_private_scout_nominations_are_not_found(scout_api: ApiClient) -> None:
    hidden = make_user(name="Private Person")
    hidden.settings.profile_visibility = "private"
    hidden.settings.save()
    make_nomination(hidden)
    assert_error(scout_api.get(f"/api/users/{hidden.pk}/nominations"), 404, "Scout not found")


@pytest.mark.parametrize("kind", ["user_nominations", "following", "notifications"])
def test_personal_list_query_count_is_constant(
    scout_api: ApiClient, scout: User, other_scout: User, kind: str
) -> None:
    paths = {
        "user_nominations": f"/api/users/{other_scout.pk}/nominations",
        "following": "/api/user/following",
        "notifications": "/api/notifications",
    }

    def add(n: int) -> None:
        for _ in range(n):
            nomination = make_nomination(other_scout)
            follows.follow_player_create(user=scout, player_id=nomination.player_id)
            activity.notification_create(user=scout, type="new_follower", message="x")

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert scout_api.get(paths[kind]).status_code == 200
        return len(queries)

    add(2)
    few = count()
    add(20)
    assert count() == few
