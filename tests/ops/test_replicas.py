"""Reads from a streaming replica, with read-your-writes: a private primary and a standby made
from it by pg_basebackup, the product served on both (DATABASE_REPLICA_URLS). With the
standby's replay paused, the member who voted sees their vote at once (from the primary) while
another member still reads the replica's older count; once replay resumes both agree, and with
the replica stopped every read falls back to the primary."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator

import psycopg
import pytest

from project.common.replicas import lsn_value
from project.ops.harness.drills import _env, daphne, seed, signed_in
from project.ops.harness.private_postgres import PrivatePostgres, postgres_bin
from tests.helpers import unless_available

pytestmark = [
    pytest.mark.slow,
    unless_available(
        not os.environ.get("DATABASE_URL") or postgres_bin() is None,
        reason="PostgreSQL and its server binaries (initdb, pg_basebackup)",
    ),
]


def sql(url: str, statement: str) -> object:
    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(statement)
        row = cursor.fetchone() if cursor.description else None
    return row[0] if row else None


def replayed(standby: str, primary: str) -> bool:
    """Whether the standby has replayed everything the primary has written."""
    target = lsn_value(str(sql(primary, "SELECT pg_current_wal_lsn()::text")))
    return lsn_value(str(sql(standby, "SELECT pg_last_wal_replay_lsn()::text"))) >= target


def wait_for(check: object, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


@pytest.fixture
def pair() -> Iterator[tuple[PrivatePostgres, PrivatePostgres]]:
    primary = PrivatePostgres("scoutvote")
    standby = PrivatePostgres("scoutvote")
    try:
        primary.create()
        sql(primary.url, "ALTER SYSTEM SET wal_level = 'replica'")
        primary.options = " -c full_page_writes=on"  # a base backup needs whole pages
        primary.restart()
        standby._run(
            str(standby.bindir / "pg_basebackup"),
            f"--host={primary.HOST}",
            f"--port={primary.port}",
            "--username=postgres",
            f"--pgdata={standby.data}",
            "--write-recovery-conf",
            "--wal-method=stream",
            "--checkpoint=fast",
        )
        standby.start()
        wait_for(lambda: sql(standby.url, "SELECT pg_is_in_recovery()") is True, "no standby")
        yield primary, standby
    finally:
        standby.destroy()
        primary.destroy()


def vote_count(client: object, nomination: int) -> int:
    answer = client.get(f"/api/nominations/{nomination}")  # type: ignore[attr-defined]
    assert answer.status_code == 200, answer.text
    count: int = answer.json()["voteCount"]
    return count


def test_a_member_reads_their_own_vote_while_others_read_the_replica(
    pair: tuple[PrivatePostgres, PrivatePostgres],
) -> None:
    primary, standby = pair
    env = _env(primary.url, DATABASE_REPLICA_URLS=standby.url)
    (nomination,) = seed(env, voters=2, nominations=1)
    with daphne(env) as (port, _):
        voter, other = signed_in(port, "drill0"), signed_in(port, "drill1")
        wait_for(lambda: replayed(standby.url, primary.url), "the standby did not catch up")
        sql(standby.url, "SELECT pg_wal_replay_pause()")

        voted = voter.post("/api/votes", json={"nominationId": nomination})
        assert voted.status_code == 201, voted.text
        assert voter.cookies.get("scoutvote_wal"), "a write gives its WAL position"
        assert vote_count(voter, nomination) == 1  # the primary: the replica has not replayed it
        assert vote_count(other, nomination) == 0  # the replica, paused before the vote

        sql(standby.url, "SELECT pg_wal_replay_resume()")
        wait_for(lambda: vote_count(other, nomination) == 1, "the replica never showed the vote")

        standby.stop()
        assert vote_count(other, nomination) == 1  # the primary, once the replica is gone
        assert vote_count(voter, nomination) == 1
        voter.close()
        other.close()
