"""Two nodes behave as one product: two complete production shapes side by side (each its own
nginx, HTTP pool, websocket process and worker, on its own ports and run directory), sharing
one PostgreSQL and one Redis, with the front balancer (project/ops/balancer.py) in front.

A member signed in on node A is signed in on node B with the same cookies and CSRF token; a
vote taken on node A reaches a socket on node B live (count, feed, leaderboard, the nominator's
notification) and presence counts people on both; a socket that moves from A to B resumes from
its cursor; and with node A stopped, the balancer sends everything to node B, and node A,
started again, is pushed the votes taken on node B.
"""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from collections.abc import Iterator
from contextlib import closing
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
import pytest
import redis
from django.conf import settings
from django.contrib.auth.hashers import make_password
from websockets.asyncio.client import ClientConnection, connect

from project.accounts.models import User
from project.ops.balancer import Cluster, nodes_running
from project.scouting.models import Nomination
from tests.builders import PASSWORD, make_user, stored_nomination
from tests.helpers import unless_available

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    unless_available(
        not (os.environ.get("DATABASE_URL") and settings.REDIS_URL),
        reason="the nodes share PostgreSQL and Redis",
    ),
]


@pytest.fixture(scope="module")
def cluster(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Nodes a and b (one HTTP worker and one websocket process each, to keep the suite
    light) and the balancer, for the whole module: booting them takes most of its time."""
    prefix = f"twonode-test-{uuid.uuid4().hex[:12]}"
    parts = urlsplit(os.environ["DATABASE_URL"])
    env = {
        **os.environ,
        "DATABASE_URL": urlunsplit(
            parts._replace(path="/" + settings.DATABASES["default"]["NAME"])
        ),
        "REALTIME_PREFIX": prefix,
        "CACHE_PREFIX": prefix,
        "LOG_LEVEL": "WARNING",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        # As the suite's own settings: a fresh account's votes count on the boards, and the
        # members here vote and sign in more often than a person's budgets allow.
        "TRUST_ACCOUNT_AGE_HOURS": "0",
        "BUDGETS": "off",
    }
    root = tmp_path_factory.mktemp("twonode")
    log = (root / "nodes.log").open("ab")
    try:
        with nodes_running(
            2, env, root, http_workers=1, ws_processes=1, output=log.fileno()
        ) as running:
            yield running
    finally:
        log.close()
        client = redis.Redis.from_url(settings.REDIS_URL)
        keys = list(client.scan_iter(f"*{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()


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


def member(name: str) -> User:
    """A member whose password the servers can check: hashed with Argon2, which both the
    servers' hashers and the suite's accept (the suite's fast hash is the suite's alone)."""
    user = make_user(name=name)
    user.password = make_password(PASSWORD, hasher="argon2")
    user.save(update_fields=["password"])
    return user


def signed_in(url: str, user: User) -> httpx.Client:
    """A client signed in through ``url`` with the user's password, as the SPA signs in."""
    http = httpx.Client(base_url=url, headers={"Origin": url})
    assert http.get("/api/auth/csrf").status_code == 200
    answer = http.post(
        "/api/auth/login",
        json={"username": user.username, "password": PASSWORD},
        headers={"X-CSRFToken": http.cookies["csrftoken"]},
    )
    assert answer.status_code == 200, answer.text
    return http


def moved(http: httpx.Client, url: str) -> httpx.Client:
    """The same cookies (session and CSRF) sent to another node."""
    return httpx.Client(base_url=url, headers={"Origin": url}, cookies=http.cookies)


def vote(http: httpx.Client, nomination_id: int) -> httpx.Response:
    return http.post(
        "/api/votes",
        json={"nominationId": nomination_id},
        headers={"X-CSRFToken": http.cookies["csrftoken"]},
    )


async def socket(url: str, http: httpx.Client) -> ClientConnection:
    ws = await connect(
        url.replace("http://", "ws://") + "/ws/",
        origin=url,  # type: ignore[arg-type]
        additional_headers={"Cookie": f"sessionid={http.cookies['sessionid']}"},
    )
    assert json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] == "hello"
    return ws


async def until(ws: ClientConnection, kind: str, timeout: float = 15) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            if message["type"] == kind:
                return message

    return await asyncio.wait_for(read(), timeout)


async def subscribe(ws: ClientConnection, cursor: int | None = None) -> int:
    message: dict[str, Any] = {"type": "subscribe", "sport": "soccer"}
    if cursor is not None:
        message["cursor"] = cursor
    await ws.send(json.dumps(message))
    return int((await until(ws, "subscribed"))["groups"]["sport.soccer"])


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


async def test_with_node_a_stopped_the_balancer_sends_everything_to_node_b(
    cluster: Cluster, nomination: Nomination, members: list[User]
) -> None:
    """Node a stops (as its machine going down) and comes back on the same ports."""
    a, b = cluster.nodes
    voter, other, _ = members
    with closing(signed_in(cluster.url, voter)) as http:
        a.stop()
        answers = [http.get("/api/nominations?sport=soccer").status_code for _ in range(10)]
        assert answers == [200] * 10
        answer = vote(http, nomination.pk)
        assert answer.status_code == 201, answer.text
        # A socket opened through the balancer now lands on node b.
        after = await socket(cluster.url, http)
        try:
            await subscribe(after)
        finally:
            await after.close()
        assert b.supervisor is not None and b.supervisor.poll() is None

        # Back again: node a's sockets are pushed the votes taken on node b.
        a.restart()
        on_a = await socket(a.url, http)
        try:
            await subscribe(on_a)
            with closing(signed_in(b.url, other)) as on_b:
                assert vote(on_b, nomination.pk).status_code == 201
            count = await until(on_a, "vote.changed")
            assert count["data"]["votes"][0]["voteCount"] == 2
        finally:
            await on_a.close()
