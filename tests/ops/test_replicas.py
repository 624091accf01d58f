"""Reads from a streaming replica, with read-your-writes: a private primary and a standby made
from it by pg_basebackup, the product served on both (DATABASE_REPLICA_URLS). With the
standby's replay paused, the member who voted sees their vote at once (from the primary) while
another member still reads the replica's older count; once replay resumes both agree, and with
the replica stopped every read falls back to the primary."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from devtools.drills import _env, daphne, seed, signed_in
from devtools.private_postgres import (
    PrivatePostgres,
    postgres_bin,
    replayed,
    sql,
    streaming_pair,
    wait_for,
)
from tests.helpers import unless_available

pytestmark = [
    pytest.mark.slow,
    unless_available(
        not os.environ.get("DATABASE_URL") or postgres_bin() is None,
        reason="PostgreSQL and its server binaries (initdb, pg_basebackup)",
    ),
]


@pytest.fixture
def pair() -> Iterator[tuple[PrivatePostgres, PrivatePostgres]]:
    with streaming_pair() as databases:
        yield databases


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
