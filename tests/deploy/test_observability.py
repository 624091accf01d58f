"""What operators see of the production shape, booted for real (nginx, the HTTP pool with two
gunicorn workers, two daphne processes, PostgreSQL, Redis): each process's metrics, scraped on
its own port, name what README says with the types and labels it says, and move with real
traffic; ``/readyz`` of the pool and of a daphne process answers 503 while their (private)
Redis is stopped, and 200 once it is back.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import yaml
from django.conf import settings
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from devtools import launcher
from devtools.private_postgres import PrivateRedis
from project.ops.prodshape import HOST, ROOT, Shape, free_port, running
from project.scouting.models import Nomination
from tests.builders import make_user, stored_nomination
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

VOTES = 6  # votes the test casts; the one after them is over the shape's budget

# name -> (type, label names) of what each kind of process exports once it has served traffic.
POOL_CATALOGUE = {
    "http_requests": ("counter", {"route", "method", "status"}),
    "http_request_duration_seconds": ("histogram", {"route", "method"}),
    "votes_cast": ("counter", set()),
    "votes_removed": ("counter", set()),
    "votes_voided": ("counter", set()),
    "votes_restored": ("counter", set()),
    "budget_refusals": ("counter", {"budget"}),
    "readiness_ready": ("gauge", set()),
    "readiness_check_failures": ("counter", {"check"}),
    "realtime_events_published": ("counter", {"type"}),
    "realtime_merge_window_items": ("histogram", {"kind"}),
    "python_gc_pause_seconds": ("histogram", {"generation"}),
    "process_resident_memory_bytes": ("gauge", {"pid"}),
    "process_cpu_seconds": ("counter", {"pid"}),
}
WS_CATALOGUE = {
    "websocket_connections_open": ("gauge", set()),
    "websocket_closes": ("counter", {"code"}),
    "websocket_sent_bytes": ("counter", set()),
    "realtime_events_delivered": ("counter", {"type"}),
    "realtime_replay_events": ("counter", set()),
    "realtime_resyncs": ("counter", set()),
    "realtime_snapshots": ("counter", set()),
    "readiness_ready": ("gauge", set()),
    "python_gc_pause_seconds": ("histogram", {"generation"}),
    "process_resident_memory_bytes": ("gauge", set()),
    "realtime_probe_lag_seconds": ("histogram", set()),
    "realtime_probe_last_success_timestamp_seconds": ("gauge", set()),
}


class Scrape:
    """One scrape of a process's /metrics, parsed."""

    def __init__(self, url: str) -> None:
        response = httpx.get(url, timeout=10)
        assert response.status_code == 200, response.text
        self.families = {f.name: f for f in text_string_to_metric_families(response.text)}

    def value(self, sample: str, **labels: str) -> float:
        """The sum of the samples named ``sample`` whose labels include ``labels``."""
        return sum(
            s.value
            for family in self.families.values()
            for s in family.samples
            if s.name == sample and labels.items() <= s.labels.items()
        )

    def label_names(self, name: str) -> set[str]:
        return {key for s in self.families[name].samples for key in s.labels} - {"le"}

    def sample_names(self) -> set[str]:
        return {s.name for family in self.families.values() for s in family.samples}


