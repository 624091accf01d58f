"""Two-factor sign-in: enrolment, sign-in with and without a code, recovery codes, the throttle,
admins held to it by ADMIN_2FA_REQUIRED, and the Django admin behind the same check."""

from __future__ import annotations

import time
from typing import Any

import pyotp
import pytest
from django.test import Client

from project.accounts.models import Role, User, UserSettings
from tests.builders import PASSWORD, make_user
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db

INVALID = "Invalid username or password"
INVALID_CODE = "That code is not valid. Enter the current code from your authenticator app."


def enrol(api: ApiClient) -> tuple[pyotp.TOTP, list[str]]:
    setup = api.post("/api/auth/2fa/setup")
    assert setup.status_code == 200, setup.content
    body = setup.json()
    assert body["otpauthUri"].startswith("otpauth://totp/ScoutVote:")
    assert f"secret={body['secret']}" in body["otpauthUri"]
    assert body["qrSvg"].lstrip().startswith("<?xml") and "<svg" in body["qrSvg"]
    totp = pyotp.TOTP(body["secret"])
    confirmed = api.post("/api/auth/2fa/confirm", {"code": totp.now()})
    assert confirmed.status_code == 200, confirmed.content
    codes: list[str] = confirmed.json()["recoveryCodes"]
    return totp, codes


def later_code(totp: pyotp.TOTP) -> str:
    """The next time step's code: valid now (one step of clock drift is allowed) and newer
    than any code used so far."""
    return totp.at(time.time() + 30)


def sign_in(username: str, password: str = PASSWORD, code: str | None = None) -> Any:
    api = ApiClient()
    body = {"username": username, "password": password}
    if code is not None:
        body["code"] = code
    return api, api.post("/api/auth/login", body)


def test_enrolment_needs_the_apps_first_code(scout: User, scout_api: ApiClient) -> None:
    setup = scout_api.post("/api/auth/2fa/setup").json()
    wrong = scout_api.post("/api/auth/2fa/confirm", {"code": "000000"})
    body = assert_error(wrong, 400)
    assert body["code"] == "invalid_code" and "code" in body["fields"]
    assert scout_api.get("/api/auth/2fa").json()["enabled"] is False

    code = pyotp.TOTP(setup["secret"]).now()
    confirmed = scout_api.post("/api/auth/2fa/confirm", {"code": code})
    assert confirmed.status_code == 200
    codes = confirmed.json()["recoveryCodes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    assert scout_api.get("/api/auth/2fa").json() == {
        "enabled": True,
        "recoveryCodesLeft": 10,
        "required": False,
    }
    assert UserSettings.objects.get(user=scout).two_factor_enabled is True
    assert scout_api.get("/api/settings").json()["twoFactorEnabled"] is True
    again = scout_api.post("/api/auth/2fa/setup")
    assert assert_error(again, 409)["code"] == "two_factor_on"


def assert_code_refused(response: Any) -> None:
    body = assert_error(response, 401, INVALID_CODE)
    assert body["code"] == "invalid_code"
    assert body["fields"] == {"code": INVALID_CODE}


def test_sign_in_asks_for_the_code_only_after_the_password(
    scout: User, scout_api: ApiClient, other_scout: User
) -> None:
    totp, _ = enrol(scout_api)

    # A wrong password answers alike whether or not the account has two-factor sign-in.
    _, enrolled = sign_in(scout.username, "not-the-password")
    _, not_enrolled = sign_in(other_scout.username, "not-the-password")
    _, enrolled_with_code = sign_in(scout.username, "not-the-password", later_code(totp))
    for answer in (enrolled, not_enrolled, enrolled_with_code):
        body = assert_error(answer, 401, INVALID)
        assert body["code"] == "invalid_credentials" and not body.get("fields")

    _, asked = sign_in(scout.username, PASSWORD)
    body = assert_error(asked, 401, "Enter the code from your authenticator app")
    assert body["code"] == "two_factor_required"
    _, wrong_code = sign_in(scout.username, PASSWORD, "123456")
    assert_code_refused(wrong_code)

    code = later_code(totp)
    api, signed = sign_in(scout.username, PASSWORD, code)
    assert signed.status_code == 200 and signed.json()["username"] == scout.username
    assert api.get("/api/auth/me").status_code == 200
    _, replayed = sign_in(scout.username, PASSWORD, code)  # a code signs in once
    assert_code_refused(replayed)


def test_a_recovery_code_works_once(scout: User, scout_api: ApiClient) -> None:
    _, codes = enrol(scout_api)
    api, signed = sign_in(scout.username, PASSWORD, codes[3].upper())
    assert signed.status_code == 200
    assert api.get("/api/auth/2fa").json()["recoveryCodesLeft"] == 9
    _, again = sign_in(scout.username, PASSWORD, codes[3])
    assert_code_refused(again)


