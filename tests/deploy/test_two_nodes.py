"""Two nodes behave as one product: two complete production shapes side by side (each its own
nginx, HTTP pool, websocket process and worker, on its own ports and run directory), sharing
one PostgreSQL and one Redis, with the front balancer (project/ops/balancer.py) in front.

A member signed in on node A is signed in on node B with the same cookies and CSRF token; a
vote taken on node A reaches a socket on node B live (count, feed, leaderboard, the nominator's
notification) and presence counts people on both; a socket that moves from A to B resumes from
its cursor; node A stops while votes go through the balancer, and every vote is answered
(node A's nginx finishes what it is proxying, the balancer sends the rest to node B) and reaches
a socket on node B in order with no gap; node A, started again, is pushed the votes taken on
node B. tests/deploy/test_two_nodes_pooled.py runs two nodes behind PgBouncer with a replica.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass
from socket import create_connection
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
from django.conf import settings
from django.contrib.auth.hashers import make_password
from websockets.asyncio.client import ClientConnection

from devtools.cluster import Cluster, nodes_running
from project.accounts.models import User
from project.scouting.models import Nomination
from tests.builders import PASSWORD, make_user, stored_nomination
from tests.deploy import nodes
from tests.deploy.nodes import moved, node_env, socket, subscribe, until, until_count, vote
from tests.helpers import unless_available

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    unless_available(
        not (os.environ.get("DATABASE_URL") and settings.REDIS_URL),
        reason="the nodes share PostgreSQL and Redis",
    ),
]

# Nominations each voter of the node-stop test votes for in turn, pausing between two votes:
# enough for the moment node a's nginx takes to stop and ten votes more.
VOTE_TARGETS = 40
VOTE_PAUSE = 0.1


@pytest.fixture(scope="module")
def cluster(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Nodes a and b (one HTTP worker and one websocket process each, to keep the suite
    light) and the balancer, for the whole module: booting them takes most of its time."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    database_url = urlunsplit(parts._replace(path="/" + settings.DATABASES["default"]["NAME"]))
    root = tmp_path_factory.mktemp("twonode")
    with (
        node_env(f"twonode-test-{uuid.uuid4().hex[:12]}", DATABASE_URL=database_url) as env,
        (root / "nodes.log").open("ab") as log,
        nodes_running(2, env, root, http_workers=1, ws_processes=1, output=log.fileno()) as running,
    ):
        yield running


@pytest.fixture(autouse=True)
def _clean_cache() -> Iterator[None]:
    """Instead of the suite's: the nodes' live layer lives in the same Redis database, and
    emptying it between tests is a loss of the live layer's data to them (a new epoch, every
    socket closed to read again), which is not what these tests are about."""
    yield


@pytest.fixture
def nomination() -> Nomination:
    return stored_nomination(member("Nora Nominator"), name="Nadia Node")


@pytest.fixture
def members() -> list[User]:
    """Three members for a test, made before its event loop runs (the ORM is synchronous)."""
    return [member(f"Member {i}") for i in range(3)]


@pytest.fixture
def voters() -> list[User]:
    return [member(f"Voter {i}") for i in range(3)]


@pytest.fixture
def targets() -> list[int]:
    """Nominations for the voters to vote for in turn: more than they have time for."""
    nominator = make_user(name="Nico Nominator")
    return [stored_nomination(nominator).pk for _ in range(VOTE_TARGETS)]


def member(name: str) -> User:
    """A member whose password the servers can check: hashed with Argon2, which both the
    servers' hashers and the suite's accept (the suite's fast hash is the suite's alone)."""
    user = make_user(name=name)
    user.password = make_password(PASSWORD, hasher="argon2")
    user.save(update_fields=["password"])
    return user


def signed_in(url: str, user: User) -> httpx.Client:
    """A client signed in through ``url`` with the user's password, as the SPA signs in."""
    return nodes.signed_in(url, user.username, PASSWORD)


def test_a_session_signed_in_on_node_a_is_valid_on_node_b(cluster: Cluster) -> None:
    a, b = cluster.nodes
    mo = member("Mo Member")
    with closing(signed_in(a.url, mo)) as on_a, closing(moved(on_a, b.url)) as on_b:
        me = on_b.get("/api/auth/me")
        assert me.status_code == 200, me.text
        assert me.json()["username"] == mo.username
        # A write on B with the CSRF token node A set: accepted.
        answer = on_b.post("/api/auth/logout", headers={"X-CSRFToken": on_a.cookies["csrftoken"]})
        assert answer.status_code == 204, answer.text
        # Signed out on B: signed out on A too.
        assert on_a.get("/api/auth/me").status_code == 401


