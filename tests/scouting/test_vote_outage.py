"""A vote whose connection the database ends in the middle of its statements sent together
(``Pending``: psycopg's pipeline mode) answers 503 with Retry-After, as every other database
outage does, never 500; the next vote goes through on a new connection."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

import dj_database_url
import psycopg
import pytest
from django.db import connection
from psycopg import pq

from project.accounts.models import User
from project.common.errors import DATABASE_RETRY_AFTER, SERVICE_UNAVAILABLE
from project.scouting.models import Nomination, Vote
from tests.builders import make_nomination
from tests.helpers import ApiClient, assert_error, unless_available

pytestmark = [
    unless_available(connection.vendor != "postgresql", reason="needs PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


def _end_backends() -> None:
    """End, from a connection of its own straight to PostgreSQL (a run through PgBouncer
    included: its clients' backend pids are PgBouncer's), every backend of the test database
    that is in the middle of something, as a restart ends every connection, and wait until
    they are gone."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    direct = dj_database_url.parse(os.environ.get("DATABASE_URL", ""))
    params["host"], params["port"] = direct.get("HOST") or params["host"], direct.get("PORT")
    busy = (
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
        "AND pid <> pg_backend_pid() AND backend_type = 'client backend' AND state <> 'idle'"
    )
    with psycopg.connect(**params, autocommit=True) as other:
        ended = other.execute(f"SELECT count(pg_terminate_backend(pid)) FROM ({busy}) b")
        assert ended.fetchone() != (0,), "no backend was busy"
        deadline = time.monotonic() + 5
        while other.execute(f"SELECT count(*) FROM ({busy}) b").fetchone() != (0,):
            assert time.monotonic() < deadline, "a backend outlived its end by 5 s"
            time.sleep(0.01)


def _ended_in_pipeline(statement: int, ended: list[int]) -> Callable[..., Any]:
    """A query wrapper that ends the connection's backend as the ``statement``-th statement
    sent in pipeline mode goes out: the database goes away with a vote's statements in
    flight."""
    sent = 0

    def wrapper(
        execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
        nonlocal sent
        raw = connection.connection
        if not ended and raw.pgconn.pipeline_status != pq.PipelineStatus.OFF:
            sent += 1
            if sent == statement:
                ended.append(sent)
                _end_backends()
        return execute(sql, params, many, context)

    return wrapper


@pytest.mark.parametrize("statement", [1, 3])
def test_a_vote_whose_connection_ends_mid_pipeline_answers_503(
    scout_api: ApiClient, scout: User, other_scout: User, statement: int
) -> None:
    nomination = make_nomination(other_scout, status="approved")
    ended: list[int] = []
    with connection.execute_wrapper(_ended_in_pipeline(statement, ended)):
        response = scout_api.post("/api/votes", {"nominationId": nomination.pk})
    assert ended, "no statement went out in pipeline mode"
    assert response.status_code == 503, response.content
    assert_error(response, 503, SERVICE_UNAVAILABLE)
    assert response["Retry-After"] == str(DATABASE_RETRY_AFTER)
    assert not Vote.objects.exists()
    # The next request gets a working connection and the vote counts once.
    again = scout_api.post("/api/votes", {"nominationId": nomination.pk})
    assert again.status_code == 201, again.content
    assert Nomination.objects.get(pk=nomination.pk).vote_count == 1
