"""The pool's check of a connection it hands out (project/common/postgresql/base.py): a
connection the server has ended is thrown away without a round trip; a live idle one is handed
out."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from django.db import connection

from project.common.postgresql.base import connection_alive
from tests.helpers import unless_available

pytestmark = [
    unless_available(connection.vendor != "postgresql", reason="needs PostgreSQL"),
    pytest.mark.django_db,
]


@pytest.fixture
def pooled() -> Iterator[psycopg.Connection]:
    """A connection of its own to the test database, as the pool holds one."""
    with psycopg.connect(**_params(), autocommit=True) as conn:
        yield conn


def _params() -> dict[str, Any]:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    return params


def test_a_live_idle_connection_passes_and_stays_usable(pooled: psycopg.Connection) -> None:
    connection_alive(pooled)
    connection_alive(pooled)
    assert pooled.execute("SELECT 1").fetchone() == (1,)


def test_a_connection_the_server_ended_is_refused(pooled: psycopg.Connection) -> None:
    pid = pooled.info.backend_pid
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        assert cursor.fetchone() == (True,)
    # The server writes its FATAL message and closes the socket as the backend exits.
    deadline = time.monotonic() + 5
    while True:
        try:
            connection_alive(pooled)
        except psycopg.OperationalError as error:
            assert "closed the connection" in str(error)
            break
        assert time.monotonic() < deadline, "the ended connection still passed after 5 s"
        time.sleep(0.01)


def test_a_connection_inside_a_transaction_is_refused(pooled: psycopg.Connection) -> None:
    pooled.autocommit = False
    pooled.execute("SELECT 1")
    with pytest.raises(psycopg.OperationalError, match="not idle"):
        connection_alive(pooled)
    pooled.rollback()
    connection_alive(pooled)


def test_a_closed_connection_is_refused(pooled: psycopg.Connection) -> None:
    pooled.close()
    with pytest.raises(psycopg.OperationalError, match="closed"):
        connection_alive(pooled)


@pytest.mark.django_db(transaction=True)
def test_the_pool_hands_out_a_new_connection_for_one_the_server_ended() -> None:
    """Django's own pool, through the ORM's connection: a pooled connection whose backend was
    ended (as a restart ends them all) is replaced on checkout, and no request sees it."""
    pool = connection.pool  # type: ignore[attr-defined]  # PostgreSQL only
    assert pool._check is connection_alive
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (ended,) = cursor.fetchone()
    connection.close()  # back to the pool, idle
    with psycopg.connect(**_params(), autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", [ended])
        deadline = time.monotonic() + 5
        while admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [ended]
        ).fetchone() != (0,):
            assert time.monotonic() < deadline
            time.sleep(0.01)
    stats = pool.get_stats()
    lost = stats.get("connections_lost", 0)
    # The pool hands out the longest idle first (its queue), and earlier tests may have grown it
    # past its minimum: one checkout per connection it holds reaches the ended one.
    for _ in range(stats["pool_available"]):
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            assert cursor.fetchone() != (ended,)
        connection.close()
    # Thrown away, not put back: one put back would be refused on every later checkout, each
    # refusal followed by the pool's back-off of a second or more.
    assert pool.get_stats().get("connections_lost", 0) == lost + 1
