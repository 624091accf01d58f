"""``/healthz`` and ``/readyz`` of every server process, answered before Django.

* ``/healthz``: the process is alive and serving (no dependency is checked): 200 ``ok``.
* ``/readyz``: the database (``SELECT 1`` on a pooled connection), Redis when ``REDIS_URL``
  is set (a ``PING`` on the live layer's client) and, in an ASGI process (daphne: it holds
  the websockets), the live layer's pub/sub subscription (a ``PING`` on the subscription's own
  connection, read back by its reader) all answer within ``READINESS_TIMEOUT`` seconds (1)
  together: 200 ``ok``, else 503 ``unavailable``.

Both sit in front of the Django application (``project.wsgi``, ``project.asgi``), so a health
check is answered whatever the Host header (an orchestrator calls the container by its own
address), without the HTTPS redirect, sessions or the URL resolver, and is not counted in the
HTTP metrics. The public gets one word; which check failed goes to the log, to
``readiness_check_failures_total{check}``, and into the body only for a caller on this machine
that did not come through a proxy (no ``X-Forwarded-For``/``X-Real-IP``): ``curl`` on the
process's own port. A check still running from an earlier call is waited for rather than started
again, so a dependency that hangs holds one thread per check, not one per call.

Each server process also evaluates its readiness on a timer, every ``READINESS_INTERVAL``
seconds (5; 0: never), whether anyone calls ``/readyz`` or not, so that ``readiness_ready``
and ``readiness_check_failures_total`` (and the alerts on them) follow the dependencies: a
thread in each gunicorn worker (``start_timer``, from project/ops/gunicorn_conf.py's
``post_worker_init``), a task on a daphne process's event loop (``start_in_daphne``, from
project/asgi.py), which also checks the loop's own subscription.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import os
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from typing import Any

from django.conf import settings
from django.db import connection

from project.common import metrics
from realtime.backend import get_backend
from realtime.hub import hub_of
from realtime.redis_publish import RedisBackend

logger = logging.getLogger(__name__)

HEALTH_PATH = "/healthz"
READY_PATH = "/readyz"
PATHS = frozenset({HEALTH_PATH, READY_PATH})
TIMEOUT = float(os.environ.get("READINESS_TIMEOUT", "1.0"))
INTERVAL = float(os.environ.get("READINESS_INTERVAL", "5"))
FORWARDING_HEADERS = (b"x-forwarded-for", b"x-real-ip")

Results = dict[str, str]  # check -> "ok", "failed" or "timeout"


def _database() -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        connection.close()  # back to the pool


def _redis() -> None:
    backend = get_backend()
    if isinstance(backend, RedisBackend):
        for client in backend.clients():
            client.ping()


SYNC_CHECKS: dict[str, Callable[[], None]] = {"database": _database, "redis": _redis}


def _sync_checks() -> dict[str, Callable[[], None]]:
    """The checks that apply: Redis only when the product uses it (``REDIS_URL``)."""
    if settings.REDIS_URL:
        return SYNC_CHECKS
    return {name: check for name, check in SYNC_CHECKS.items() if name != "redis"}


class _Running:
    """The checks under way in this process, one per name, in threads of their own."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.futures: dict[str, Future[None]] = {}
        self.executor: ThreadPoolExecutor | None = None

    def start(self, name: str, check: Callable[[], None]) -> Future[None]:
        with self.lock:
            future = self.futures.get(name)
            if future is None or future.done():
                if self.executor is None:  # made in the process that serves (after a fork)
                    self.executor = ThreadPoolExecutor(
                        max_workers=len(SYNC_CHECKS), thread_name_prefix="readiness"
                    )
                future = self.futures[name] = self.executor.submit(check)
            return future


_running = _Running()


def _outcome(future: Future[None] | asyncio.Future[None]) -> str:
    if not future.done():
        return "timeout"
    if future.cancelled() or future.exception() is not None:
        return "failed"
    return "ok"


def _record(results: Results) -> bool:
    ready = all(result == "ok" for result in results.values())
    metrics.READY.set(1 if ready else 0)
    for name, result in results.items():
        if result != "ok":
            metrics.READINESS_FAILURES.labels(name).inc()
    if not ready:
        logger.warning(
            "Not ready: %s", ", ".join(f"{name} {result}" for name, result in results.items())
        )
    return ready


def check_sync(timeout: float = TIMEOUT) -> Results:
    """The dependencies of a WSGI process (the HTTP pool): the database and Redis."""
    futures = {name: _running.start(name, check) for name, check in _sync_checks().items()}
    wait_futures(list(futures.values()), timeout)
    return {name: _outcome(future) for name, future in futures.items()}


_subscription_checks: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Future[None]] = (
    weakref.WeakKeyDictionary()
)


