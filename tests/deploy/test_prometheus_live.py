"""A real Prometheus (Debian's ``prometheus``) scraping the production shape (nginx, the HTTP
pool, two daphne processes, the worker) with deploy/prometheus's configuration and alert rules,
rendered with this run's ports and a 1 s scrape and evaluation interval: every target is up,
every metric the dashboard and the alerts query is there once real traffic went through, and
stopping the shape's (private) Redis has the delivery-probe alert firing for both daphne
processes within 30 s while every process still answers its scrape and ``/healthz``, and every
process's ``readiness_ready`` drops to 0 with nobody calling ``/readyz`` (each evaluates it on a
timer); both clear once Redis is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from websockets.exceptions import ConnectionClosed

from devtools import prometheus
from devtools.private_postgres import PrivateRedis
from project.ops.prodshape import HOST, ROOT, Shape, running
from project.scouting.models import Nomination
from tests.builders import make_user, stored_nomination
from tests.deploy.shape_env import shape_env
from tests.deploy.test_observability import socket, until
from tests.helpers import ApiClient, unless_available
from tests.ops.test_dashboards import alert_queries, dashboard_queries, metric_names

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    unless_available(
        not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
        reason="the production shape's processes share PostgreSQL and Redis",
    ),
    unless_available(shutil.which("redis-server") is None, reason="needs redis-server"),
    unless_available(
        prometheus.binary() is None, reason="needs prometheus (`make prometheus` installs it)"
    ),
]

ALERT = "ScoutVoteDeliveryProbeStale"
# Metrics that have a series only once what they count happened (no live vote ring here): their
# family is known to Prometheus from the scrape's TYPE and HELP lines (its metadata).
EVENT_ONLY = {"integrity_flags_raised_total"}


def eventually(check: Callable[[], bool], timeout: float, what: str) -> float:
    """Seconds until ``check`` held; fails after ``timeout``."""
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < timeout, f"{what} did not happen in {timeout:.0f} s"
        time.sleep(0.25)
    return time.monotonic() - started


@pytest.fixture
def redis_server() -> Iterator[PrivateRedis]:
    private = PrivateRedis()
    private.start()
    try:
        yield private
    finally:
        private.stop()


@pytest.fixture
def shape(tmp_path: Path, redis_server: PrivateRedis) -> Iterator[Shape]:
    if not (ROOT / "frontend" / "dist" / "index.html").exists():
        pytest.fail("The SPA is not built: run `make frontend` (make test does it)")
    env = shape_env(
        f"prom-{uuid.uuid4().hex[:8]}",
        log_level="CRITICAL",
        REDIS_URL=redis_server.url,
        BUDGETS="on",
        BUDGET_VOTES_PER_MINUTE="1",
        REALTIME_PROBE_INTERVAL="1",
    )
    shape = Shape(port=0, http_workers=1, ws_processes=2, run_dir=tmp_path / "run")
    with (
        (tmp_path / "shape.log").open("ab") as log,
        running(shape, env, output=log.fileno(), timeout=120),
    ):
        yield shape


@pytest.fixture
def server(tmp_path: Path, shape: Shape) -> Iterator[prometheus.PrivatePrometheus]:
    scraped = {
        "scoutvote-http": [f"{HOST}:{shape.metrics_ports['http']}"],
        "scoutvote-ws": [f"{HOST}:{shape.metrics_ports[n]}" for n in ("ws1", "ws2")],
    }
    private = prometheus.PrivatePrometheus(tmp_path / "prometheus", scraped, interval="1s")
    private.start()
    try:
        yield private
    finally:
        private.stop()


@pytest.fixture
def nominations() -> list[Nomination]:
    """Two approved nominations: one vote each, the second over the budget."""
    nominator = make_user()
    return [stored_nomination(nominator, name=f"Pia Prom {i}") for i in range(2)]


def firing(server: prometheus.PrivatePrometheus) -> set[str]:
    """The instances the delivery-probe alert fires for."""
    return {
        a["labels"].get("instance", "")
        for a in server.alerts()
        if a["labels"]["alertname"] == ALERT and a["state"] == "firing"
    }


def readiness(server: prometheus.PrivatePrometheus) -> dict[str, float]:
    """``readiness_ready`` by instance, as Prometheus scraped it last."""
    return {r["metric"]["instance"]: float(r["value"][1]) for r in server.query("readiness_ready")}


def known_metrics(server: prometheus.PrivatePrometheus) -> tuple[set[str], set[str]]:
    """(metric names with a series, metric families named in the targets' metadata)."""
    series = set(server.api("label/__name__/values"))
    return series, set(server.api("metadata"))


async def test_prometheus_scrapes_the_shape_and_pages_when_redis_stops(
    shape: Shape,
    server: prometheus.PrivatePrometheus,
    redis_server: PrivateRedis,
    scout_api: ApiClient,
    other_api: ApiClient,
    nominations: list[Nomination],
) -> None:
    ws_targets = {f"{HOST}:{shape.metrics_ports[n]}" for n in ("ws1", "ws2")}
    all_targets = {*ws_targets, f"{HOST}:{shape.metrics_ports['http']}"}
    eventually(
        lambda: len(server.targets()) == 3 and all(t["health"] == "up" for t in server.targets()),
        30,
        "every target up",
    )
    assert {t["labels"]["job"] for t in server.targets()} == {"scoutvote-http", "scoutvote-ws"}

    # Real traffic through nginx: a socket watching soccer, a vote, one over the budget.
    watcher = other_api.client.cookies["sessionid"].value
    ws = await socket(f"ws://{HOST}:{shape.ws_ports[0]}/ws/", watcher)
    await ws.send(json.dumps({"type": "subscribe", "sport": "soccer"}))
    await until(ws, "subscribed")
    token = scout_api.csrf_token()
    cookies = {"sessionid": scout_api.client.cookies["sessionid"].value, "csrftoken": token}
    headers = {"X-CSRFToken": token, "Origin": shape.url}
    async with httpx.AsyncClient(base_url=shape.url, cookies=cookies, headers=headers) as http:
        answers = [await http.post("/api/votes", json={"nominationId": n.pk}) for n in nominations]
    assert [a.status_code for a in answers] == [201, 429], answers[-1].text
    await until(ws, "vote.changed")
    # A socket flooding messages is closed with 4429.
    for _ in range(settings.REALTIME_CLIENT_MESSAGE_BURST + 10):
        await ws.send(json.dumps({"type": "ping"}))
    with pytest.raises(ConnectionClosed):
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    assert ws.close_code == 4429

    # Prometheus's own view: the vote counted once, and every queried metric present.
    eventually(
        lambda: [float(r["value"][1]) for r in server.query("sum(votes_cast_total)")] == [1.0],
        30,
        "the vote in Prometheus",
    )
    queried = set().union(*(metric_names(expr) for _, expr in dashboard_queries()))
    queried |= set().union(*(metric_names(expr) for _, expr in alert_queries()))
    missing = lambda: queried - EVENT_ONLY - known_metrics(server)[0]  # noqa: E731
    with contextlib.suppress(AssertionError):
        eventually(lambda: not missing(), 30, "every queried series")
    assert not missing(), sorted(missing())
    families = known_metrics(server)[1]
    for name in EVENT_ONLY:
        assert {name, name.removesuffix("_total")} & families, name
    probes = server.query(
        'time() - realtime_probe_last_success_timestamp_seconds{job="scoutvote-ws"}'
    )
    assert sorted(r["metric"]["instance"] for r in probes) == sorted(ws_targets), probes
    assert all(float(r["value"][1]) < 10 for r in probes), probes
    assert firing(server) == set()

    # Redis stops: every process stays up, the probe alert pages for both daphne processes,
    # and every process's readiness gauge drops with nobody calling /readyz (its timer).
    assert readiness(server) == {t: 1.0 for t in all_targets}
    redis_server.stop()
    stopped = time.monotonic()
    eventually(lambda: firing(server) == ws_targets, 30, f"{ALERT} firing")
    fired_after = time.monotonic() - stopped
    assert fired_after <= 30
    eventually(lambda: readiness(server) == {t: 0.0 for t in all_targets}, 30, "readiness_ready 0")
    up = server.query("up")
    assert len(up) == 3 and all(r["value"][1] == "1" for r in up), up
    for port in [*shape.http_ports, *shape.ws_ports]:
        assert httpx.get(f"http://{HOST}:{port}/healthz").status_code == 200, port

    # Redis back: the probes come back through it and the alert clears; ready again.
    redis_server.start()
    eventually(lambda: firing(server) == set(), 30, f"{ALERT} clearing")
    eventually(lambda: readiness(server) == {t: 1.0 for t in all_targets}, 30, "readiness_ready 1")
    print(f"{ALERT} fired {fired_after:.1f} s after Redis stopped")
