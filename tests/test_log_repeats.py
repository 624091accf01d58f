"""An outage logs the same failure from every request, socket and tick: the log handlers
write the first record of a kind, count the repeats and write the count with the next one
after the interval (project/common/logrepeat.py)."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest
from django.test import Client

from project.common.logrepeat import RepeatFilter


@pytest.fixture
def console() -> Iterator[io.StringIO]:
    """What the server's console handler (settings.LOGGING) writes."""
    handler = next(
        h
        for h in logging.getLogger().handlers
        if any(isinstance(f, RepeatFilter) for f in h.filters)
    )
    assert isinstance(handler, logging.StreamHandler)
    for repeats in handler.filters:
        if isinstance(repeats, RepeatFilter):
            repeats.reset()
    out = io.StringIO()
    previous = handler.setStream(out)
    try:
        yield out
    finally:
        handler.setStream(previous)


def test_a_burst_of_one_failure_is_written_once(console: io.StringIO) -> None:
    live = logging.getLogger("realtime.redis_receive")
    database = logging.getLogger("project.api")
    for n in range(10_000):
        live.warning("Could not reach Redis: %s", f"Connection refused ({n})")
        database.warning("Database unavailable on %s %s: %s", "POST", "/api/votes", n)
    lines = console.getvalue().splitlines()
    assert lines == [
        "Could not reach Redis: Connection refused (0)",
        "Database unavailable on POST /api/votes: 0",
    ]


def test_the_next_record_after_the_interval_says_how_many_were_left_out() -> None:
    now = [100.0]
    repeats = RepeatFilter(interval=10, clock=lambda: now[0])
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(repeats)
    logger = logging.getLogger("tests.repeats")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for _ in range(500):
            logger.error("Presence tick failed (%s)", "Redis away")
            now[0] += 0.01
        logger.error("Another failure")
        now[0] = 111.0
        logger.error("Presence tick failed (%s)", "Redis away")
        logger.error("Presence tick failed (%s)", "Redis away")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    assert out.getvalue().splitlines() == [
        "Presence tick failed (Redis away)",
        "Another failure",
        "Presence tick failed (Redis away) [repeated 499 times in the last 11 s]",
    ]


def test_an_interval_of_0_writes_every_record() -> None:
    repeats = RepeatFilter(interval=0)
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "same", None, None)
    assert all(repeats.filter(record) for _ in range(3))


def test_requests_for_an_unknown_host_log_one_warning_line(
    console: io.StringIO, client: Client
) -> None:
    """A scanner sending Host headers the site does not serve: each request is answered 400,
    and the log gets one line without a traceback, not one traceback per request."""
    for n in range(100):
        answer = client.get("/api/nominations", HTTP_HOST=f"scanner-{n}.example")
        assert answer.status_code == 400
    lines = console.getvalue().splitlines()
    refused = "Refused a request for a host not in DJANGO_ALLOWED_HOSTS"
    assert lines == [f"{refused}: 'scanner-0.example'"]