async def test_a_vote_on_node_a_reaches_sockets_on_node_b_live(
    cluster: Cluster, nomination: Nomination, members: list[User]
) -> None:
    a, b = cluster.nodes
    voter, watcher, _ = members
    nominator = nomination.nominated_by
    with (
        closing(signed_in(a.url, voter)) as voting,
        closing(signed_in(b.url, watcher)) as watching,
        closing(signed_in(b.url, nominator)) as nominating,
    ):
        on_b = await socket(b.url, watching)
        own_b = await socket(b.url, nominating)
        on_a = await socket(a.url, voting)
        try:
            for ws in (on_b, on_a):
                await subscribe(ws)
            # Presence counts people across nodes: one watching on each.
            for ws in (on_b, on_a):
                await ws.send(json.dumps({"type": "watch", "nominationId": nomination.pk}))
            deadline = asyncio.get_running_loop().time() + 15
            watching_now = 0
            while watching_now != 2:
                assert asyncio.get_running_loop().time() < deadline, watching_now
                change = await until(on_b, "presence.changed")
                if change["data"]["scope"] == "nomination":
                    watching_now = change["data"]["watching"]

            answer = vote(voting, nomination.pk)
            assert answer.status_code == 201, answer.text

            count = await until(on_b, "vote.changed")
            assert count["data"]["votes"] == [
                {"nominationId": nomination.pk, "voteCount": 1, "version": 1}
            ]
            feed = await until(on_b, "activity.created")
            assert feed["data"]["relatedNominationId"] == nomination.pk, feed
            assert feed["data"]["userId"] == voter.pk, feed
            board = await until(on_b, "leaderboard.changed")
            assert nomination.player.name in json.dumps(board["data"]), board
            notification = await until(own_b, "notification.created")
            assert notification["data"]["relatedNominationId"] == nomination.pk, notification
        finally:
            for ws in (on_b, own_b, on_a):
                await ws.close()


async def test_a_socket_that_moves_from_node_a_to_node_b_resumes_from_its_cursor(
    cluster: Cluster, nomination: Nomination, members: list[User]
) -> None:
    a, b = cluster.nodes
    voter, watcher, _ = members
    with closing(signed_in(b.url, voter)) as voting, closing(signed_in(a.url, watcher)) as watching:
        first = await socket(a.url, watching)
        cursor = await subscribe(first)
        await first.close()
        # While the watcher is away, a vote taken on node B.
        assert vote(voting, nomination.pk).status_code == 201
        again = await socket(b.url, watching)
        try:
            assert await subscribe(again, cursor) == cursor
            missed = await until(again, "vote.changed")
            assert missed["seq"] == cursor + 1
            assert missed["data"]["votes"][0]["voteCount"] == 1
            resumed = await until(again, "resumed")
            assert resumed["groups"]["sport.soccer"] >= missed["seq"]
        finally:
            await again.close()


@dataclass
class Answered:
    voter: int
    nomination: int
    status: int
    at: float


def accepts(port: int) -> bool:
    """Whether something listens on ``port`` of the loopback address."""
    try:
        with create_connection(("127.0.0.1", port), 0.5):
            return True
    except OSError:
        return False


def vote_in_turn(
    http: httpx.Client,
    voter: int,
    nominations: list[int],
    keep_on: Callable[[], bool],
    answers: list[Answered],
) -> None:
    """Votes for each nomination in turn, one at a time and a moment apart, while
    ``keep_on()``; each answer added to ``answers``."""
    for nomination in nominations:
        if not keep_on():
            return
        status = vote(http, nomination).status_code
        answers.append(Answered(voter, nomination, status, time.monotonic()))
        time.sleep(VOTE_PAUSE)


