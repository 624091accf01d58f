"""Hardening: each finding of the fault and abuse drill that concerns accounts, the
API's input and its headers, reproduced against the real code path."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import argon2
import pytest
from django.contrib.auth.hashers import Argon2PasswordHasher, MD5PasswordHasher, make_password
from django.test import Client, RequestFactory

from project.accounts.hashers import Argon2idPasswordHasher
from project.accounts.models import Role, User, UserSettings
from project.accounts.throttle import client_ip
from project.common.errors import PermissionDenied
from project.moderation.services.users import admin_user_delete, user_role_change
from tests.builders import PASSWORD, make_nomination, make_user
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db

THROTTLED = "Too many login attempts. Please wait 5 minutes and try again."
OWASP_HASHERS = [
    "project.accounts.hashers.Argon2idPasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]


def argon2_parameters(encoded: str) -> argon2.Parameters:
    assert encoded.startswith("argon2$")
    return argon2.extract_parameters("$" + encoded.split("$", 1)[1])


# --- Django admin login ---------------------------------------------------------------------


def test_the_django_admin_login_is_throttled_like_the_api(admin_user: User) -> None:
    client = Client()
    for _ in range(40):
        response = client.post(
            "/admin-django/login/", {"username": admin_user.username, "password": "wrong"}
        )
        assert response.status_code == 200
    # The right password no longer gets in: the counter of this name is over its limit.
    response = client.post(
        "/admin-django/login/", {"username": admin_user.username, "password": PASSWORD}
    )
    assert response.status_code == 200, response.get("Location")
    assert THROTTLED in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_django_admin_login_still_signs_in(admin_user: User) -> None:
    client = Client()
    response = client.post(
        "/admin-django/login/", {"username": admin_user.username, "password": PASSWORD}
    )
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(admin_user.pk)


# --- Argon2id parameters and bounded hashing ------------------------------------------------


def test_new_hashes_use_owasp_argon2id_parameters(settings: Any) -> None:
    settings.PASSWORD_HASHERS = OWASP_HASHERS
    user = make_user()
    params = argon2_parameters(user.password)
    assert params.type == argon2.Type.ID
    assert (params.memory_cost, params.time_cost, params.parallelism) == (19 * 1024, 2, 1)


def test_old_argon2_hashes_verify_and_are_upgraded_at_sign_in(settings: Any) -> None:
    settings.PASSWORD_HASHERS = OWASP_HASHERS
    user = make_user()
    # A hash made with Django's defaults (100 MiB, p=8), as every account had before.
    user.password = make_password(PASSWORD, hasher=Argon2PasswordHasher())
    user.save(update_fields=["password"])
    assert argon2_parameters(user.password).memory_cost == 102400

    ApiClient().login(user)

    user.refresh_from_db()
    params = argon2_parameters(user.password)
    assert (params.memory_cost, params.time_cost, params.parallelism) == (19 * 1024, 2, 1)
    assert user.check_password(PASSWORD)


def test_hashing_at_once_is_bounded_per_process(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.PASSWORD_HASH_CONCURRENCY = 2
    running = 0
    most = 0
    lock = threading.Lock()
    real = argon2.low_level.hash_secret

    def counted(*args: Any, **kwargs: Any) -> bytes:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        try:
            time.sleep(0.05)  # long enough for the other threads to pile up
            return real(*args, **kwargs)
        finally:
            with lock:
                running -= 1

    monkeypatch.setattr(argon2.low_level, "hash_secret", counted)
    hasher = Argon2idPasswordHasher()
    threads = [
        threading.Thread(target=hasher.encode, args=(f"pw-{n}", hasher.salt())) for n in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert most == 2


# --- Client addresses behind trusted proxies ----------------------------------------------


def request_from(remote: str, forwarded: str | None = None, real_ip: str | None = None) -> Any:
    meta: dict[str, Any] = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    if real_ip is not None:
        meta["HTTP_X_REAL_IP"] = real_ip
    return RequestFactory().get("/", **meta)


def test_forwarded_addresses_are_read_only_from_trusted_proxies(settings: Any) -> None:
    settings.TRUSTED_PROXIES = ["10.0.0.0/8", "127.0.0.1"]
    # A client talking to the app directly cannot choose its address.
    assert client_ip(request_from("203.0.113.9", "1.2.3.4")) == "203.0.113.9"
    # Behind the proxy: the right-most hop that is not a proxy, whatever the client prepended.
    assert client_ip(request_from("127.0.0.1", "1.2.3.4, 203.0.113.7")) == "203.0.113.7"
    assert client_ip(request_from("127.0.0.1", "1.2.3.4, 203.0.113.7, 10.1.2.3")) == ("203.0.113.7")
    assert client_ip(request_from("127.0.0.1", real_ip="198.51.100.4")) == "198.51.100.4"
    # Nothing configured: the peer is the client.
    settings.TRUSTED_PROXIES = []
    assert client_ip(request_from("127.0.0.1", "1.2.3.4, 203.0.113.7")) == "127.0.0.1"


def test_a_client_behind_the_proxy_cannot_escape_the_per_ip_limit(settings: Any) -> None:
    """100 guesses with made-up X-Forwarded-For heads still count against one address, while
    another client behind the same proxy keeps its own allowance."""
    settings.TRUSTED_PROXIES = ["127.0.0.1"]
    settings.LOGIN_THROTTLE_LIMIT = 2  # 6 per address
    api = ApiClient()
    statuses = [
        api.post(
            "/api/auth/login",
            {"username": f"nobody{n}", "password": "x"},
            REMOTE_ADDR="127.0.0.1",
            HTTP_X_FORWARDED_FOR=f"10.9.{n}.1, 203.0.113.7",
        ).status_code
        for n in range(20)
    ]
    assert statuses[:6] == [401] * 6
    assert set(statuses[6:]) == {429}
    other = ApiClient().post(
        "/api/auth/login",
        {"username": "nobody-else", "password": "x"},
        REMOTE_ADDR="127.0.0.1",
        HTTP_X_FORWARDED_FOR="198.51.100.9",
    )
    assert other.status_code == 401


# --- Unicode user names -----------------------------------------------------------------------


def register(api: ApiClient, username: str) -> Any:
    body = {
        "username": username,
        "password": "secret-pass",
        "name": "N",
        "email": None,
        "birthYear": 1990,
    }
    body["email"] = f"u{abs(hash(username))}@example.com"
    return api.post("/api/auth/register", body)


@pytest.mark.parametrize("confusable", ["\u017fcout14", "SCOUT14", "\uff53\uff43out14", "Scout14"])
def test_confusable_new_user_names_are_refused(confusable: str) -> None:
    make_user(username="scout14")
    response = register(ApiClient(), confusable)
    assert_error(response, 409, "Username is already taken")
    assert User.objects.count() == 1


def test_a_confusable_name_signs_in_as_and_is_throttled_as_the_account(settings: Any) -> None:
    settings.LOGIN_THROTTLE_LIMIT = 3
    user = make_user(username="scout14")
    response = ApiClient().post(
        "/api/auth/login", {"username": "\u017fcout14", "password": PASSWORD}
    )
    assert response.status_code == 200
    assert response.json()["id"] == user.pk
    # Wrong guesses under every spelling (from one address) count against the one name.
    spellings = ["scout14", "\u017fcout14", "SCOUT14", "\uff53cout14"]
    statuses = [
        ApiClient()
        .post(
            "/api/auth/login", {"username": name, "password": "wrong"}, REMOTE_ADDR="198.51.100.1"
        )
        .status_code
        for name in spellings
    ]
    assert statuses == [401, 401, 401, 429]


def test_a_name_in_another_case_costs_one_hash_like_any_sign_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Timing: "SCOUT14" once took two hashes (a failed exact lookup hashed a dummy password,
    then the case-insensitive retry hashed again), so a slow answer told the name exists."""
    make_user(username="scout14")
    hashes = 0
    real = MD5PasswordHasher.encode

    def counted(self: MD5PasswordHasher, password: str, salt: str) -> str:
        nonlocal hashes
        hashes += 1
        return real(self, password, salt)

    monkeypatch.setattr(MD5PasswordHasher, "encode", counted)
    for username, status in [("scout14", 401), ("SCOUT14", 401), ("nobody", 401)]:
        hashes = 0
        response = ApiClient().post("/api/auth/login", {"username": username, "password": "bad"})
        assert response.status_code == status
        assert hashes == 1, username


