"""GET and PUT /api/profile."""

from __future__ import annotations

from typing import Any

import pytest

from project.accounts.models import User
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db

CHANGES = {
    "name": "Samantha Scout",
    "bio": "Twenty years on the touchline.",
    "location": "Leeds, UK",
    "favoriteSport": "tennis",
    "phoneNumber": "+44 113 496 0000",
}


def profile_of(user: User) -> dict[str, Any]:
    user.refresh_from_db()
    return {
        "id": user.pk,
        "username": user.username,
        "name": user.name,
        "email": user.email,
        "bio": user.bio,
        "location": user.location,
        "favoriteSport": user.favorite_sport,
        "phoneNumber": user.phone_number,
        "avatarUrl": user.avatar_url or None,
        "points": user.points,
        "role": user.role,
    }


def test_get_profile(scout_api: ApiClient, scout: User) -> None:
    response = scout_api.get("/api/profile")
    assert response.status_code == 200
    assert response.json() == {
        "id": scout.pk,
        "username": scout.username,
        "name": "Sam Scout",
        "email": scout.email,
        "bio": "",
        "location": "",
        "favoriteSport": "football",
        "phoneNumber": "",
        "avatarUrl": None,
        "points": 0,
        "role": "scout",
    }


def test_put_profile_writes_the_editable_fields(scout_api: ApiClient, scout: User) -> None:
    response = scout_api.put("/api/profile", CHANGES)

    assert response.status_code == 200
    assert response.json() == profile_of(scout)
    assert response.json() | CHANGES == response.json()
    assert scout_api.get("/api/auth/me").json()["name"] == "Samantha Scout"


def test_put_profile_never_changes_role_points_username_or_email(
    scout_api: ApiClient, scout: User
) -> None:
    body = {
        **CHANGES,
        "role": "admin",
        "points": 9999,
        "username": "hijack",
        "email": "hijack@example.com",
        "isStaff": True,
        "is_superuser": True,
    }
    response = scout_api.put("/api/profile", body)

    assert response.status_code == 200
    scout.refresh_from_db()
    assert (scout.role, scout.points, scout.is_staff, scout.is_superuser) == (
        "scout",
        0,
        False,
        False,
    )
    assert scout.username != "hijack" and scout.email != "hijack@example.com"
    assert scout.name == "Samantha Scout"


def test_put_profile_keeps_fields_left_out_and_clears_blank_ones(
    scout_api: ApiClient, scout: User
) -> None:
    scout_api.put("/api/profile", CHANGES)
    response = scout_api.put("/api/profile", {"bio": "", "favoriteSport": ""})

    assert response.status_code == 200
    body = response.json()
    assert (body["bio"], body["favoriteSport"]) == ("", "")
    assert (body["name"], body["location"]) == ("Samantha Scout", "Leeds, UK")


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"name": "  "}, "name", "Name is required"),
        ({"name": "n" * 151}, "name", "Name must be at most 150 characters"),
        ({"bio": "b" * 1001}, "bio", "Bio must be at most 1000 characters"),
        ({"location": "l" * 201}, "location", "Location must be at most 200 characters"),
        ({"phoneNumber": "1" * 41}, "phoneNumber", "Phone number must be at most 40 characters"),
        ({"favoriteSport": "chess"}, "favoriteSport", "Please select a valid sport"),
        ({"bio": 12}, "bio", "Invalid input"),
        ({"bio": "NUL \x00 byte"}, "bio", "Invalid input"),
        (
            {"name": "Sam\r\nScout"},
            "name",
            "Name may not contain line breaks, tabs or other control characters",
        ),
    ],
)
def test_put_profile_validation_messages(
    scout_api: ApiClient, scout: User, changes: dict[str, Any], field: str, message: str
) -> None:
    body = assert_error(scout_api.put("/api/profile", changes), 400, message)
    assert body["fields"] == {field: message}
    assert profile_of(scout)["name"] == "Sam Scout"


def test_profile_needs_sign_in(api: ApiClient) -> None:
    assert_error(api.get("/api/profile"), 401)
    assert_error(api.put("/api/profile", CHANGES), 401)