async def test_with_node_a_stopped_under_load_the_balancer_sends_everything_to_node_b(
    cluster: Cluster,
    nomination: Nomination,
    members: list[User],
    voters: list[User],
    targets: list[int],
) -> None:
    """Node a stops (as its machine going down) while votes go through the balancer, and
    comes back on the same ports: every vote is answered by a node that is up, and reaches a
    socket on node b in order, with no gap."""
    a, b = cluster.nodes
    watcher, other, _ = members
    events: list[dict[str, Any]] = []

    async def watch(ws: ClientConnection) -> None:
        async for frame in ws:
            events.append(json.loads(frame))

    with closing(signed_in(b.url, watcher)) as watching:
        on_b = await socket(b.url, watching)
        cursor = await subscribe(on_b)
        reader = asyncio.create_task(watch(on_b))
        clients = [signed_in(cluster.url, voter) for voter in voters]
        # When node a began stopping, and when its nginx refused connections (the balancer
        # has nothing but node b from then on).
        stopped: list[float] = []
        answers: list[Answered] = []

        def after_stop() -> list[Answered]:
            return [x for x in answers if len(stopped) == 2 and x.at > stopped[1]]

        def keep_on() -> bool:
            return len(after_stop()) < 10

        try:
            loads = [
                asyncio.create_task(
                    asyncio.to_thread(vote_in_turn, http, voter.pk, targets, keep_on, answers)
                )
                for http, voter in zip(clients, voters, strict=True)
            ]
            await asyncio.sleep(0.5)  # votes in flight on both nodes
            stopped.append(time.monotonic())
            stopping = asyncio.create_task(asyncio.to_thread(a.stop))
            while accepts(a.shape.port):
                await asyncio.sleep(0.01)
            stopped.append(time.monotonic())
            await asyncio.gather(*loads)
            await stopping  # its HTTP pool, websocket process and worker too
        finally:
            for http in clients:
                http.close()

        assert [x.status for x in answers] == [201] * len(answers), answers
        assert any(x.at <= stopped[0] for x in answers), "no vote before node a stopped"
        assert len(after_stop()) >= 10, "too few votes with node a down"
        assert b.supervisor is not None and b.supervisor.poll() is None

        # Every answered vote reached the socket on node b: each nomination's last count is
        # its votes, and each vote is in the feed.
        expected = Counter(x.nomination for x in answers)
        voted = {(x.voter, x.nomination) for x in answers}

        def seen() -> tuple[dict[int, int], set[tuple[int, int]]]:
            counts: dict[int, tuple[int, int]] = {}
            feed = set()
            for event in events:
                if event["type"] == "vote.changed":
                    for v in event["data"]["votes"]:
                        known = counts.get(v["nominationId"], (-1, 0))
                        if v["version"] > known[0]:
                            counts[v["nominationId"]] = (v["version"], v["voteCount"])
                elif event["type"] in ("activity.created", "activity.batch"):
                    items = event["data"].get("items", [event["data"]])
                    feed |= {(i["userId"], i["relatedNominationId"]) for i in items}
            return {n: count for n, (_, count) in counts.items()}, feed

        deadline = time.monotonic() + 20
        while True:
            counts, feed = seen()
            if all(counts.get(n) == c for n, c in expected.items()) and voted <= feed:
                break
            assert time.monotonic() < deadline, (expected, counts, voted - feed)
            await asyncio.sleep(0.2)
        # In order, with no gap: the group's events carry every seq from the cursor on (a
        # snapshot carries the seq it is as of).
        sequence = [
            e["seq"] for e in events if e.get("group") == "sport.soccer" and e["type"] != "snapshot"
        ]
        assert sequence == list(range(cursor + 1, cursor + 1 + len(sequence))), sequence
        assert not [e for e in events if e["type"] == "skipped"]
        reader.cancel()
        await on_b.close()

    with closing(signed_in(cluster.url, other)) as http:
        reads = [http.get("/api/nominations?sport=soccer").status_code for _ in range(10)]
        assert reads == [200] * 10
        # A socket opened through the balancer now lands on node b.
        after = await socket(cluster.url, http)
        try:
            await subscribe(after)
        finally:
            await after.close()

        # Back again: node a's sockets are pushed the votes taken on node b.
        a.restart()
        on_a = await socket(a.url, http)
        try:
            await subscribe(on_a)
            assert vote(http, nomination.pk).status_code == 201
            with closing(signed_in(b.url, watcher)) as watching_b:
                assert vote(watching_b, nomination.pk).status_code == 201
            await until_count(on_a, nomination.pk, 2)
        finally:
            await on_a.close()
