"""Over-long input names the field and its limit, in the message and in the fields map,
instead of a bare "Invalid input"; nothing is written."""

from __future__ import annotations

import pytest

from project.scouting.models import Player
from tests.builders import make_nomination, nomination_body
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db

PASTED = "x" * 10_000

NOMINATION_LIMITS = {
    "name": "Name must be at most 200 characters",
    "position": "Position must be at most 100 characters",
    "nationality": "Nationality must be at most 100 characters",
    "club": "Club must be at most 200 characters",
    "skills": "Skills must be at most 5000 characters",
    "videoLink": "Video link must be at most 500 characters",
}


@pytest.mark.parametrize(("field", "message"), NOMINATION_LIMITS.items())
def test_a_pasted_nomination_field_names_its_limit(
    scout_api: ApiClient, field: str, message: str
) -> None:
    value = "https://video.example/" + PASTED if field == "videoLink" else PASTED
    body = assert_error(
        scout_api.post("/api/nominations", nomination_body(**{field: value})), 400, message
    )
    assert body["fields"] == {field: message}
    assert not Player.objects.exists()


def test_every_pasted_field_is_named(scout_api: ApiClient) -> None:
    body = nomination_body(**dict.fromkeys(NOMINATION_LIMITS, PASTED))
    answer = assert_error(scout_api.post("/api/nominations", body), 400)
    assert answer["fields"] == NOMINATION_LIMITS
    assert answer["message"] == NOMINATION_LIMITS["name"]


def test_a_pasted_player_edit_names_its_limit(scout_api: ApiClient, scout: object) -> None:
    nomination = make_nomination(scout)  # type: ignore[arg-type]
    body = {**nomination_body(), "skills": PASTED}
    answer = assert_error(
        scout_api.put(f"/api/players/{nomination.player_id}", body),
        400,
        "Skills must be at most 5000 characters",
    )
    assert answer["fields"] == {"skills": "Skills must be at most 5000 characters"}


def test_a_pasted_search_names_its_limit(scout_api: ApiClient) -> None:
    answer = assert_error(
        scout_api.get(f"/api/nominations?q={PASTED}"), 400, "Search must be at most 200 characters"
    )
    assert answer["fields"] == {"q": "Search must be at most 200 characters"}


def test_a_pasted_sign_up_names_its_limit(api: ApiClient) -> None:
    answer = assert_error(
        api.post(
            "/api/auth/register",
            {
                "username": PASTED,
                "email": "a@example.com",
                "password": "long-enough",
                "name": "A",
                "birthYear": 1990,
            },
        ),
        400,
        "Username must be at most 150 characters",
    )
    assert answer["fields"] == {"username": "Username must be at most 150 characters"}