def test_wrong_codes_are_throttled_like_passwords(
    scout: User, scout_api: ApiClient, settings: Any
) -> None:
    settings.LOGIN_THROTTLE_LIMIT = 3
    totp, _ = enrol(scout_api)
    answers = [sign_in(scout.username, PASSWORD, "000000")[1].status_code for _ in range(12)]
    assert 429 in answers and set(answers) <= {401, 429}
    _, throttled = sign_in(scout.username, PASSWORD, later_code(totp))
    assert throttled.status_code == 429


def test_turning_it_off_needs_the_password_and_a_code(scout: User, scout_api: ApiClient) -> None:
    totp, _ = enrol(scout_api)
    wrong = scout_api.post(
        "/api/auth/2fa/disable", {"currentPassword": "nope", "code": later_code(totp)}
    )
    assert assert_error(wrong, 400)["fields"] == {
        "currentPassword": "Current password is incorrect"
    }
    off = scout_api.post(
        "/api/auth/2fa/disable", {"currentPassword": PASSWORD, "code": later_code(totp)}
    )
    assert off.status_code == 204
    assert UserSettings.objects.get(user=scout).two_factor_enabled is False
    _, signed = sign_in(scout.username)
    assert signed.status_code == 200


def test_new_recovery_codes_replace_the_old(scout: User, scout_api: ApiClient) -> None:
    totp, old = enrol(scout_api)
    renewed = scout_api.post("/api/auth/2fa/recovery-codes", {"code": later_code(totp)})
    assert renewed.status_code == 200
    new = renewed.json()["recoveryCodes"]
    assert not set(new) & set(old)
    assert_code_refused(sign_in(scout.username, PASSWORD, old[0])[1])
    assert sign_in(scout.username, PASSWORD, new[0])[1].status_code == 200


@pytest.fixture
def required(settings: Any) -> None:
    settings.ADMIN_2FA_REQUIRED = True


@pytest.mark.usefixtures("required")
def test_an_admin_without_a_second_factor_can_only_enrol(admin_user: User) -> None:
    api = ApiClient().login(admin_user)
    refused = api.get("/api/admin/stats")
    body = assert_error(refused, 403)
    assert body["code"] == "two_factor_required"
    assert body["message"] == "Turn on two-factor sign-in in Settings to use the admin tools"
    assert api.get("/api/auth/2fa").json()["required"] is True

    totp, _ = enrol(api)  # enrolling is passing it: this session may go on
    assert api.get("/api/admin/stats").status_code == 200
    turned_off = api.post(
        "/api/auth/2fa/disable", {"currentPassword": PASSWORD, "code": later_code(totp)}
    )
    assert assert_error(turned_off, 403)["code"] == "two_factor_required"


@pytest.mark.usefixtures("required")
def test_an_admin_session_from_before_enrolment_must_sign_in_again(admin_user: User) -> None:
    old = ApiClient().login(admin_user)
    totp, _ = enrol(ApiClient().login(admin_user))
    assert assert_error(old.get("/api/admin/stats"), 401)["code"] == "not_authenticated"
    api, signed = sign_in(admin_user.username, PASSWORD, later_code(totp))
    assert signed.status_code == 200
    assert api.get("/api/admin/stats").status_code == 200


def test_the_django_admin_asks_for_the_second_factor(settings: Any) -> None:
    settings.ADMIN_2FA_REQUIRED = True
    admin = make_user(role=Role.ADMIN, username="djadmin")
    User.objects.filter(pk=admin.pk).update(is_staff=True)
    totp, _ = enrol(ApiClient().login(admin))

    browser = Client()
    page = browser.get("/admin-django/login/")
    assert b'name="code"' in page.content
    form = {"username": admin.username, "password": PASSWORD, "next": "/admin-django/"}
    refused = browser.post("/admin-django/login/", form)
    assert refused.status_code == 200 and b"errornote" in refused.content
    assert INVALID_CODE.encode() in refused.content
    wrong = browser.post("/admin-django/login/", {**form, "password": "not-the-password"})
    assert wrong.status_code == 200 and INVALID_CODE.encode() not in wrong.content
    assert browser.get("/admin-django/").status_code == 302

    signed = browser.post("/admin-django/login/", {**form, "code": later_code(totp)})
    assert signed.status_code == 302
    assert browser.get("/admin-django/").status_code == 200


def test_the_django_admin_refuses_an_admin_without_a_second_factor(settings: Any) -> None:
    settings.ADMIN_2FA_REQUIRED = True
    admin = make_user(role=Role.ADMIN, username="djadmin2")
    User.objects.filter(pk=admin.pk).update(is_staff=True)
    browser = Client()
    form = {"username": admin.username, "password": PASSWORD, "next": "/admin-django/"}
    browser.post("/admin-django/login/", form)
    assert browser.get("/admin-django/").status_code == 302
    settings.ADMIN_2FA_REQUIRED = False
    assert browser.get("/admin-django/").status_code == 200
