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

from playwright.sync_api import Browser, Page, ViewportSize, expect

from project.accounts.models import User
from project.scouting import services as scouting
from project.scouting.models import Nomination
from tests.helpers import PASSWORD

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
    """A page in a context of its own (its own cookies, so its own session); the caller
    closes ``page.context``."""
    context = browser.new_context(viewport=viewport, base_url=server.url)
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
    expect(page).to_have_url(re.compile(re.escape(to) + r"$"))


def log_in(page: Page, username: str, *, to: str = "/") -> None:
    """Signs in and waits until the session is there (the URL alone can match the login page's
    own returnTo)."""
    sign_in(page, username, to=to)
    expect(page.get_by_role("button", name="Open user menu")).to_be_visible()


# --- Screenshots ------------------------------------------------------------------------


def screenshot(page: Any, name: str) -> Path:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOT_DIR / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def shoot(page: Page, name: str) -> None:
    """A screenshot at the desktop size and one at the phone size, then back to desktop."""
    screenshot(page, f"{name}-1280x800")
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(200)
    screenshot(page, f"{name}-390x844")
    page.set_viewport_size(DESKTOP)
    page.wait_for_timeout(100)


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
    return scouting.nomination_create(user=user, name=name, sport=sport, **values)
