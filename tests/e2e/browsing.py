"""What the browser tests share: viewport sizes, pages of their own, signing in, screenshots,
the locators they all use, and nominations made straight through the service.

Fixtures (the server, the browser, ``page``) are in conftest.py.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from playwright.sync_api import Browser, Page, ViewportSize, expect

from project.accounts.models import User
from project.scouting.models import Nomination
from project.scouting.services import nominations
from tests.builders import PASSWORD, make_user

if TYPE_CHECKING:
    from tests.e2e.conftest import Server

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
SCREENSHOT_DIR = Path(os.environ.get("SCREENSHOT_DIR", str(ARTIFACTS / "screenshots")))

DESKTOP: ViewportSize = {"width": 1280, "height": 800}
PHONE: ViewportSize = {"width": 390, "height": 844}
TIMEOUT_MS = 10_000


# --- Pages ------------------------------------------------------------------------------


def new_page(browser: Browser, server: Server, viewport: ViewportSize = DESKTOP) -> Page:
    """A page in a context of its own (its own cookies, so its own session), with reduced
    motion (the SPA then moves nothing gradually: no glide or count is caught half-way). The
    context is closed when the test ends (conftest.py), or earlier by the caller."""
    context = browser.new_context(viewport=viewport, base_url=server.url, reduced_motion="reduce")
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


@contextmanager
def browser_page(
    browser: Browser, server: Server, viewport: ViewportSize = DESKTOP
) -> Iterator[Page]:
    """``new_page``, its context closed on the way out."""
    page = new_page(browser, server, viewport)
    try:
        yield page
    finally:
        page.context.close()


def sign_in(page: Page, username: str, password: str = PASSWORD, *, to: str = "/") -> None:
    page.goto(f"/login?returnTo={to}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign in").click()
    # The whole path and query: the login page's own URL ends with its returnTo.
    expect(page).to_have_url(re.compile(r"^https?://[^/]+" + re.escape(to) + r"$"))


def log_in(page: Page, username: str, *, to: str = "/") -> None:
    """Signs in and waits until the header shows the signed-in member."""
    sign_in(page, username, to=to)
    expect(page.get_by_role("button", name="Open user menu")).to_be_visible()


# --- Screenshots ------------------------------------------------------------------------


def screenshot(page: Any, name: str) -> Path:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOT_DIR / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def resize(page: Page, viewport: ViewportSize) -> None:
    """Sets the viewport and waits until the browser has drawn two frames at the new size (the
    SPA's layout and its size-dependent renders have run)."""
    page.set_viewport_size(viewport)
    page.evaluate(
        "() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))"
    )


def shoot(page: Page, name: str) -> None:
    """A screenshot at the desktop size and one at the phone size, then back to desktop."""
    screenshot(page, f"{name}-1280x800")
    resize(page, PHONE)
    screenshot(page, f"{name}-390x844")
    resize(page, DESKTOP)


# --- Locators ---------------------------------------------------------------------------


def toast(page: Page, text: str) -> Any:
    return page.get_by_role("region", name="Notifications (F8)").get_by_text(text)


def card(page: Page, player: str) -> Any:
    return page.get_by_role("article", name=player)


def live(page: Page) -> None:
    """Waits until the page's live socket is subscribed."""
    expect(page.get_by_title("Live updates: live")).to_be_visible()


# --- Data -------------------------------------------------------------------------------


def nominate(user: User, *, name: str, sport: str = "football", **fields: Any) -> Nomination:
    """A pending nomination by ``user``, through the service; ``fields`` override the
    player's details."""
    values: dict[str, Any] = {
        "age": 16,
        "graduation_year": None,
        "position": "Quarterback",
        "nationality": "American",
        "club": "Central High",
        "skills": "Reads defenses fast; accurate deep ball.",
        "video_link": "",
    }
    values.update(fields)
    return nominations.nomination_create(user=user, name=name, sport=sport, **values)


# --- Writes through the server ------------------------------------------------------------
#
# A write that open pages must see live goes through the server: in the embedded mode (nothing
# set) the live layer is the server process's memory, so a service called from this process
# changes the database but reaches no socket. With Redis both ways reach every socket.


class ServerSession:
    """A user signed in to the browser tests' server over plain HTTP, CSRF token and all."""

    def __init__(self, server: Server, user: User, password: str = PASSWORD) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=TIMEOUT_MS / 1000)
        self.http.get("/api/auth/csrf").raise_for_status()
        self.call("POST", "/api/auth/login", {"username": user.username, "password": password})

    def call(self, method: str, path: str, body: Any = None) -> httpx.Response:
        token = self.http.cookies.get("csrftoken") or ""
        response = self.http.request(method, path, json=body, headers={"X-CSRFToken": token})
        assert response.status_code < 400, (method, path, response.status_code, response.text)
        return response


def vote_through_server(server: Server, nomination_id: int, *, voters: int = 1) -> None:
    """``voters`` new users each vote for the nomination, through the server."""
    for _ in range(voters):
        session = ServerSession(server, make_user())
        session.call("POST", "/api/votes", {"nominationId": nomination_id})


def nominate_through_server(
    server: Server, user: User, *, name: str, sport: str = "football", **fields: Any
) -> int:
    """``nominate``, through the server; returns the nomination's id."""
    body: dict[str, Any] = {
        "name": name,
        "sport": sport,
        "age": 16,
        "position": "Quarterback",
        "nationality": "American",
        "club": "Central High",
        "skills": "Reads defenses fast; accurate deep ball.",
    }
    body.update(fields)
    response = ServerSession(server, user).call("POST", "/api/nominations", body)
    return int(response.json()["id"])
