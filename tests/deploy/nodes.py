"""What the two-node modules share: the nodes' environment, and a member's HTTP client and
websocket on a node (or through the balancer)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from tests.deploy.shape_env import prefixed_keys_deleted, shape_env


@contextmanager
def node_env(prefix: str, **extra: str) -> Iterator[dict[str, str]]:
    """The nodes' environment (tests/deploy/shape_env.py's, with ``extra``: DATABASE_URL ...)
    under their own prefix in the suite's Redis, whose keys are deleted on the way out."""
    try:
        yield {**shape_env(prefix), **extra}
    finally:
        prefixed_keys_deleted(prefix)


def signed_in(url: str, username: str, password: str) -> httpx.Client:
    """A client signed in through ``url`` with the password, as the SPA signs in."""
    http = httpx.Client(base_url=url, headers={"Origin": url}, timeout=30)
    assert http.get("/api/auth/csrf").status_code == 200
    answer = http.post(
        "/api/auth/login",
        json={"username": username, "password": password},
        headers={"X-CSRFToken": http.cookies["csrftoken"]},
    )
    assert answer.status_code == 200, answer.text
    return http


def moved(http: httpx.Client, url: str) -> httpx.Client:
    """The same cookies (session, CSRF, the replica cookie) sent to another node."""
    return httpx.Client(base_url=url, headers={"Origin": url}, cookies=http.cookies, timeout=30)


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


async def until_count(
    ws: ClientConnection, nomination_id: int, count: int, timeout: float = 15
) -> dict[str, Any]:
    """The first ``vote.changed`` that gives the nomination ``count`` votes."""

    async def read() -> dict[str, Any]:
        while True:
            message = await until(ws, "vote.changed", timeout)
            counts = {v["nominationId"]: v["voteCount"] for v in message["data"]["votes"]}
            if counts.get(nomination_id) == count:
                return message

    return await asyncio.wait_for(read(), timeout)


async def subscribe(ws: ClientConnection, cursor: int | None = None) -> int:
    message: dict[str, Any] = {"type": "subscribe", "sport": "soccer"}
    if cursor is not None:
        message["cursor"] = cursor
    await ws.send(json.dumps(message))
    return int((await until(ws, "subscribed"))["groups"]["sport.soccer"])
