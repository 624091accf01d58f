"""No one can lock an account out from elsewhere: failed sign-ins hold the account on the
address they come from; the account's own ceiling, for addresses it never signed in from,
spares the addresses its owner uses; each hold lasts twice the one before."""

from __future__ import annotations

import time
from typing import Any

import pytest

from project.accounts.models import User
from tests.builders import PASSWORD
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db

OWNER_ADDRESS = "198.51.100.7"


def sign_in(username: str, password: str, address: str) -> Any:
    return ApiClient().post(
        "/api/auth/login", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_guesses_from_one_address_leave_the_owner_elsewhere_free(admin_user: User) -> None:
    statuses = {sign_in(admin_user.username, "guess", "203.0.113.5").status_code for _ in range(40)}
    assert statuses == {401, 429}
    assert_error(sign_in(admin_user.username, PASSWORD, "203.0.113.5"), 429)
    # The owner, never seen before on this address, still gets in with the right password.
    assert sign_in(admin_user.username, PASSWORD, OWNER_ADDRESS).status_code == 200


def test_guesses_from_many_addresses_spare_the_owners_usual_address(
    admin_user: User, settings: Any
) -> None:
    settings.LOGIN_THROTTLE_ACCOUNT_LIMIT = 5
    assert sign_in(admin_user.username, PASSWORD, OWNER_ADDRESS).status_code == 200
    statuses = [
        sign_in(admin_user.username, "guess", f"203.0.113.{n}").status_code for n in range(1, 9)
    ]
    assert statuses == [401] * 5 + [429] * 3
    # A new address meets the account's ceiling, even with the right password ...
    assert_error(sign_in(admin_user.username, PASSWORD, "192.0.2.44"), 429)
    # ... the address the owner signs in from does not.
    assert sign_in(admin_user.username, PASSWORD, OWNER_ADDRESS).status_code == 200


def test_an_ipv6_64_is_one_address(scout: User, settings: Any) -> None:
    settings.LOGIN_THROTTLE_LIMIT = 2
    for n in range(2):
        assert sign_in(scout.username, "guess", f"2001:db8:5:6::{n + 1}").status_code == 401
    assert_error(sign_in(scout.username, PASSWORD, "2001:db8:5:6:abcd::9"), 429)
    assert sign_in(scout.username, PASSWORD, "2001:db8:5:7::1").status_code == 200


def test_each_hold_lasts_twice_the_one_before(scout: User, settings: Any) -> None:
    settings.LOGIN_THROTTLE_LIMIT = 2
    settings.LOGIN_THROTTLE_WINDOW = 1
    holds = []
    for _ in range(3):
        for _ in range(2):
            assert sign_in(scout.username, "guess", "203.0.113.9").status_code == 401
        response = sign_in(scout.username, PASSWORD, "203.0.113.9")
        assert_error(response, 429)
        holds.append(int(response["Retry-After"]))
        time.sleep(holds[-1] + 0.2)
    assert holds == [1, 2, 4]
    # Once the hold is over the right password gets in.
    assert sign_in(scout.username, PASSWORD, "203.0.113.9").status_code == 200
