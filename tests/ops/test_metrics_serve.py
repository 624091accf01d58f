"""A daphne process serves its registry on METRICS_PORT (project/common/metrics.py): on that
port when it is free; when it is taken the process still starts, without metrics."""

from __future__ import annotations

import logging
import socket

import httpx
import pytest

from project.common import metrics
from project.ops.prodshape import HOST, free_port


def test_the_registry_is_served_on_its_port(monkeypatch: pytest.MonkeyPatch) -> None:
    port = free_port()
    monkeypatch.setenv("METRICS_PORT", str(port))
    assert metrics.serve() == port
    metrics.VOTES_CAST.inc(0)
    text = httpx.get(f"http://{HOST}:{port}/metrics", timeout=5).text
    assert "# TYPE votes_cast_total counter" in text
    assert "process_resident_memory_bytes" in text


def test_a_taken_port_costs_the_metrics_not_the_process(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as taken:
        taken.bind((HOST, 0))
        taken.listen()
        monkeypatch.setenv("METRICS_PORT", str(taken.getsockname()[1]))
        with caplog.at_level(logging.ERROR, logger=metrics.__name__):
            assert metrics.serve() is None
    assert "Metrics not served" in caplog.text


def test_no_port_no_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("METRICS_PORT", raising=False)
    assert metrics.serve() is None
