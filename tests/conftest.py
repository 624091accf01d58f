from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from django.core.cache import cache

from project.accounts.models import Role, User
from tests.helpers import ApiClient, make_user

if os.environ.get("CI") and not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
    raise pytest.UsageError(
        "CI must run against PostgreSQL and Redis: set DATABASE_URL and REDIS_URL"
    )


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: pytest.FixtureRequest) -> None:
    # Argon2 is what production uses (tested in tests/accounts); it costs ~100 ms a hash.
    settings.PASSWORD_HASHERS = [  # type: ignore[attr-defined]
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.Argon2PasswordHasher",
    ]


@pytest.fixture(autouse=True)
def _clean_cache() -> Iterator[None]:
    cache.clear()
    yield


@pytest.fixture
def api() -> ApiClient:
    return ApiClient()


@pytest.fixture
def scout(db: None) -> User:
    return make_user(name="Sam Scout")


@pytest.fixture
def other_scout(db: None) -> User:
    return make_user(name="Olive Other")


@pytest.fixture
def admin_user(db: None) -> User:
    return make_user(role=Role.ADMIN, name="Ada Admin")


@pytest.fixture
def scout_api(scout: User) -> ApiClient:
    return ApiClient().login(scout)


@pytest.fixture
def other_api(other_scout: User) -> ApiClient:
    return ApiClient().login(other_scout)


@pytest.fixture
def admin_api(admin_user: User) -> ApiClient:
    return ApiClient().login(admin_user)
