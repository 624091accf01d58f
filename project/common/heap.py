"""Garbage collection of the server processes (docs/decisions.md#gc-freeze).

A daphne process holding many websockets tracks hundreds of thousands of objects, and
CPython's full collection walks all of them while no socket is served. After start-up:

* ``gc.freeze()`` moves everything allocated while importing Django, the project and the
  servers (modules, functions, classes, settings, URL patterns) to the permanent generation,
  which no collection walks again (``GC_FREEZE``, on unless ``0``);
* ``GC_THRESHOLD`` (``gen0,gen1,gen2``, default ``50000,20,100``) makes young collections
  rarer: a request or an event allocates thousands of container objects, almost all gone at
  its end, so with CPython's 700 most young collections would only promote live short-lived
  objects to older generations, where they are walked again.

``GC_PAUSE_LOG`` names a file to which every generation-1 and -2 collection appends its
generation, pause and the process's running totals (a diagnostic: ``bench/votes.py
--compare-gc`` reads it); unset, nothing is recorded.
"""

from __future__ import annotations

import gc
import os
import time
from typing import Any

DEFAULT_THRESHOLD = (50_000, 20, 100)


def _threshold() -> tuple[int, int, int]:
    text = os.environ.get("GC_THRESHOLD", "")
    if not text:
        return DEFAULT_THRESHOLD
    parts = [int(part) for part in text.split(",")]
    if len(parts) != 3 or parts[0] < 1:
        raise ValueError("GC_THRESHOLD is three comma-separated integers, e.g. 50000,20,100")
    return parts[0], parts[1], parts[2]


def tune_after_startup() -> None:
    """Call once a server process has loaded everything it loads at start-up."""
    log = os.environ.get("GC_PAUSE_LOG")
    if log:
        _record_pauses(log)
    gc.set_threshold(*_threshold())
    if os.environ.get("GC_FREEZE", "1") != "0":
        # The URLconf (every router, schema and view) loads lazily on the first request:
        # load it now, so it is frozen with the rest.
        from django.urls import get_resolver

        get_resolver().url_patterns  # noqa: B018
        gc.collect()
        gc.freeze()


def _record_pauses(path: str) -> None:
    state = {"started": 0.0, "total": 0.0, "count": 0}
    stream = open(path, "a", buffering=1, encoding="utf-8")  # noqa: SIM115 - the process's life

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            state["started"] = time.perf_counter()
            return
        pause = time.perf_counter() - state["started"]
        state["total"] += pause
        state["count"] += 1
        generation = info.get("generation", 0)
        if generation >= 1:
            stream.write(
                f"{os.getpid()} {generation} {pause * 1000:.3f} "
                f"{state['total'] * 1000:.1f} {state['count']}\n"
            )

    gc.callbacks.append(callback)
