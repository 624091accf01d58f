"""Browser tests: the built SPA served by a real daphne process, driven in Debian's Chromium.

The server runs in a subprocess against the test database that pytest-django created, so
tests use ``transactional_db`` (data is committed and visible to the server).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import Browser, Page

from tests.e2e.browsing import ARTIFACTS, ROOT, SCREENSHOT_DIR, browser_page

CHROMIUM = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"server on port {port} did not start")


@dataclass
class Server:
    url: str
    port: int
    env: dict[str, str]
    process: subprocess.Popen[bytes] | None = None

    @property
    def log_path(self) -> Path:
        return ARTIFACTS / f"daphne-e2e-{self.port}.log"

    def start(self) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as log:  # the child keeps its own descriptor
            self._spawn(log)
        wait_for_port(self.port)

    def _spawn(self, log: Any) -> None:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                "project.asgi:application",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


def server_env(database_name: str) -> dict[str, str]:
    env = dict(os.environ)
    database_url = os.environ.get("DATABASE_URL", "")
    if database_url:
        base, _, _ = database_url.rpartition("/")
        env["DATABASE_URL"] = f"{base}/{database_name}"
    else:
        env["SQLITE_PATH"] = database_name
    env.setdefault("DJANGO_DEBUG", "false")
    env["DJANGO_ALLOWED_HOSTS"] = "127.0.0.1,localhost"
    env["LOGIN_THROTTLE_LIMIT"] = "1000"
    # Browser tests vote and register quickly, from new accounts (tests/conftest.py).
    env.setdefault("BUDGETS", "off")
    env.setdefault("TRUST_ACCOUNT_AGE_HOURS", "0")
    return env


@pytest.fixture(scope="session")
def e2e_server(django_db_setup: Any, django_db_blocker: Any) -> Iterator[Server]:
    if not (ROOT / "frontend" / "dist" / "index.html").exists():
        pytest.fail("The SPA is not built: run `make frontend` (make test does it)")
    with django_db_blocker.unblock():
        database_name = str(connection.settings_dict["NAME"])
    port = free_port()
    server = Server(url=f"http://127.0.0.1:{port}", port=port, env=server_env(database_name))
    server.start()
    yield server
    server.stop()


# Module scope, not session: Playwright's sync API keeps an event loop running in this thread
# while it is open, and the async suites that run after the browser tests need the thread free.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: `make browser` installs Debian's chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def _fast_password_hashing() -> None:
    """Overrides tests/conftest.py: the server process checks the hashes of the users made
    here, and it knows only the production hashers."""


@pytest.fixture(scope="module", autouse=True)
def _orm_beside_playwright(e2e_server: Server) -> Iterator[None]:
    """Playwright's sync API runs an event loop in this thread, which Django's ORM takes for an
    async context; the ORM calls in these tests are plain sync code. Set once the server (which
    copies the environment when it starts) runs without the switch."""
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    yield
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="session", autouse=True)
def _announce_screenshots() -> Iterator[None]:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    yield
    print(f"\nBrowser screenshots written to {SCREENSHOT_DIR}")


@pytest.fixture
def page(e2e_server: Server, browser: Browser) -> Iterator[Page]:
    """A desktop-sized page of its own, closed after the test."""
    with browser_page(browser, e2e_server) as page:
        yield page
