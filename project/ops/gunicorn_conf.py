"""gunicorn's configuration for the HTTP pool (``gunicorn -c python:project.ops.gunicorn_conf``):
the hooks of prometheus_client's multiprocess mode. Every other setting comes from the
command line (project/ops/prodshape.py, docker-compose.yml).

``PROMETHEUS_MULTIPROC_DIR`` is set in the pool's environment by whoever starts it, so each
worker imports prometheus_client in multiprocess mode and writes its values to files there.
The arbiter (which never loads the application):

* empties the directory at start (values of an earlier run would be added to this one's);
* once ready, serves the sum of every worker's files on ``METRICS_ADDR``:``METRICS_PORT``
  (127.0.0.1 by default), with each live process's RSS and CPU (``process_*`` with a ``pid``
  label: a worker's own process collector cannot run in multiprocess mode, so the arbiter reads
  /proc for it);
* forgets an exited worker's live gauges (``mark_process_dead``): its counters and histograms
  stay in the sums.

Each worker, once it has loaded the application, starts its readiness timer
(project/health.py).

Names here are gunicorn settings or hooks; imports are private (a module-level name that
matches a setting would be taken as one).
"""

from __future__ import annotations

import functools as _functools
import logging as _logging
import os as _os
from collections.abc import Iterator as _Iterator
from pathlib import Path as _Path
from typing import Any as _Any

_log = _logging.getLogger("gunicorn.error")


def _multiproc_dir() -> _Path | None:
    path = _os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")
    return _Path(path) if path else None


class _PoolProcesses:
    """``process_*`` of the arbiter and every live worker, labelled by pid."""

    def __init__(self, server: _Any) -> None:
        self.server = server

    def collect(self) -> _Iterator[_Any]:
        from prometheus_client import ProcessCollector
        from prometheus_client.core import Metric

        merged: dict[str, _Any] = {}
        for pid in [_os.getpid(), *list(self.server.WORKERS)]:
            collector = ProcessCollector(pid=_functools.partial(str, pid), registry=None)
            for family in collector.collect():
                into = merged.get(family.name)
                if into is None:
                    into = merged[family.name] = Metric(
                        family.name, family.documentation, family.type, family.unit
                    )
                for sample in family.samples:
                    into.add_sample(sample.name, {**sample.labels, "pid": str(pid)}, sample.value)
        yield from merged.values()


def on_starting(server: _Any) -> None:
    directory = _multiproc_dir()
    if directory is None:
        return
    directory.mkdir(parents=True, exist_ok=True)
    for leftover in directory.glob("*.db"):
        leftover.unlink()


def when_ready(server: _Any) -> None:
    port = _os.environ.get("METRICS_PORT", "")
    if _multiproc_dir() is None or not port:
        return
    from prometheus_client import CollectorRegistry, start_http_server
    from prometheus_client.multiprocess import MultiProcessCollector

    registry = CollectorRegistry()
    MultiProcessCollector(registry)
    registry.register(_PoolProcesses(server))
    address = _os.environ.get("METRICS_ADDR", "127.0.0.1")
    try:
        start_http_server(int(port), addr=address, registry=registry)
    except OSError as error:  # a taken port costs the metrics, not the pool
        _log.error("Metrics of the pool not served on %s:%s: %s", address, port, error)
        return
    _log.info("Metrics of the pool on http://%s:%s/metrics", address, port)


def post_worker_init(worker: _Any) -> None:
    # Each worker evaluates its readiness on a timer, /readyz called or not
    # (project/health.py): readiness_ready follows PostgreSQL and Redis for the alerts.
    from project.health import start_timer

    start_timer()


def child_exit(server: _Any, worker: _Any) -> None:
    if _multiproc_dir() is None:
        return
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
