"""A vote whose connection the database ends in the middle of its statements sent together
(``Pending``: psycopg's pipeline mode) answers 503 with Retry-After, as every other database
outage does, never 500; the next vote goes through on a new connection."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import psycopg
import pytest
from django.db import connection
from psycopg import pq

from project.accounts.models import User
from project.common.errors import DATABASE_RETRY_AFTER, SERVICE_UNAVAILABLE
from project.scouting.models import Nomination, Vote
from tests.helpers import ApiClient, assert_error, unless_available
from tests.scouting.conftest import make_nomination

pytestmark = [
    unless_available(connection.vendor != "postgresql", reason="needs PostgreSQL"),
    pytest.mark.django_db(transaction=True),
]


def _end_backend(pid: int) -> None:
    """End backend ``pid`` from a connection of its own, as a restart ends every connection,
    and wait until it is gone."""
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        assert other.execute("SELECT pg_terminate_backend(%s)", [pid]).fetchone() == (True,)
        deadline = time.monotonic() + 5
        while other.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid]
        ).fetchone() != (0,):
            assert time.monotonic() < deadline, "the backend outlived its end by 5 s"
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
                ended.append(raw.info.backend_pid)
                _end_backend(raw.info.backend_pid)
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