def eventually(check: Callable[[], bool], timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "the condition did not hold in time"
        time.sleep(0.1)


@pytest.fixture
def shape(tmp_path: Path) -> Iterator[Shape]:
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        pytest.fail("nginx is missing: `make nginx` installs Debian's package (make test does)")
    if not (ROOT / "frontend" / "dist" / "index.html").exists():
        pytest.fail("The SPA is not built: run `make frontend` (make test does it)")
    prefix = f"obs-test-{uuid.uuid4().hex[:12]}"
    env = shape_env(
        prefix, BUDGETS="on", BUDGET_VOTES_PER_MINUTE=str(VOTES), REALTIME_PROBE_INTERVAL="1"
    )
    shape = Shape(port=0, http_workers=2, ws_processes=2, run_dir=tmp_path / "run")
    log = (tmp_path / "shape.log").open("ab")
    try:
        with running(shape, env, output=log.fileno()):
            yield shape
    finally:
        log.close()
        prefixed_keys_deleted(prefix)


@pytest.fixture
def targets() -> list[Nomination]:
    """Approved nominations, one per vote the test casts and one more."""
    nominator = make_user()
    return [stored_nomination(nominator, name=f"Mia Metric {i}") for i in range(VOTES + 1)]


async def socket(url: str, session: str) -> ClientConnection:
    return await connect(
        url,
        origin=f"http://{urlsplit(url).netloc}",  # type: ignore[arg-type]
        additional_headers={"Cookie": f"sessionid={session}"},
    )


async def until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        while True:
            message = json.loads(await ws.recv())
            if message["type"] == kind:
                return dict(message)

    return await asyncio.wait_for(read(), 10)


async def test_the_catalogue_and_counters_that_move_with_traffic(
    shape: Shape, scout_api: ApiClient, other_api: ApiClient, targets: list[Nomination]
) -> None:
    pool_url, ws_url = shape.metrics_url("http"), shape.metrics_url("ws1")
    before_pool, before_ws = Scrape(pool_url), Scrape(ws_url)
    assert before_pool.value("votes_cast_total") == 0
    watcher = other_api.client.cookies["sessionid"].value
    ws = await socket(f"ws://{HOST}:{shape.ws_ports[0]}/ws/", watcher)
    await ws.send(json.dumps({"type": "subscribe", "sport": "soccer"}))
    position = (await until(ws, "subscribed"))["groups"]["sport.soccer"]
    eventually(lambda: Scrape(ws_url).value("websocket_connections_open") == 1)

    # The budget's minute slides (project/common/budgets.py): the votes below fall in one
    # window however the wall clock's minute turns while they are cast.
    token = scout_api.csrf_token()
    cookies = {"sessionid": scout_api.client.cookies["sessionid"].value, "csrftoken": token}
    headers = {"X-CSRFToken": token, "Origin": shape.url}
    async with httpx.AsyncClient(base_url=shape.url, cookies=cookies, headers=headers) as http:
        answers = [
            await http.post("/api/votes", json={"nominationId": nomination.pk})
            for nomination in targets
        ]
    assert [a.status_code for a in answers] == [201] * VOTES + [429], answers[-1].text
    await until(ws, "vote.changed")

    # The resume of a cursor past the group's position is answered with resync and a snapshot.
    await ws.send(json.dumps({"type": "resume", "cursors": {"sport.soccer": position + 1000}}))
    await until(ws, "resync")
    await until(ws, "snapshot")

    pool = Scrape(pool_url)
    # The votes were spread over the pool's workers; the pool's scrape is their sum.
    assert pool.value("votes_cast_total") == VOTES
    assert pool.value("budget_refusals_total", budget="VOTES") == 1
    assert (
        pool.value("http_requests_total", route="api/votes", method="POST", status="201") == VOTES
    )
    assert pool.value("http_requests_total", route="api/votes", method="POST", status="429") == 1
    assert pool.value("http_request_duration_seconds_count", route="api/votes") == VOTES + 1
    assert pool.value("realtime_events_published_total", type="vote.changed") >= 1
    assert pool.value("realtime_merge_window_items_count", kind="votes") >= 1
    workers = {s.labels["pid"] for s in pool.families["process_resident_memory_bytes"].samples}
    assert len(workers) == 3  # the arbiter and its two workers
    routes = {s.labels["route"] for s in pool.families["http_requests"].samples}
    assert not any(str(n.pk) in route for n in targets for route in routes), routes

    ws1 = Scrape(ws_url)
    assert ws1.value("realtime_events_delivered_total", type="vote.changed") >= 1
    assert ws1.value("realtime_resyncs_total") == before_ws.value("realtime_resyncs_total") + 1
    assert ws1.value("realtime_snapshots_total") >= 2  # the subscribe's and the resync's
    assert ws1.value("websocket_sent_bytes_total") > 0
    assert ws1.value("process_resident_memory_bytes") > 10 << 20

    # The delivery probes: ws1's own and ws2's reach ws1 through Redis.
    eventually(lambda: Scrape(ws_url).value("realtime_probe_lag_seconds_count") >= 4)
    last = Scrape(ws_url).value("realtime_probe_last_success_timestamp_seconds")
    assert time.time() - 10 < last <= time.time()

    # Flooding: more messages than the burst allows closes the socket with 4429.
    for _ in range(settings.REALTIME_CLIENT_MESSAGE_BURST + 10):
        await ws.send(json.dumps({"type": "ping"}))
    with pytest.raises(ConnectionClosed):
        while True:  # the pongs of the allowed burst, then the close
            await asyncio.wait_for(ws.recv(), 10)
    assert ws.close_code == 4429
    eventually(lambda: Scrape(ws_url).value("websocket_connections_open") == 0)
    ws1 = Scrape(ws_url)
    assert ws1.value("websocket_closes_total", code="4429") == 1

    for scrape, catalogue in ((pool, POOL_CATALOGUE), (ws1, WS_CATALOGUE)):
        for name, (kind, labels) in catalogue.items():
            assert name in scrape.families, name
            assert scrape.families[name].type == kind, name
            assert scrape.label_names(name) == labels, name

    # Every metric an alert reads is one the shape exports.
    exported = pool.sample_names() | ws1.sample_names() | {"up"}
    alerts = yaml.safe_load((ROOT / "deploy" / "prometheus" / "alerts.yml").read_text())
    for rule in alerts["groups"][0]["rules"]:
        named = set(re.findall(r"([a-z_:][a-z0-9_:]*)\s*(?:\{|\[|==)", rule["expr"]))
        assert named and named <= exported, (rule["alert"], named - exported)


def status(url: str) -> int:
    try:
        return httpx.get(url, timeout=5).status_code
    except httpx.TransportError:
        return 0


@unless_available(shutil.which("redis-server") is None, reason="needs redis-server")
def test_readyz_fails_while_redis_is_stopped_and_recovers(tmp_path: Path) -> None:
    private = PrivateRedis()
    private.start()
    env = shape_env(
        f"obs-ready-{uuid.uuid4().hex[:8]}",
        log_level="CRITICAL",
        suite_rules=False,
        REDIS_URL=private.url,
        DJANGO_DEBUG="0",
        REALTIME_PROBE_INTERVAL="1",
    )
    http_port, ws_port = free_port(), free_port()
    shape = Shape(port=0, http_ports=[http_port], ws_ports=[ws_port], run_dir=tmp_path)
    pool = launcher.ServerProcess(shape.http_commands()["http"], http_port, env, name="pool")
    ws = launcher.ServerProcess(shape.ws_commands()["ws1"], ws_port, env, name="daphne")
    urls = [f"http://{HOST}:{http_port}/readyz", f"http://{HOST}:{ws_port}/readyz"]
    try:
        pool.start()
        ws.start()
        eventually(lambda: all(status(url) == 200 for url in urls), timeout=60)
        assert httpx.get(urls[1]).text == "ok\ndatabase ok\nredis ok\nsubscription ok\n"

        private.stop()
        eventually(lambda: all(status(url) == 503 for url in urls))
        assert "redis failed" in httpx.get(urls[1]).text
        # The public behind a proxy reads one word.
        behind = httpx.get(urls[0], headers={"X-Real-IP": "203.0.113.9"})
        assert (behind.status_code, behind.text) == (503, "unavailable\n")
        for name in ("http", "ws1"):
            scrape = Scrape(shape.metrics_url(name))
            assert scrape.value("readiness_ready") == 0, name
            assert scrape.value("readiness_check_failures_total", check="redis") >= 1, name

        back = time.time()
        private.start()
        eventually(lambda: all(status(url) == 200 for url in urls))
        probe = shape.metrics_url("ws1")
        assert Scrape(probe).value("readiness_ready") == 1
        # The delivery probe comes back through the restarted Redis.
        eventually(
            lambda: Scrape(probe).value("realtime_probe_last_success_timestamp_seconds") > back
        )
    finally:
        ws.stop()
        pool.stop()
        private.stop()


@unless_available(shutil.which("redis-server") is None, reason="needs redis-server")
def test_readiness_follows_redis_with_nobody_calling_readyz(tmp_path: Path) -> None:
    """Each process evaluates its readiness on a timer (READINESS_INTERVAL): the gauge the
    alerts read drops while Redis is stopped and comes back with it, no /readyz called."""
    private = PrivateRedis()
    private.start()
    env = shape_env(
        f"obs-timer-{uuid.uuid4().hex[:8]}",
        log_level="CRITICAL",
        suite_rules=False,
        REDIS_URL=private.url,
        DJANGO_DEBUG="0",
        READINESS_INTERVAL="1",
    )
    http_port, ws_port = free_port(), free_port()
    shape = Shape(port=0, http_ports=[http_port], ws_ports=[ws_port], run_dir=tmp_path)
    pool = launcher.ServerProcess(shape.http_commands()["http"], http_port, env, name="pool")
    ws = launcher.ServerProcess(shape.ws_commands()["ws1"], ws_port, env, name="daphne")

    def ready(name: str) -> float | None:
        try:
            return Scrape(shape.metrics_url(name)).value("readiness_ready")
        except (httpx.TransportError, KeyError, AssertionError):
            return None

    try:
        pool.start()
        ws.start()
        healthz = [f"http://{HOST}:{p}/healthz" for p in (http_port, ws_port)]
        eventually(lambda: all(status(url) == 200 for url in healthz), timeout=60)
        eventually(lambda: ready("http") == 1 and ready("ws1") == 1, timeout=30)
        private.stop()
        eventually(lambda: ready("http") == 0 and ready("ws1") == 0, timeout=20)
        for name in ("http", "ws1"):
            failures = Scrape(shape.metrics_url(name))
            assert failures.value("readiness_check_failures_total", check="redis") >= 1, name
        private.start()
        eventually(lambda: ready("http") == 1 and ready("ws1") == 1, timeout=30)
    finally:
        ws.stop()
        pool.stop()
        private.stop()
