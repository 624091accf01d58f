"""Outages without 500s, against private server processes (devtools/drills.py).

A private PostgreSQL cluster restarted under vote load answers 503 with Retry-After while it is
down, never 500, and every counter equals its rows afterwards; sign-in and password change keep
working while a private Redis is stopped (the login throttle counts per process meanwhile)."""

from __future__ import annotations

import shutil

import pytest

from devtools.drills import postgres_restart_drill, redis_outage_drill
from devtools.private_postgres import PrivateRedis, postgres_bin
from tests.helpers import unless_available

pytestmark = [
    pytest.mark.slow,
    unless_available(postgres_bin() is None, reason="PostgreSQL server binaries (initdb)"),
]


def test_a_postgresql_restart_under_votes_answers_503_never_500() -> None:
    figures = postgres_restart_drill(voters=4, seconds=7, restart_at=2, down_for=3, watchers=4)
    assert figures.statuses[500] == 0, figures.row()
    assert figures.transport_errors == 0, figures.row()
    # The outage was seen (the pool's timeout is 2 s, the database was down 3 s) and each
    # such answer said when to come back.
    assert figures.statuses[503] > 0, figures.row()
    assert figures.missing_retry_after == 0
    assert set(figures.statuses) <= {200, 201, 404, 409, 503}, figures.row()
    # Votes went through again after the restart, nothing drifted, no screen is left wrong.
    assert figures.recovery_s is not None and figures.recovery_s < 10, figures.row()
    assert figures.counters_equal_rows, figures.row()
    assert figures.events_lost == 0, figures.row()


@unless_available(shutil.which("redis-server") is None, reason="needs redis-server")
def test_sign_in_and_password_change_keep_working_while_redis_is_down() -> None:
    redis = PrivateRedis()
    redis.start()
    try:
        figures = redis_outage_drill(redis=redis, users=3, seconds=6, stop_at=1.5, down_for=3)
    finally:
        redis.stop()
    assert figures.statuses[500] == 0, figures.row()
    assert figures.transport_errors == 0, figures.row()
    assert set(figures.statuses) <= {200}, figures.row()
    # People kept signing in and changing passwords during the outage.
    assert figures.ok_during_outage and figures.ok_during_outage >= 3, figures.row()
