from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest
from django.db import connection

from devtools.launcher import ROOT, spawn, stop_group
from tests.jobs.smtp import SmtpServer


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    server = SmtpServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def smtp_settings(settings: Any, smtp: SmtpServer) -> SmtpServer:
    """This process sends through the test's SMTP server, retrying quickly."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", smtp.port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 2
    settings.JOBS_RETRY_DELAY = 0.2
    settings.JOBS_MAX_ATTEMPTS = 3
    return smtp


class Worker:
    """``manage.py run_worker`` in a process of its own, on the test database."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self.env, self.log_path = env, log
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    def start(self, *arguments: str) -> None:
        self._log = self.log_path.open("ab")
        command = [sys.executable, "manage.py", "run_worker", *arguments]
        self.process = spawn(command, self.env, output=self._log)

    def kill(self) -> None:
        """SIGKILL: no handler runs, nothing is cleaned up."""
        assert self.process is not None
        self.process.kill()
        self.process.wait()
        self.process = None

    def stop(self) -> None:
        if self.process is not None:
            stop_group(self.process, 10)
            self.process = None
        if self._log is not None:
            self._log.close()
            self._log = None

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")


def worker_env(smtp: SmtpServer | None = None, **extra: str) -> dict[str, str]:
    env = dict(os.environ)
    name = str(connection.settings_dict["NAME"])
    if os.environ.get("DATABASE_URL"):
        base, _, _ = os.environ["DATABASE_URL"].rpartition("/")
        env["DATABASE_URL"] = f"{base}/{name}"
    else:
        env["SQLITE_PATH"] = name
    env.update(
        DJANGO_DEBUG="false",
        PUBLIC_BASE_URL="http://testserver",
        PYTHONUNBUFFERED="1",
        JOBS_POLL_INTERVAL="0.1",
        JOBS_HEARTBEAT="0.5",
        JOBS_WORKER_DEAD_AFTER="2",
        JOBS_RETRY_DELAY="0.2",
        EMAIL_TIMEOUT="1",
    )
    if smtp is not None:
        env["EMAIL_URL"] = smtp.url
    env.update(extra)
    return env


@pytest.fixture
def worker_process(tmp_path: Path) -> Iterator[Any]:
    started: list[Worker] = []

    def make(env: dict[str, str]) -> Worker:
        worker = Worker(env, tmp_path / f"worker-{len(started)}.log")
        started.append(worker)
        return worker

    yield make
    for worker in started:
        worker.stop()


__all__ = ["ROOT", "Worker", "worker_env"]
