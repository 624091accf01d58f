"""The production shape (project/ops/prodshape.py, what ``make serve-prod`` runs) booted for
real: nginx, the HTTP pool (gunicorn, two workers), two daphne processes, the background
worker, PostgreSQL, Redis.

A vote sent through nginx reaches a websocket client on each daphne process (and one that came
in through nginx's ``/ws/``), and nginx serves the SPA's page and its assets. With a PgBouncer
(``PGBOUNCER=1 make serve-prod``) the app processes' queries go through it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import psycopg
import pytest
from django.conf import settings
from websockets.asyncio.client import ClientConnection, connect

from project.jobs.models import WorkerHeartbeat
from project.ops.prodshape import HOST, ROOT, Shape, running
from project.scouting.models import Nomination
from tests.builders import stored_nomination
from tests.deploy.shape_env import prefixed_keys_deleted, shape_env
from tests.helpers import ApiClient, unless_available

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    unless_available(
        not (os.environ.get("DATABASE_URL") and settings.REDIS_URL),
        reason="the production shape's processes share PostgreSQL and Redis",
    ),
]


def children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(p) for p in (task / "children").read_text().split()]
    return found


def descendants(pid: int) -> list[int]:
    found = children(pid)
    for child in list(found):
        found += descendants(child)
    return found


def program(pid: int) -> str:
    """What a process runs: ``gunicorn`` for ``python -m gunicorn ...``, ``nginx: master
    process`` for nginx's master (nginx rewrites its command line)."""
    args = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    if Path(args[0]).name.startswith("python") and len(args) > 2 and args[1] == "-m":
        return args[2]
    return args[0].split(" /")[0] if args[0].startswith("nginx") else Path(args[0]).name


@contextlib.contextmanager
def booted(tmp_path: Path, *, pgbouncer: bool = False) -> Iterator[Shape]:
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        pytest.fail("nginx is missing: `make nginx` installs Debian's package (make test does)")
    if not (ROOT / "frontend" / "dist" / "index.html").exists():
        pytest.fail("The SPA is not built: run `make frontend` (make test does it)")
    prefix = f"shape-test-{uuid.uuid4().hex[:12]}"
    env = shape_env(prefix, suite_rules=False)
    shape = Shape(port=0, http_workers=2, ws_processes=2, run_dir=tmp_path / "run")
    if pgbouncer:
        shape.with_pgbouncer(env["DATABASE_URL"])
    log = (tmp_path / "shape.log").open("ab")
    try:
        with running(shape, env, output=log.fileno()) as process:
            shape.supervisor = process  # type: ignore[attr-defined]
            yield shape
    finally:
        log.close()
        prefixed_keys_deleted(prefix)


@pytest.fixture
def shape(tmp_path: Path) -> Iterator[Shape]:
    with booted(tmp_path) as shape:
        yield shape


@pytest.fixture
def nomination() -> Nomination:
    return stored_nomination(name="Nina Nginx")


async def subscribed(url: str, session: str) -> ClientConnection:
    origin = f"http://{urlsplit(url).netloc}"
    ws = await connect(
        url,
        origin=origin,  # type: ignore[arg-type]
        additional_headers={"Cookie": f"sessionid={session}"},
    )
    await ws.send(json.dumps({"type": "subscribe", "sport": "soccer"}))
    while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "subscribed":
        pass
    return ws


async def next_vote_changed(ws: ClientConnection) -> dict[str, Any]:
    while True:
        message = json.loads(await ws.recv())
        if message["type"] == "vote.changed":
            return dict(message)


