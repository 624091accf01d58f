"""Redis stopped mid-run. Writes still succeed, sockets are closed (or
refused) while it is down, and reconnect and resync when it returns."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from devtools.private_postgres import PrivateRedis
from project.scouting.models import Nomination, Vote
from tests.builders import stored_nomination
from tests.helpers import ApiClient, unless_available
from tests.realtime.live import session_of
from tests.realtime.servers import HOST, daphne

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    unless_available(
        not (os.environ.get("DATABASE_URL") and settings.REDIS_URL),
        reason="a daphne process on PostgreSQL and a private Redis",
    ),
    unless_available(shutil.which("redis-server") is None, reason="needs redis-server"),
]


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    server = PrivateRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def make_nomination(name: str) -> Nomination:
    return stored_nomination(name=name, position="Goalkeeper")


async def receive(ws: ClientConnection, kind: str, timeout: float = 10) -> dict[str, Any]:
    """The next message of type ``kind`` (others, e.g. summaries, are skipped)."""

    async def wait() -> dict[str, Any]:
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == kind:
                return message

    return await asyncio.wait_for(wait(), timeout)


async def closed_with(ws: ClientConnection, timeout: float = 15) -> int | None:
    """Read until the server closes the socket; its close code."""

    async def drain() -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                await ws.recv()

    await asyncio.wait_for(drain(), timeout)
    return ws.close_code


async def test_writes_survive_a_redis_outage_and_sockets_resync_after_it(
    scout_api: ApiClient, other_api: ApiClient, private_redis: PrivateRedis, live_cleanup: None
) -> None:
    before = await sync_to_async(make_nomination)("Olga Before")
    during = await sync_to_async(make_nomination)("Otto During")
    with daphne(REDIS_URL=private_redis.url) as (port, _):
        origin = f"http://{HOST}:{port}"
        url = f"ws://{HOST}:{port}/ws/"
        headers = {"Cookie": f"sessionid={session_of(other_api)}"}
        cookies = {"sessionid": session_of(scout_api), "csrftoken": scout_api.csrf_token()}
        other_cookies = {"sessionid": session_of(other_api), "csrftoken": other_api.csrf_token()}

        async def vote(who: dict[str, str], nomination: Nomination) -> httpx.Response:
            async with httpx.AsyncClient(base_url=origin, cookies=who, timeout=10) as http:
                return await http.post(
                    "/api/votes",
                    json={"nominationId": nomination.pk},
                    headers={"X-CSRFToken": who["csrftoken"], "Origin": origin},
                )

        def open_socket() -> Any:
            return connect(url, origin=origin, additional_headers=headers, open_timeout=10)  # type: ignore[arg-type]

        # A signed-in socket on soccer, with a cursor past a vote taken before the outage.
        async with open_socket() as ws:
            cursors = dict((await receive(ws, "hello"))["groups"])
            await ws.send(json.dumps({"type": "subscribe", "sport": "soccer"}))
            cursors.update((await receive(ws, "subscribed"))["groups"])
            assert (await vote(cookies, before)).status_code == 201
            changed = await receive(ws, "vote.changed")
            assert changed["data"] == {
                "votes": [{"nominationId": before.pk, "voteCount": 1, "version": 1}]
            }
            cursors["sport.soccer"] = changed["seq"]

            private_redis.stop()

            # The hub lost its pub/sub connection: events may be lost, so the socket goes.
            assert await closed_with(ws) == 4503

        # Writes still succeed while Redis is down.
        started = time.monotonic()
        response = await vote(cookies, during)
        assert response.status_code == 201, response.text
        assert response.json()["voteCount"] == 1
        assert time.monotonic() - started < 8, "the vote waited on Redis"
        assert await sync_to_async(
            Vote.objects.filter(nomination=during, user=scout_api.user).exists
        )()

        # A reconnect while Redis is down is refused or closed, never served.
        try:
            async with open_socket() as ws:
                code = await closed_with(ws)
            assert code in (4001, 4503), code
        except (InvalidHandshake, InvalidStatus, OSError, TimeoutError):
            pass

        private_redis.start()  # same port, empty: the outage's events are gone

        async with open_socket() as ws:
            await receive(ws, "hello")
            await ws.send(json.dumps({"type": "subscribe", "sport": "soccer"}))
            await receive(ws, "subscribed")
            await ws.send(json.dumps({"type": "resume", "cursors": cursors}))

            async def answer() -> dict[str, Any]:
                while True:
                    message = json.loads(await ws.recv())
                    if message["type"] in ("resync", "resumed"):
                        return message
                    assert message["type"] != "error", message

            resumed = await asyncio.wait_for(answer(), 10)
            if resumed["type"] == "resync":
                assert "sport.soccer" in resumed["groups"], resumed

            # The client refetches: the vote taken during the outage is there.
            async with httpx.AsyncClient(base_url=origin, cookies=cookies, timeout=10) as http:
                fetched = await http.get(f"/api/nominations/{during.pk}")
            assert fetched.status_code == 200, fetched.text
            assert fetched.json()["voteCount"] == 1

            # And live events flow again.
            assert (await vote(other_cookies, during)).status_code == 201
            changed = await receive(ws, "vote.changed")
            assert changed["data"] == {
                "votes": [{"nominationId": during.pk, "voteCount": 2, "version": 2}]
            }


async def test_a_redis_outage_logs_each_failure_once_per_interval(
    scout_api: ApiClient, private_redis: PrivateRedis, live_cleanup: None, tmp_path: Any
) -> None:
    """Sockets reconnecting in a tight loop and votes while Redis is down: every attempt
    fails the same way, and the server's log holds each kind of failure once per
    LOG_REPEAT_INTERVAL, not once per attempt (project/common/logrepeat.py)."""
    nomination = await sync_to_async(make_nomination)("Lena Logged")
    log_path = tmp_path / "daphne.log"
    attempts = 0
    with (
        log_path.open("wb") as log,
        daphne(log, REDIS_URL=private_redis.url, LOG_REPEAT_INTERVAL="30") as (port, _),
    ):
        origin = f"http://{HOST}:{port}"
        url = f"ws://{HOST}:{port}/ws/"
        headers = {"Cookie": f"sessionid={session_of(scout_api)}"}
        cookies = {"sessionid": session_of(scout_api), "csrftoken": scout_api.csrf_token()}
        async with connect(url, origin=origin, additional_headers=headers) as ws:  # type: ignore[arg-type]
            await receive(ws, "hello")
        private_redis.stop()
        until = time.monotonic() + 5

        async def reconnect() -> None:
            nonlocal attempts
            while time.monotonic() < until:
                attempts += 1
                try:
                    async with connect(
                        url,
                        origin=origin,  # type: ignore[arg-type]
                        additional_headers=headers,
                        open_timeout=5,
                    ) as ws:
                        await closed_with(ws, timeout=5)
                except (ConnectionClosed, InvalidHandshake, InvalidStatus, OSError, TimeoutError):
                    pass

        async def vote() -> None:
            async with httpx.AsyncClient(base_url=origin, cookies=cookies, timeout=10) as http:
                while time.monotonic() < until:
                    await http.post(
                        "/api/votes",
                        json={"nominationId": nomination.pk},
                        headers={"X-CSRFToken": cookies["csrftoken"], "Origin": origin},
                    )
                    await http.delete(
                        f"/api/votes/{nomination.pk}",
                        headers={"X-CSRFToken": cookies["csrftoken"], "Origin": origin},
                    )

        await asyncio.gather(*(reconnect() for _ in range(10)), vote())
        private_redis.start()
    lines = log_path.read_text(errors="replace").splitlines()
    assert attempts >= 50, attempts
    # A handful of kinds, each written once with its traceback: not a line per attempt.
    assert len(lines) < 400, (attempts, len(lines), lines[-40:])
