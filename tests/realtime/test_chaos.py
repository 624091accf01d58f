"""The short chaos run (bench/ws_chaos.py): sockets on two daphne processes under a vote
load, dropped at random, each daphne process and Redis restarted once; at the end 0 events
missed, duplicated or out of order, and every client's counts, board and bell (its own
notifications) equal the database."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from django.conf import settings

from tests.helpers import unless_available
from tests.realtime.servers import ROOT

pytestmark = [
    pytest.mark.slow,
    unless_available(
        not (os.environ.get("DATABASE_URL") and settings.REDIS_URL),
        reason="two daphne processes on PostgreSQL and a private Redis",
    ),
    unless_available(shutil.which("redis-server") is None, reason="needs redis-server"),
]


def test_a_short_chaos_run_loses_repeats_and_reorders_nothing() -> None:
    command = [sys.executable, "bench/ws_chaos.py", "--sockets", "40", "--duration", "40"]
    command += ["--max-away", "8", "--drop-pct", "5", "--no-write"]
    run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=400)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "| missed / duplicated / out of order (all clients) | 0 / 0 / 0 |" in run.stdout
    assert "| clients whose counts / board differ from the database | 0 / 0 |" in run.stdout
    # Each client's bell (unread count and latest notifications) equals the database's.
    assert "differs from the database | 0 (of 40; " in run.stdout