def test_the_shape_runs_nginx_two_http_workers_and_two_daphne_processes(shape: Shape) -> None:
    supervisor = shape.supervisor.pid  # type: ignore[attr-defined]
    running = {pid: program(pid) for pid in descendants(supervisor)}
    names = list(running.values())
    assert names.count("nginx: master process") == 1, running
    assert names.count("daphne") == 2, running
    # gunicorn: one arbiter and its two workers (forked: the same command line).
    workers = {
        pid: [child for child in children(pid) if running.get(child) == "gunicorn"]
        for pid, name in running.items()
        if name == "gunicorn"
    }
    assert sorted(len(w) for w in workers.values()) == [0, 0, 2], running
    # Exactly one background worker, and its heartbeat is seen.
    commands = [Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0") for pid in running]
    assert sum(b"run_worker" in command for command in commands) == 1, commands
    deadline = time.monotonic() + 30
    while not WorkerHeartbeat.objects.exists():
        assert time.monotonic() < deadline, "the worker never beat"
        time.sleep(0.1)


async def test_a_vote_through_nginx_reaches_a_socket_on_each_daphne_process(
    shape: Shape, scout_api: ApiClient, other_api: ApiClient, nomination: Nomination
) -> None:
    watcher = other_api.client.cookies["sessionid"].value
    # One client straight on each daphne process, one through nginx's /ws/.
    urls = [f"ws://{HOST}:{port}/ws/" for port in shape.ws_ports]
    urls.append(shape.url.replace("http://", "ws://") + "/ws/")
    sockets = [await subscribed(url, watcher) for url in urls]
    try:
        token = scout_api.csrf_token()
        cookies = {"sessionid": scout_api.client.cookies["sessionid"].value, "csrftoken": token}
        async with httpx.AsyncClient(base_url=shape.url, cookies=cookies) as http:
            response = await http.post(
                "/api/votes",
                json={"nominationId": nomination.pk},
                headers={"X-CSRFToken": token, "Origin": shape.url},
            )
        assert response.status_code == 201, response.text
        assert response.headers["server"] == "nginx"
        for ws in sockets:
            message = await asyncio.wait_for(next_vote_changed(ws), 10)
            assert message["data"] == {
                "votes": [{"nominationId": nomination.pk, "voteCount": 1, "version": 1}]
            }
    finally:
        for ws in sockets:
            await ws.close()


def test_nginx_serves_the_page_and_its_assets(shape: Shape) -> None:
    with httpx.Client(base_url=shape.url) as http:
        page = http.get("/nominations")
        assert page.status_code == 200
        assert page.headers["server"] == "nginx"
        assert page.headers["content-type"].startswith("text/html")
        assert '<div id="root">' in page.text
        scripts = re.findall(r'src="(/static/[^"]+\.js)"', page.text)
        assert scripts, page.text
        asset = http.get(scripts[0])
        assert asset.status_code == 200
        assert "javascript" in asset.headers["content-type"]
        assert http.get("/api/health").json() == {"status": "ok"}


def test_behind_pgbouncer_the_app_processes_query_through_it(
    tmp_path: Path, scout_api: ApiClient, nomination: Nomination
) -> None:
    if shutil.which("pgbouncer") is None and not Path("/usr/sbin/pgbouncer").exists():
        pytest.fail("pgbouncer is missing: `make pgbouncer` installs Debian's package")
    with booted(tmp_path, pgbouncer=True) as shape:
        assert shape.bouncer is not None
        supervisor = shape.supervisor.pid  # type: ignore[attr-defined]
        running = {pid: program(pid) for pid in descendants(supervisor)}
        assert "pgbouncer" in running.values(), running
        for pid in (pid for pid, name in running.items() if name in {"gunicorn", "daphne"}):
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            assert b"DB_POOLER=transaction" in environ
            assert f"DATABASE_URL={shape.bouncer.url}".encode() in environ
        token = scout_api.csrf_token()
        cookies = {"sessionid": scout_api.client.cookies["sessionid"].value, "csrftoken": token}
        with httpx.Client(base_url=shape.url, cookies=cookies) as http:
            response = http.post(
                "/api/votes",
                json={"nominationId": nomination.pk},
                headers={"X-CSRFToken": token, "Origin": shape.url},
            )
        assert response.status_code == 201, response.text
        with psycopg.connect(
            shape.bouncer.admin_conninfo(), autocommit=True, cursor_factory=psycopg.ClientCursor
        ) as console:
            clients = console.execute("SHOW CLIENTS").fetchall()
            config = {row[0]: row[1] for row in console.execute("SHOW CONFIG").fetchall()}
        assert config["pool_mode"] == "transaction"
        # The app's pools hold their connections to PgBouncer (column 2: the database).
        assert any(row[2] == settings.DATABASES["default"]["NAME"] for row in clients), clients
    nomination.refresh_from_db()
    assert nomination.vote_count == 1