def _subscription_check() -> asyncio.Future[None]:
    loop = asyncio.get_running_loop()
    task = _subscription_checks.get(loop)
    if task is None or task.done():
        task = _subscription_checks[loop] = asyncio.ensure_future(hub_of(get_backend()).ping())
        task.add_done_callback(_consume)
    return task


def _consume(task: asyncio.Future[None]) -> None:
    if not task.cancelled():
        task.exception()  # read, so a failed check is not reported as never retrieved


async def check_async(timeout: float = TIMEOUT) -> Results:
    """The dependencies of an ASGI process (daphne): the database, Redis and the live
    layer's subscription of this event loop."""
    futures: dict[str, asyncio.Future[None]] = {
        name: asyncio.wrap_future(_running.start(name, check))
        for name, check in _sync_checks().items()
    }
    futures["subscription"] = _subscription_check()
    await asyncio.wait(futures.values(), timeout=timeout)
    return {name: _outcome(future) for name, future in futures.items()}


def _local(address: str | None) -> bool:
    try:
        return address is not None and ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def answer(path: str, method: str, results: Results | None, detailed: bool) -> tuple[int, bytes]:
    """Status and body of a health path (``results``: the readiness checks, None for
    ``/healthz``)."""
    if method not in ("GET", "HEAD"):
        return 405, b"method not allowed\n"
    if results is None:
        return 200, b"ok\n"
    ready = _record(results)
    body = b"ok\n" if ready else b"unavailable\n"
    if detailed:
        body += "".join(f"{name} {result}\n" for name, result in results.items()).encode()
    return (200 if ready else 503), body


def _headers(body: bytes) -> list[tuple[str, str]]:
    return [
        ("Content-Type", "text/plain; charset=utf-8"),
        ("Content-Length", str(len(body))),
        ("Cache-Control", "no-store"),
    ]


class HealthWsgi:
    """The health paths in front of a WSGI application (the HTTP pool)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path not in PATHS:
            return self.app(environ, start_response)
        method = environ.get("REQUEST_METHOD", "GET")
        results = check_sync() if path == READY_PATH and method in ("GET", "HEAD") else None
        detailed = _local(environ.get("REMOTE_ADDR")) and not any(
            f"HTTP_{name.decode().upper().replace('-', '_')}" in environ
            for name in FORWARDING_HEADERS
        )
        status, body = answer(path, method, results, detailed)
        start_response(f"{status} {_REASONS[status]}", _headers(body))
        return [b"" if method == "HEAD" else body]


_REASONS = {200: "OK", 405: "Method Not Allowed", 503: "Service Unavailable"}


class HealthAsgi:
    """The health paths in front of an ASGI ``http`` application (a daphne process), answered
    on the event loop: ``/healthz`` says the loop turns, ``/readyz`` also checks the loop's own
    subscription."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or path not in PATHS:
            await self.app(scope, receive, send)
            return
        method = scope.get("method", "GET")
        results = await check_async() if path == READY_PATH and method in ("GET", "HEAD") else None
        client = scope.get("client") or (None, None)
        names = {name.lower() for name, _ in scope.get("headers", ())}
        detailed = _local(client[0]) and not any(name in names for name in FORWARDING_HEADERS)
        status, body = answer(path, method, results, detailed)
        headers = [(k.lower().encode(), v.encode()) for k, v in _headers(body)]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": b"" if method == "HEAD" else body})


def evaluate_sync() -> bool:
    """Check and record this (WSGI) process's readiness; whether it is ready."""
    return _record(check_sync())


async def evaluate_async() -> bool:
    """Check and record this (ASGI) process's readiness; whether it is ready."""
    return _record(await check_async())


def start_timer(interval: float = INTERVAL) -> threading.Thread | None:
    """Evaluate readiness now and every ``interval`` seconds in a daemon thread of this
    process (a gunicorn worker); None when ``interval`` is 0."""
    if interval <= 0:
        return None

    def run() -> None:
        while True:
            try:
                evaluate_sync()
            except Exception:
                logger.exception("Evaluating readiness failed")
            time.sleep(interval)

    thread = threading.Thread(target=run, name="readiness-timer", daemon=True)
    thread.start()
    return thread


_timer_task: asyncio.Task[None] | None = None


async def run_async_timer(interval: float) -> None:
    """Evaluate readiness now and every ``interval`` seconds on the running event loop."""
    while True:
        try:
            await evaluate_async()
        except Exception:
            logger.exception("Evaluating readiness failed")
        await asyncio.sleep(interval)


def start_in_daphne(interval: float = INTERVAL) -> bool:
    """Start the timer on daphne's event loop once it runs (called while daphne loads the
    application, before its reactor starts); False outside daphne or with ``interval`` 0."""
    loop = getattr(sys.modules.get("daphne.server"), "twisted_loop", None)
    if loop is None or interval <= 0:
        return False

    def start() -> None:
        global _timer_task
        _timer_task = asyncio.ensure_future(run_async_timer(interval))

    loop.call_soon_threadsafe(start)
    return True
