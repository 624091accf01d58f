"""GET /api/settings and the PUT calls for password, notifications and privacy."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.serializers.json import DjangoJSONEncoder

from project.accounts.models import User, UserSession, UserSettings
from tests.builders import PASSWORD
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db

DEFAULTS = {
    "emailNotifications": True,
    "voteNotifications": True,
    "nominationNotifications": True,
    "voteEmails": True,
    "nominationEmails": True,
    "weeklyDigest": True,
    "profileVisibility": "public",
    "allowDiscoverability": True,
    "twoFactorEnabled": False,
    "passwordChangedAt": None,
}
NOTIFICATION_FIELDS = (
    "emailNotifications, voteNotifications, nominationNotifications, voteEmails, "
    "nominationEmails, weeklyDigest"
)
PRIVACY_FIELDS = "profileVisibility, allowDiscoverability"


def test_get_settings_defaults(scout_api: ApiClient) -> None:
    response = scout_api.get("/api/settings")
    assert response.status_code == 200
    assert response.json() == DEFAULTS


@pytest.mark.parametrize(
    "field",
    [
        "emailNotifications",
        "voteNotifications",
        "nominationNotifications",
        "voteEmails",
        "nominationEmails",
        "weeklyDigest",
    ],
)
def test_each_notification_toggle_saves_alone(
    scout_api: ApiClient, scout: User, field: str
) -> None:
    response = scout_api.put("/api/settings/notifications", {field: False})

    assert response.status_code == 200
    assert response.json() == {**DEFAULTS, field: False}
    assert scout_api.get("/api/settings").json()[field] is False
    assert scout_api.put("/api/settings/notifications", {field: True}).json() == DEFAULTS


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({}, 400, f"Send exactly one of: {NOTIFICATION_FIELDS}"),
        (
            {"emailNotifications": False, "voteNotifications": False},
            400,
            f"Send exactly one of: {NOTIFICATION_FIELDS}",
        ),
        ({"emailNotifications": None}, 400, f"Send exactly one of: {NOTIFICATION_FIELDS}"),
        ({"pushNotifications": True}, 400, "Invalid input"),
        ({"emailNotifications": True, "profileVisibility": "private"}, 400, "Invalid input"),
        ({"voteNotifications": "no"}, 400, "voteNotifications must be true or false"),
        ({"voteNotifications": 0}, 400, "voteNotifications must be true or false"),
    ],
)
def test_notification_settings_refuse_anything_but_one_boolean(
    scout_api: ApiClient, scout: User, body: dict[str, Any], status: int, message: str
) -> None:
    error = assert_error(scout_api.put("/api/settings/notifications", body), status, message)
    assert error["code"] == "validation_error"
    assert scout_api.get("/api/settings").json() == DEFAULTS


def test_an_invalid_value_names_its_field(scout_api: ApiClient) -> None:
    error = assert_error(
        scout_api.put("/api/settings/notifications", {"voteNotifications": "no"}), 400
    )
    assert error["fields"] == {"voteNotifications": "voteNotifications must be true or false"}
    error = assert_error(scout_api.put("/api/settings/privacy", {"shareEmail": True}), 400)
    assert error["fields"] == {"shareEmail": "Invalid input"}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ({"profileVisibility": "private"}, {"profileVisibility": "private"}),
        ({"profileVisibility": "followers"}, {"profileVisibility": "followers"}),
        ({"allowDiscoverability": False}, {"allowDiscoverability": False}),
    ],
)
def test_each_privacy_setting_saves_alone(
    scout_api: ApiClient, body: dict[str, Any], expected: dict[str, Any]
) -> None:
    response = scout_api.put("/api/settings/privacy", body)
    assert response.status_code == 200
    assert response.json() == {**DEFAULTS, **expected}


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({}, f"Send exactly one of: {PRIVACY_FIELDS}"),
        (
            {"profileVisibility": "private", "allowDiscoverability": False},
            f"Send exactly one of: {PRIVACY_FIELDS}",
        ),
        (
            {"profileVisibility": "friends"},
            "Profile visibility must be public, followers or private",
        ),
        ({"allowDiscoverability": "yes"}, "allowDiscoverability must be true or false"),
        ({"emailNotifications": False}, "Invalid input"),
    ],
)
def test_privacy_settings_refuse_anything_but_one_valid_field(
    scout_api: ApiClient, body: dict[str, Any], message: str
) -> None:
    assert_error(scout_api.put("/api/settings/privacy", body), 400, message)
    assert scout_api.get("/api/settings").json() == DEFAULTS


def test_settings_need_sign_in(api: ApiClient) -> None:
    assert_error(api.get("/api/settings"), 401)
    assert_error(api.put("/api/settings/notifications", {"emailNotifications": False}), 401)
    assert_error(api.put("/api/settings/privacy", {"allowDiscoverability": False}), 401)
    body = {"currentPassword": PASSWORD, "newPassword": "another-pass"}
    assert_error(api.put("/api/settings/password", body), 401)
    assert_error(api.delete("/api/settings/account"), 401)


def test_settings_writes_need_the_csrf_header(scout_api: ApiClient) -> None:
    response = scout_api.put("/api/settings/privacy", {"allowDiscoverability": False}, csrf=False)
    assert_error(response, 403)


# --- Password -------------------------------------------------------------------------


def change_password(client: ApiClient, current: str, new: str) -> Any:
    return client.put("/api/settings/password", {"currentPassword": current, "newPassword": new})


def test_password_change_keeps_this_session_and_ends_the_others(scout: User) -> None:
    this_tab, other_device = ApiClient().login(scout), ApiClient().login(scout)
    assert UserSession.objects.filter(user_id=scout.pk).count() == 2

    response = change_password(this_tab, PASSWORD, "brand-new-pass")

    assert response.status_code == 200
    settings = UserSettings.objects.get(user=scout)
    assert settings.password_changed_at is not None
    assert response.json() == {
        **DEFAULTS,
        "passwordChangedAt": DjangoJSONEncoder().default(settings.password_changed_at),
    }
    assert this_tab.get("/api/auth/me").status_code == 200
    assert_error(other_device.get("/api/auth/me"), 401)
    assert UserSession.objects.filter(user_id=scout.pk).count() == 1
    assert (
        ApiClient()
        .post("/api/auth/login", {"username": scout.username, "password": "brand-new-pass"})
        .status_code
        == 200
    )
    response = ApiClient().post(
        "/api/auth/login", {"username": scout.username, "password": PASSWORD}
    )
    assert_error(response, 401, "Invalid username or password")


def test_password_change_closes_the_users_sockets(
    scout_api: ApiClient, scout: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    closed: list[tuple[int, str, str | None]] = []
    monkeypatch.setattr(
        "project.accounts.services.close_user_sockets",
        lambda user_id, *, reason, keep_session=None: closed.append(
            (user_id, reason, keep_session)
        ),
    )
    session_before = scout_api.client.cookies["sessionid"].value
    assert change_password(scout_api, PASSWORD, "brand-new-pass").status_code == 200
    # Every socket closes but those of the tab that changed it (tests/realtime checks delivery).
    assert closed == [(scout.pk, "password_changed", session_before)]


def test_password_change_refuses_a_wrong_current_password(
    scout_api: ApiClient, scout: User
) -> None:
    body = assert_error(
        change_password(scout_api, "not-my-password", "brand-new-pass"),
        400,
        "Current password is incorrect",
    )
    assert body["fields"] == {"currentPassword": "Current password is incorrect"}
    scout.refresh_from_db()
    assert scout.check_password(PASSWORD)
    assert scout_api.get("/api/settings").json()["passwordChangedAt"] is None


def test_password_change_refuses_a_short_new_password(scout_api: ApiClient, scout: User) -> None:
    body = assert_error(
        change_password(scout_api, PASSWORD, "12345"), 400, "Password must be at least 6 characters"
    )
    assert body["fields"] == {"newPassword": "Password must be at least 6 characters"}
    scout.refresh_from_db()
    assert scout.check_password(PASSWORD)


def test_wrong_current_passwords_are_throttled(
    scout_api: ApiClient, scout: User, settings: Any
) -> None:
    settings.LOGIN_THROTTLE_LIMIT = 2
    for _ in range(2):
        assert change_password(scout_api, "guess", "brand-new-pass").status_code == 400
    assert_error(change_password(scout_api, PASSWORD, "brand-new-pass"), 429)
