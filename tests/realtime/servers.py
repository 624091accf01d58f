"""Real daphne processes (devtools/launcher.py) on the test database and the test's Redis
prefix."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings

from devtools import launcher

ROOT = Path(__file__).resolve().parents[2]
HOST = "127.0.0.1"


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
def daphne(log: IO[bytes] | None = None, /, **env: str) -> Iterator[tuple[int, int]]:
    """A daphne process serving project.asgi; yields (port, pid). Its output goes to ``log``
    when given."""
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
    with launcher.daphne(environment, output=log) as server:
        yield server.port, server.pid
