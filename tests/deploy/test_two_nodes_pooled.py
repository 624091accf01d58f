"""Two nodes behind one PgBouncer in transaction mode, reading from a streaming replica: the
two-node shape of deploy/README.md with the database side of a deployment past one machine.

A private primary and a hot standby made from it (pg_basebackup -R), migrated and seeded
before the nodes start; one PgBouncer (project/ops/pgbouncer.py) in front of the primary is
every node's DATABASE_URL, the standby their DATABASE_REPLICA_URLS. A member who votes on node
a reads their vote and the count on node b at once (read-your-writes across nodes), while
another member, on either node, still reads the paused replica's older count; a vote on either
node reaches sockets on both; and every server connection the nodes hold on the primary is
one of PgBouncer's.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, closing
from dataclasses import dataclass

import httpx
import psycopg
import pytest
from django.conf import settings

from devtools.cluster import Cluster, nodes_running
from devtools.drills import PASSWORD, seed
from devtools.private_postgres import (
    PrivatePostgres,
    replayed,
    sql,
    streaming_pair,
    wait_for,
)
from project.ops.pgbouncer import Bouncer
from tests.deploy import nodes
from tests.deploy.nodes import moved, node_env, socket, subscribe, until_count, vote
from tests.helpers import unless_available
from tests.pgbouncer import admin

pytestmark = [
    pytest.mark.slow,
    unless_available(
        not (os.environ.get("DATABASE_URL") and settings.REDIS_URL),
        reason="the nodes share PostgreSQL (a private primary, its replica) and Redis",
    ),
]

DATABASE = "scoutvote"


@dataclass
class Pooled:
    cluster: Cluster
    bouncer: Bouncer
    primary: PrivatePostgres
    standby: PrivatePostgres
    nominations: list[int]


@pytest.fixture(scope="module")
def pooled(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pooled]:
    """The private primary and standby, seeded (the migrations run against the primary), and
    nodes a and b (one HTTP worker and one websocket process each) behind one PgBouncer and
    the balancer, for the whole module."""
    root = tmp_path_factory.mktemp("twonode-pooled")
    with ExitStack() as stack:
        primary, standby = stack.enter_context(streaming_pair(DATABASE))
        env = stack.enter_context(
            node_env(
                f"twonode-pooled-{uuid.uuid4().hex[:12]}",
                DATABASE_URL=primary.url,
                DATABASE_REPLICA_URLS=standby.url,
            )
        )
        nominations = seed(env, voters=6, nominations=3)
        log = stack.enter_context((root / "nodes.log").open("ab"))
        cluster = stack.enter_context(
            nodes_running(
                2,
                env,
                root,
                http_workers=1,
                ws_processes=1,
                output=log.fileno(),
                pgbouncer_pool_size=10,
            )
        )
        assert cluster.bouncer is not None
        yield Pooled(cluster, cluster.bouncer, primary, standby, nominations)


@pytest.fixture(autouse=True)
def _clean_cache() -> Iterator[None]:
    """Instead of the suite's: the nodes' live layer lives in the suite's Redis database, and
    emptying it between tests is not what these tests are about."""
    yield


def signed_in(url: str, number: int) -> httpx.Client:
    """Seeded member ``drill<number>`` signed in through ``url``."""
    return nodes.signed_in(url, f"drill{number}", PASSWORD)


def detail(http: httpx.Client, nomination: int) -> tuple[int, bool]:
    """The nomination's vote count and whether the reader has voted for it."""
    answer = http.get(f"/api/nominations/{nomination}")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    return int(body["voteCount"]), bool(body["hasVoted"])


def test_a_member_who_voted_on_node_a_reads_it_on_node_b_while_others_read_the_replica(
    pooled: Pooled,
) -> None:
    a, b = pooled.cluster.nodes
    primary, standby = pooled.primary.url, pooled.standby.url
    nomination = pooled.nominations[0]
    with (
        closing(signed_in(a.url, 0)) as voter,
        closing(signed_in(a.url, 1)) as other_on_a,
        closing(moved(other_on_a, b.url)) as other_on_b,
    ):
        # The sign-ins are on the replica before it stops replaying.
        wait_for(lambda: replayed(standby, primary), "the standby did not catch up")
        sql(standby, "SELECT pg_wal_replay_pause()")
        try:
            answer = vote(voter, nomination)
            assert answer.status_code == 201, answer.text
            assert voter.cookies.get("scoutvote_wal"), "a write gives its WAL position"
            with (
                closing(moved(voter, b.url)) as voter_on_b,
                closing(moved(voter, pooled.cluster.url)) as voter_anywhere,
            ):
                # Node b reads the vote node a took at once: from the primary, through
                # PgBouncer, since the replica has not replayed it.
                assert detail(voter_on_b, nomination) == (1, True)
                for _ in range(4):  # through the balancer, whichever node answers
                    assert detail(voter_anywhere, nomination) == (1, True)
            # Another member reads the replica, paused before the vote, on either node.
            assert detail(other_on_a, nomination) == (0, False)
            assert detail(other_on_b, nomination) == (0, False)
        finally:
            sql(standby, "SELECT pg_wal_replay_resume()")
        wait_for(lambda: detail(other_on_b, nomination)[0] == 1, "the replica never had it")
        assert detail(other_on_a, nomination) == (1, False)


async def test_a_vote_on_either_node_reaches_sockets_on_both(pooled: Pooled) -> None:
    a, b = pooled.cluster.nodes
    nomination = pooled.nominations[1]
    with (
        closing(signed_in(a.url, 2)) as on_a,
        closing(signed_in(b.url, 3)) as on_b,
    ):
        sockets = [await socket(a.url, on_a), await socket(b.url, on_b)]
        try:
            for ws in sockets:
                await subscribe(ws)
            for count, http in enumerate((on_a, on_b), 1):
                answer = vote(http, nomination)
                assert answer.status_code == 201, answer.text
                for ws in sockets:
                    await until_count(ws, nomination, count)
        finally:
            for ws in sockets:
                await ws.close()


def test_the_nodes_reach_the_primary_only_through_pgbouncer(pooled: Pooled) -> None:
    a, b = pooled.cluster.nodes
    bouncer, primary = pooled.bouncer, pooled.primary.url
    config = {row["key"]: row["value"] for row in admin(bouncer, "SHOW CONFIG")}
    assert config["pool_mode"] == "transaction"

    def transactions() -> int:
        (row,) = [s for s in admin(bouncer, "SHOW STATS") if s["database"] == DATABASE]
        return int(row["total_xact_count"])

    before = transactions()
    for number, node in ((4, a), (5, b)):
        with closing(signed_in(node.url, number)) as http:
            answer = vote(http, pooled.nominations[2])
            assert answer.status_code == 201, answer.text
    # Two sign-ins and two votes at least, each a transaction of its own or more.
    assert transactions() - before >= 4

    # Every process of both nodes (HTTP pool, websocket process, worker) is a client of
    # PgBouncer, and each connection on the primary's database is one of PgBouncer's server
    # connections (found by the port it connects from), none a node's own.
    clients = [c for c in admin(bouncer, "SHOW CLIENTS") if c["database"] == DATABASE]
    assert len(clients) >= 2 * 3, clients
    with psycopg.connect(primary, autocommit=True) as conn:
        backends = conn.execute(
            "SELECT client_port FROM pg_stat_activity WHERE datname = %s"
            " AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
            (DATABASE,),
        ).fetchall()
    servers = {int(s["local_port"]) for s in admin(bouncer, "SHOW SERVERS")}
    assert backends, "no connection on the primary"
    assert {port for (port,) in backends} <= servers, (backends, servers)
