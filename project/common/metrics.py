"""The product's Prometheus metrics (prometheus_client) and where each process serves them.

Every metric is defined here once, at import, and callers only increment or observe: a
``Counter.inc`` on a request or vote path costs well under a microsecond, with no registry work.
Labels are bounded: a route template, a method, a status, a budget's or a rule's name, never a
user, an address or a raw path.

Two ways a process exports them (README, "Metrics"):

* the HTTP pool (gunicorn, ``project.wsgi``) runs in prometheus_client's multiprocess mode:
  ``PROMETHEUS_MULTIPROC_DIR`` is set in its environment before it starts, each worker writes
  its values to files there, and gunicorn's arbiter (``project/ops/gunicorn_conf.py``) empties
  the directory at start, serves the sum of every worker's files on ``METRICS_PORT`` and
  forgets a worker's live gauges when it exits;
* every other server process (each daphne process: ``project.asgi``) keeps its own registry
  and serves it on its own ``METRICS_PORT`` (:func:`serve`), with the default process and GC
  collectors (RSS, CPU, open files, collections).

``METRICS_ADDR`` (``127.0.0.1``) is the address the metrics server binds: metrics are never
served through nginx.
"""

from __future__ import annotations

import gc
import logging
import os
import time
from collections.abc import Callable
from typing import Any

from prometheus_client import Counter, Gauge, Histogram, start_http_server

logger = logging.getLogger(__name__)

MULTIPROCESS = bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))

# --- HTTP ---------------------------------------------------------------------------------

HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
HTTP_REQUESTS = Counter(
    "http_requests_total",
    "HTTP requests answered, by route template (Django's resolver route), method and status.",
    ["route", "method", "status"],
)
HTTP_DURATION = Histogram(
    "http_request_duration_seconds",
    "Time from a request entering Django's middleware to its response, by route and method.",
    ["route", "method"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
# Requests no URL pattern resolved (refused by a middleware first, a bad Host) and files
# WhiteNoise served before any resolution.
UNRESOLVED_ROUTE = "<unresolved>"
STATIC_ROUTE = "<static>"

# --- Votes, budgets, integrity -------------------------------------------------------------

VOTES_CAST = Counter("votes_cast_total", "Votes cast (committed).")
VOTES_REMOVED = Counter("votes_removed_total", "Votes taken back by their voters (committed).")
VOTES_VOIDED = Counter("votes_voided_total", "Votes voided by an admin (committed).")
VOTES_RESTORED = Counter("votes_restored_total", "Voided votes restored by an admin (committed).")
BUDGET_REFUSALS = Counter(
    "budget_refusals_total",
    "Writes refused (429) because a budget was spent, by budget (VOTES, NOMINATIONS, ...).",
    ["budget"],
)
INTEGRITY_FLAGS = Counter(
    "integrity_flags_raised_total", "Integrity flags opened by live detection, by rule.", ["rule"]
)

# --- Readiness (project/health.py) ------------------------------------------------------------

READY = Gauge(
    "readiness_ready",
    "1 when the process's last /readyz found every dependency answering, else 0.",
    multiprocess_mode="mostrecent",
)
READINESS_FAILURES = Counter(
    "readiness_check_failures_total",
    "Dependency checks of /readyz that failed or ran out of time, by check.",
    ["check"],
)
for _check in ("database", "redis", "subscription"):
    READINESS_FAILURES.labels(_check)  # exported at 0 from the start: rate() needs a series

# --- Garbage collection -----------------------------------------------------------------------

GC_PAUSES = Histogram(
    "python_gc_pause_seconds",
    "Pauses of the process's garbage collections, by generation.",
    ["generation"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)


def http_route(match: Any, path: str, static_url: str) -> str:
    """The route label of a request: its resolver route, or a fixed label when none."""
    if match is not None:
        return str(match.route)
    return STATIC_ROUTE if static_url and path.startswith(static_url) else UNRESOLVED_ROUTE


def http_method(method: str | None) -> str:
    return method if method in HTTP_METHODS else "other"


class RequestMetricsMiddleware:
    """Counts every request by route template, method and status, and times it (the first
    middleware: what it measures includes every other one)."""

    def __init__(self, get_response: Callable[[Any], Any]) -> None:
        from django.conf import settings

        self.get_response = get_response
        self.static_url = str(settings.STATIC_URL or "")

    def __call__(self, request: Any) -> Any:
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - started
        route = http_route(getattr(request, "resolver_match", None), request.path, self.static_url)
        method = http_method(request.method)
        HTTP_REQUESTS.labels(route, method, str(response.status_code)).inc()
        HTTP_DURATION.labels(route, method).observe(elapsed)
        return response


_gc_timing = False


def time_gc_pauses() -> None:
    """Observe every garbage collection's pause in ``python_gc_pause_seconds`` (once per
    process; a collection costs two clock reads and one observation more)."""
    global _gc_timing
    if _gc_timing:
        return
    _gc_timing = True
    started = [0.0]
    by_generation = {generation: GC_PAUSES.labels(str(generation)) for generation in (0, 1, 2)}

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0] = time.perf_counter()
            return
        child = by_generation.get(info.get("generation", 0))
        if child is not None:
            child.observe(time.perf_counter() - started[0])

    gc.callbacks.append(callback)


def metrics_address() -> str:
    return os.environ.get("METRICS_ADDR", "127.0.0.1")


def serve() -> int | None:
    """Serve this process's registry on ``METRICS_ADDR``:``METRICS_PORT`` (a daphne process);
    the port, or None when none is set or the process is a worker of a multiprocess pool
    (its arbiter serves the pool's metrics)."""
    port = os.environ.get("METRICS_PORT", "")
    if not port or MULTIPROCESS:
        return None
    try:
        start_http_server(int(port), addr=metrics_address())
    except OSError as error:
        # Serving is what matters: a taken port costs the metrics, not the process.
        logger.error("Metrics not served on %s:%s: %s", metrics_address(), port, error)
        return None
    logger.info("Metrics on http://%s:%s/metrics", metrics_address(), port)
    return int(port)