# --- The last admin -------------------------------------------------------------------------


def test_the_last_admin_cannot_delete_their_account(admin_api: ApiClient, admin_user: User) -> None:
    response = admin_api.delete("/api/settings/account")
    assert_error(response, 409, "The last admin cannot be removed or demoted")
    assert User.objects.filter(pk=admin_user.pk, role=Role.ADMIN).exists()


def test_two_admins_demoting_each_other_leave_one_admin() -> None:
    """Both requests passed the admin check before either committed: the second one runs with
    a caller who is no longer an admin and is refused under the lock."""
    first, second = make_user(role=Role.ADMIN), make_user(role=Role.ADMIN)
    stale_second = User.objects.get(pk=second.pk)  # what the second request authenticated
    user_role_change(admin=first, user_id=second.pk, role=Role.SCOUT)
    with pytest.raises(PermissionDenied):
        user_role_change(admin=stale_second, user_id=first.pk, role=Role.SCOUT)
    assert list(User.objects.filter(role=Role.ADMIN).values_list("pk", flat=True)) == [first.pk]


def test_two_admins_deleting_each_other_leave_one_admin() -> None:
    first, second = make_user(role=Role.ADMIN), make_user(role=Role.ADMIN)
    stale_second = User.objects.get(pk=second.pk)
    admin_user_delete(admin=first, user_id=second.pk)
    with pytest.raises(PermissionDenied):
        admin_user_delete(admin=stale_second, user_id=first.pk)
    assert User.objects.filter(pk=first.pk, role=Role.ADMIN).exists()


