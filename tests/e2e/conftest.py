"""Browser tests: the built SPA served by a real daphne process, driven in Debian's Chromium.

The server runs in a subprocess against the test database that pytest-django created, so
tests use ``transactional_db`` (data is committed and visible to the server).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import Browser, Page

from devtools.launcher import (
    daphne_command,
    free_port,
    spawn,
    stop_group,
    wait_until_accepting,
)
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


@dataclass
class Server:
    """The browser tests' daphne (devtools/launcher.py, as the benchmarks run it), its
    output in test-artifacts/; stopped and started again by the tests that drop the connection."""

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
        assert self.process is not None
        wait_until_accepting(self.process, self.port, 30.0, f"daphne (see {self.log_path})")

    def _spawn(self, log: Any) -> None:
        self.process = spawn(daphne_command(self.port), self.env, output=log)

    def stop(self) -> None:
        if self.process is not None:
            stop_group(self.process, 10.0)
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


@pytest.fixture(autouse=True)
def _close_browser_contexts(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every browser context a test opened is closed when the test ends, passed or failed, so
    no page of one test stays subscribed (or signed in) into the next."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


@pytest.fixture
def page(e2e_server: Server, browser: Browser) -> Iterator[Page]:
    """A desktop-sized page of its own, closed after the test."""
    with browser_page(browser, e2e_server) as page:
        yield page
