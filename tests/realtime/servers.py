"""Real daphne processes on the test database and the test's Redis prefix."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def database_url() -> str:
    """DATABASE_URL, pointed at the database pytest-django created for this run."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + settings.DATABASES["default"]["NAME"]))


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for {pid}")


@contextlib.contextmanager
def daphne(log: IO[bytes] | None = None, **env: str) -> Iterator[tuple[int, int]]:
    """A daphne process serving project.asgi; yields (port, pid). Its output goes to ``log``
    when given."""
    port = free_port()
    environment = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REALTIME_PREFIX": settings.REALTIME_PREFIX,
        "DJANGO_DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "BUDGETS": "off",
        "TRUST_ACCOUNT_AGE_HOURS": "0",
        **env,
    }
    command = [sys.executable, "-m", "daphne", "-v", "0", "-b", HOST, "-p", str(port)]
    process = subprocess.Popen(
        [*command, "project.asgi:application"],
        cwd=ROOT,
        env=environment,
        start_new_session=True,
        stdout=log,
        stderr=log,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection((HOST, port), 0.2):
                break
            assert process.poll() is None, "daphne exited"
            assert time.monotonic() < deadline, "daphne did not start"
            time.sleep(0.1)
        yield port, process.pid
    finally:
        with contextlib.suppress(ProcessLookupError):  # a test may have killed it
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
