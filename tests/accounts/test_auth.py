"""The foundation's auth calls: register, login, logout, me, CSRF, throttle, hashing, sessions."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import HASH_SESSION_KEY
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from project.accounts.auth import CSRF_FAILED
from project.accounts.models import User, UserSession, UserSettings
from project.accounts.sessions import SessionStore
from tests.builders import PASSWORD, make_user
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db

REGISTRATION = {
    "username": "newscout",
    "password": "s3cret-pass",
    "name": "New Scout",
    "email": "New.Scout@Example.com",
    "birthYear": 1990,
}


def register(api: ApiClient, **changes: Any) -> Any:
    return api.post("/api/auth/register", {**REGISTRATION, **changes})


def test_register_creates_a_signed_in_scout_with_settings(api: ApiClient) -> None:
    response = register(api, favoriteSport="hockey")

    assert response.status_code == 201, response.content
    user = User.objects.get(username="newscout")
    assert response.json() == {
        "id": user.pk,
        "username": "newscout",
        "role": "scout",
        "name": "New Scout",
        "email": "new.scout@example.com",
        "favoriteSport": "hockey",
        "actsAsAdmin": False,
        "avatarUrl": None,
        "ageBand": "adult",
        "timeZone": "",
    }
    assert user.favorite_sport == "hockey"
    assert UserSettings.objects.filter(user=user).exists()
    assert api.get("/api/auth/me").json()["id"] == user.pk


def test_register_defaults_the_sport_to_football(api: ApiClient) -> None:
    assert register(api).status_code == 201
    assert User.objects.get(username="newscout").favorite_sport == "football"


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"username": "ab"}, "username", "Username must be at least 3 characters"),
        (
            {"username": "bad name!"},
            "username",
            "Username may contain only letters, numbers and @ . + - _",
        ),
        ({"name": ""}, "name", "Name is required"),
        (
            {"name": "New\tScout"},
            "name",
            "Name may not contain line breaks, tabs or other control characters",
        ),
        ({"email": "not-an-email"}, "email", "Invalid email address"),
        ({"password": "12345"}, "password", "Password must be at least 6 characters"),
        ({"favoriteSport": "chess"}, "favoriteSport", "Please select a sport"),
        ({"username": None}, "username", "Invalid input"),
    ],
)
def test_register_validation_messages(
    api: ApiClient, changes: dict[str, Any], field: str, message: str
) -> None:
    body = assert_error(register(api, **changes), 400, message)
    assert body["code"] == "validation_error"
    assert body["fields"][field] == message
    assert not User.objects.filter(username=REGISTRATION["username"]).exists()


def test_register_missing_field_says_required(api: ApiClient) -> None:
    body = {key: value for key, value in REGISTRATION.items() if key != "email"}
    error = assert_error(api.post("/api/auth/register", body), 400, "Required")
    assert error["fields"] == {"email": "Required"}


def test_register_refuses_a_taken_username_or_email_whatever_the_case(api: ApiClient) -> None:
    make_user(username="taken", email="taken@example.com")

    body = assert_error(register(api, username="TAKEN"), 409, "Username is already taken")
    assert body["code"] == "username_taken"
    body = assert_error(
        register(api, email="Taken@Example.com"), 409, "An account with this email already exists"
    )
    assert body["code"] == "email_taken"


def test_login_me_logout(api: ApiClient, scout: User) -> None:
    response = api.post("/api/auth/login", {"username": scout.username, "password": PASSWORD})

    assert response.status_code == 200
    assert response.json() == {
        "id": scout.pk,
        "username": scout.username,
        "role": "scout",
        "name": "Sam Scout",
        "email": scout.email,
        "favoriteSport": scout.favorite_sport,
        "actsAsAdmin": False,
        "avatarUrl": None,
        "ageBand": "adult",
        "timeZone": "",
    }
    assert api.get("/api/auth/me").json()["id"] == scout.pk
    assert api.post("/api/auth/logout").status_code == 204
    assert_error(api.get("/api/auth/me"), 401)


def test_login_ignores_the_case_of_the_username(api: ApiClient, scout: User) -> None:
    response = api.post(
        "/api/auth/login", {"username": scout.username.upper(), "password": PASSWORD}
    )
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"username": "", "password": "x"}, "username", "Username is required"),
        ({"username": "someone", "password": ""}, "password", "Password is required"),
        ({"username": "some\x00one", "password": "x"}, "username", "Invalid input"),
    ],
)
def test_login_validation_messages(
    api: ApiClient, body: dict[str, str], field: str, message: str
) -> None:
    error = assert_error(api.post("/api/auth/login", body), 400, message)
    assert error["fields"] == {field: message}


def test_login_with_a_wrong_password_is_refused(api: ApiClient, scout: User) -> None:
    response = api.post("/api/auth/login", {"username": scout.username, "password": "wrong-one"})
    assert assert_error(response, 401, "Invalid username or password")["code"] == (
        "invalid_credentials"
    )


def test_me_signed_out_is_401(api: ApiClient) -> None:
    assert_error(api.get("/api/auth/me"), 401, "Authentication required")


def test_an_expired_session_is_signed_out(scout_api: ApiClient, scout: User) -> None:
    assert scout_api.get("/api/auth/me").json()["id"] == scout.pk
    UserSession.objects.filter(user_id=scout.pk).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    assert_error(scout_api.get("/api/auth/me"), 401, "Authentication required")


def test_login_without_the_csrf_header_is_refused(scout: User) -> None:
    client = Client(enforce_csrf_checks=True)
    client.get("/api/auth/csrf")
    response = client.post(
        "/api/auth/login",
        {"username": scout.username, "password": PASSWORD},
        content_type="application/json",
    )
    body = assert_error(response, 403, CSRF_FAILED)
    assert body["code"] == "csrf_failed"


def test_signed_in_unsafe_call_without_csrf_is_refused(scout_api: ApiClient) -> None:
    response = scout_api.post("/api/auth/logout", csrf=False)
    assert_error(response, 403, CSRF_FAILED)
    assert scout_api.get("/api/auth/me").status_code == 200


@pytest.fixture
def small_throttle(settings: Any) -> int:
    settings.LOGIN_THROTTLE_LIMIT = 3
    return 3


def _login(api: ApiClient, username: str, password: str, ip: str) -> Any:
    body = {"username": username, "password": password}
    return api.post("/api/auth/login", body, REMOTE_ADDR=ip)


def test_login_is_throttled_per_username_and_address(
    api: ApiClient, scout: User, small_throttle: int
) -> None:
    for _ in range(small_throttle):
        assert _login(api, scout.username, "wrong", "10.0.0.1").status_code == 401

    response = _login(api, scout.username, PASSWORD, "10.0.0.1")

    body = assert_error(response, 429)
    assert body["code"] == "throttled"
    assert body["message"].startswith("Too many login attempts")
    assert int(response["Retry-After"]) > 0
    # The guesses of one address hold that address only.
    assert _login(api, scout.username, PASSWORD, "10.0.1.1").status_code == 200


def test_login_is_throttled_per_address(api: ApiClient, scout: User, small_throttle: int) -> None:
    per_address = small_throttle * 3
    for n in range(per_address):
        assert _login(api, f"nobody{n}", "wrong", "10.9.9.9").status_code == 401

    assert_error(_login(api, scout.username, PASSWORD, "10.9.9.9"), 429)
    assert _login(api, scout.username, PASSWORD, "10.9.9.10").status_code == 200


def test_a_successful_login_clears_the_username_counter(
    api: ApiClient, scout: User, small_throttle: int
) -> None:
    for _ in range(small_throttle - 1):
        _login(api, scout.username, "wrong", "10.0.0.1")
    assert _login(api, scout.username, PASSWORD, "10.0.0.1").status_code == 200
    for _ in range(small_throttle - 1):
        assert _login(api, scout.username, "wrong", "10.0.0.1").status_code == 401
    assert _login(api, scout.username, PASSWORD, "10.0.0.1").status_code == 200


@pytest.fixture
def _fast_password_hashing(settings: Any) -> None:
    """Overrides the suite's fast hasher: these tests check production's hasher."""
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.Argon2PasswordHasher",
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    ]


def test_new_passwords_are_hashed_with_argon2(api: ApiClient) -> None:
    assert register(api).status_code == 201
    user = User.objects.get(username="newscout")
    assert user.password.startswith("argon2$")
    assert api.post("/api/auth/logout").status_code == 204
    response = api.post(
        "/api/auth/login", {"username": "newscout", "password": REGISTRATION["password"]}
    )
    assert response.status_code == 200


def test_login_rotates_the_session_key_and_indexes_the_session(api: ApiClient, scout: User) -> None:
    planted = SessionStore()
    planted["planted"] = True
    planted.create()
    assert planted.session_key is not None
    api.client.cookies["sessionid"] = planted.session_key

    api.login(scout)

    new_key = api.client.cookies["sessionid"].value
    assert new_key != planted.session_key
    assert not UserSession.objects.filter(session_key=planted.session_key).exists()
    assert UserSession.objects.get(session_key=new_key).user_id == scout.pk


def test_logout_deletes_the_session_row(scout_api: ApiClient, scout: User) -> None:
    assert UserSession.objects.filter(user_id=scout.pk).count() == 1
    assert scout_api.post("/api/auth/logout").status_code == 204
    assert not UserSession.objects.filter(user_id=scout.pk).exists()


# --- The session's user, read with the session (project/accounts/middleware.py) ----------


def test_a_signed_in_request_reads_its_session_and_user_in_one_statement(
    scout_api: ApiClient, scout: User
) -> None:
    with CaptureQueriesContext(connection) as queries:
        assert scout_api.get("/api/auth/me").json()["id"] == scout.pk
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert "JOIN" in queries[0]["sql"]


def test_a_session_of_a_changed_password_is_signed_out_and_flushed(
    scout_api: ApiClient, scout: User
) -> None:
    key = scout_api.client.cookies["sessionid"].value
    # Changed elsewhere (not through this session, which the change would keep).
    User.objects.filter(pk=scout.pk).update(password="argon2$other")

    assert_error(scout_api.get("/api/auth/me"), 401)
    assert not UserSession.objects.filter(session_key=key).exists()


def test_a_session_of_a_deactivated_user_is_signed_out(scout_api: ApiClient, scout: User) -> None:
    User.objects.filter(pk=scout.pk).update(is_active=False)
    assert_error(scout_api.get("/api/auth/me"), 401)


def test_a_session_whose_row_names_another_user_is_read_as_its_data_says(
    scout_api: ApiClient, scout: User, other_scout: User
) -> None:
    """The joined user is taken only when it is the user the session's data names: a row
    whose user_id column disagrees (written by hand here) authenticates as the data says."""
    key = scout_api.client.cookies["sessionid"].value
    UserSession.objects.filter(session_key=key).update(user_id=other_scout.pk)

    assert scout_api.get("/api/auth/me").json()["id"] == scout.pk


def test_a_session_hashed_with_a_previous_secret_is_kept_and_rehashed(
    scout_api: ApiClient, scout: User, settings: Any
) -> None:
    """Rotating SECRET_KEY with the old one in SECRET_KEY_FALLBACKS keeps people signed in,
    as Django's get_user does: the session's hash is rewritten with the new key."""
    key = scout_api.client.cookies["sessionid"].value
    old_hash = SessionStore(session_key=key).load()[HASH_SESSION_KEY]
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-for-this-test-" + "x" * 40

    assert scout_api.get("/api/auth/me").json()["id"] == scout.pk
    new_key = scout_api.client.cookies["sessionid"].value
    assert new_key != key  # rotated, as Django does
    assert SessionStore(session_key=new_key).load()[HASH_SESSION_KEY] != old_hash
    assert scout_api.get("/api/auth/me").json()["id"] == scout.pk