# --- Followers-only scouts ------------------------------------------------------------------


def test_a_followers_only_scout_can_be_followed_without_seeing_the_profile(
    scout_api: ApiClient, other_scout: User
) -> None:
    UserSettings.objects.filter(user=other_scout).update(profile_visibility="followers")
    assert_error(scout_api.get(f"/api/users/{other_scout.pk}"), 404, "Scout not found")
    response = scout_api.post(f"/api/follow/user/{other_scout.pk}")
    assert response.status_code == 201, response.content
    # Now a follower, they see it.
    assert scout_api.get(f"/api/users/{other_scout.pk}").status_code == 200


def test_a_private_scout_still_cannot_be_followed(scout_api: ApiClient, other_scout: User) -> None:
    UserSettings.objects.filter(user=other_scout).update(profile_visibility="private")
    assert_error(scout_api.post(f"/api/follow/user/{other_scout.pk}"), 404, "Scout not found")


# --- Input: strict integers, lone surrogates, parse errors -----------------------------------


@pytest.mark.parametrize("value", [True, False, "1", 1.0])
def test_a_vote_takes_an_integer_id_only(scout_api: ApiClient, scout: User, value: Any) -> None:
    nomination = make_nomination(make_user(), sport="soccer")
    nomination.status = "approved"
    nomination.save(update_fields=["status"])
    response = scout_api.post("/api/votes", {"nominationId": value})
    assert_error(response, 400)
    assert response.json()["fields"] == {"nominationId": "Invalid input"}


def test_ids_beyond_what_a_database_stores_are_refused_not_a_500(admin_api: ApiClient) -> None:
    # Schemathesis found it: SQLite cannot bind an integer past 64 bits.
    huge = 2**63
    response = admin_api.post("/api/admin/integrity/restore", {"userIds": [1, huge], "reason": "x"})
    assert_error(response, 400)
    assert_error(admin_api.post("/api/votes", {"nominationId": huge}), 400)


def test_a_blank_age_still_means_not_given(scout_api: ApiClient) -> None:
    body = {
        "name": "Blank Age",
        "age": "",
        "graduationYear": 2030,
        "position": "Wing",
        "nationality": "Ireland",
        "club": "Rovers",
        "sport": "soccer",
        "skills": "Quick",
    }
    assert scout_api.post("/api/nominations", body).status_code == 201


def raw_put(client: ApiClient, path: str, raw: bytes) -> Any:
    return client.client.generic(
        "PUT",
        path,
        raw,
        content_type="application/json",
        HTTP_X_CSRFTOKEN=client.csrf_token(),
    )


@pytest.mark.parametrize("field", ["name", "bio", "location", "phoneNumber"])
def test_a_lone_surrogate_in_a_profile_field_is_400(scout_api: ApiClient, field: str) -> None:
    response = raw_put(scout_api, "/api/profile", b'{"%s": "abc\\ud800def"}' % field.encode())
    assert_error(response, 400, "Invalid input")


def test_a_lone_surrogate_in_a_reject_reason_is_400(admin_api: ApiClient) -> None:
    nomination = make_nomination(make_user(), sport="soccer")
    raw = b'{"reason": "bad \\udfff"}'
    response = admin_api.client.generic(
        "POST",
        f"/api/admin/nominations/{nomination.pk}/reject",
        raw,
        content_type="application/json",
        HTTP_X_CSRFTOKEN=admin_api.csrf_token(),
    )
    assert_error(response, 400, "Invalid input")
    nomination.refresh_from_db()
    assert nomination.status == "pending"


def test_parse_errors_do_not_quote_the_parser(scout_api: ApiClient, settings: Any) -> None:
    settings.DEBUG = True  # ninja adds the exception text under DEBUG, the default locally
    response = raw_put(scout_api, "/api/profile", b'{"bio": ')
    body = assert_error(response, 400, "Cannot parse request body")
    assert "Expecting" not in json.dumps(body)


# --- Content-Security-Policy ----------------------------------------------------------------


def test_connect_src_is_own_origin_only(api: ApiClient) -> None:
    policy = api.get("/api/health")["Content-Security-Policy"]
    connect = next(part for part in policy.split(";") if part.strip().startswith("connect-src"))
    assert connect.split() == ["connect-src", "'self'"]


def test_the_django_admin_refuses_a_confusable_new_user_name(admin_user: User) -> None:
    make_user(username="strasse14")
    client = Client()
    client.force_login(admin_user)
    admin_user.is_superuser = True
    admin_user.save(update_fields=["is_superuser"])
    response = client.post(
        "/admin-django/accounts/user/add/",
        {
            # Django's own check (NFKC, then iexact) does not fold "\u00df" to "ss".
            "username": "stra\u00dfe14",
            "password1": "a-long-pass-1",
            "password2": "a-long-pass-1",
            "usable_password": "true",
        },
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {"username": ["Username is already taken"]}
    assert User.objects.count() == 2
