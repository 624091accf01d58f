from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection

from project.accounts.models import Role, User
from project.common import budgets
from project.ops.pgbouncer import Bouncer
from project.sharing.cache import local_clear
from tests.builders import make_user
from tests.flushing import flush_outlasting_deadlocks
from tests.helpers import SERVICE_SKIP, ApiClient, EventRecorder
from tests.pgbouncer import ACTIVE, through_pgbouncer

if os.environ.get("CI") and not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
    raise pytest.UsageError(
        "CI must run against PostgreSQL and Redis: set DATABASE_URL and REDIS_URL"
    )


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--pgbouncer",
        action="store_true",
        help="run the tests through a private PgBouncer in transaction mode (tests/pgbouncer.py)",
    )


@pytest.fixture(scope="session")
def django_db_setup(
    django_db_setup: None,
    django_db_blocker: Any,
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[None]:
    """pytest-django's, then with ``--pgbouncer`` the run's queries through PgBouncer."""
    if not request.config.getoption("--pgbouncer"):
        yield
        return
    with django_db_blocker.unblock(), through_pgbouncer(tmp_path_factory.mktemp("pgbouncer")):
        yield


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests of a run through PgBouncer belong to ``make test-pgbouncer`` (CI's third pass):
    other runs leave them out rather than skip them."""
    if config.getoption("--pgbouncer"):
        return
    kept = [item for item in items if item.get_closest_marker("through_pgbouncer") is None]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


@pytest.fixture
def pgbouncer(django_db_setup: None) -> Bouncer:
    """The PgBouncer the run goes through (tests marked ``through_pgbouncer``)."""
    assert ACTIVE, "a test marked through_pgbouncer runs under --pgbouncer only"
    return ACTIVE[0]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line for the tests the embedded mode cannot run, instead of one per test."""
    skipped = terminalreporter.stats.get("skipped", [])
    needing = [report for report in skipped if SERVICE_SKIP in str(report.longrepr)]
    if needing:
        terminalreporter.write_line(
            f"{len(needing)} tests need PostgreSQL, Redis or redis-server and were skipped: "
            "set DATABASE_URL and REDIS_URL to run them (CI does)",
            yellow=True,
        )


@pytest.fixture(scope="session", autouse=True)
def _flush_outlasting_deadlocks() -> Iterator[None]:
    """The flush after every ``transaction=True`` test runs again when a server still at work
    deadlocks it (tests/flushing.py). Session-wide, so it wraps every test's teardown."""
    with flush_outlasting_deadlocks(connection):
        yield


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings: pytest.FixtureRequest) -> None:
    # Argon2 is what production uses (tested in tests/accounts); it costs ~100 ms a hash.
    settings.PASSWORD_HASHERS = [  # type: ignore[attr-defined]
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "django.contrib.auth.hashers.Argon2PasswordHasher",
    ]


@pytest.fixture(autouse=True)
def _no_budgets_all_trusted(settings: Any) -> None:
    """Tests make many votes, nominations and accounts quickly, from brand-new accounts: no
    budget and every account trusted, except in the tests of budgets and trust, which set
    them explicitly."""
    settings.BUDGETS_ENABLED = False
    settings.TRUST_ACCOUNT_AGE_HOURS = 0


@pytest.fixture(autouse=True)
def _validated_live_events(settings: Any) -> None:
    """Every published live event's data must match its model (realtime/event_payloads.py):
    a publisher drifting from the SPA's generated types fails its tests."""
    settings.REALTIME_VALIDATE_EVENTS = True


@pytest.fixture(autouse=True)
def _clean_cache() -> Iterator[None]:
    cache.clear()
    local_clear()
    budgets.clear_local()
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


@pytest.fixture
def events(monkeypatch: pytest.MonkeyPatch) -> EventRecorder:
    """Every test that checks published events uses this one recorder."""
    recorder = EventRecorder()
    recorder.settle()  # nothing held from an earlier test lands in this one
    recorder.events.clear()
    monkeypatch.setattr("realtime.broadcast.broadcast", recorder.record)
    # The merger sends its merged events itself (realtime/merge.py).
    monkeypatch.setattr("realtime.broadcast.broadcast_now", lambda *sent: recorder.record_all(sent))
    return recorder
