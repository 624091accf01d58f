"""Browser tests of the lists at a phone's width (390x844) with the names people really have:
long, accented, unbroken and right-to-left. No list page is wider than the screen, and each
card's VOTE button and vote count stay on it, whatever the name.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from project.accounts.models import Role
from project.moderation.services import decisions as moderation
from tests.builders import make_user
from tests.e2e.browsing import PHONE, log_in, new_page, nominate, screenshot
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LONG_NAMES = [
    "Sebastian Wolfenberg",
    "Maria de los Ángeles Fernández-Castellanos",
    # 113 characters, as a full formal name can run.
    "Johann Maximilian Alexander Friedrich Wilhelm von Hohenzollern-Sigmaringen "
    "und Wolfenbüttel-Braunschweig-Lüneburg",
    "Wolfeschlegelsteinhausenbergerdorffvoralternwarengewissenhaft",
    "عبد الرحمن بن محمد بن عبد العزيز الهاشمي القرشي",
    "יהונתן בן־אברהם רוזנצווייג־שטיינברג מירושלים",
]
LIST_PAGES = ["/", "/nominations", "/nominations/needing-votes", "/vote"]


def off_screen(page: Page, selector: str) -> list[str]:
    """What of ``selector`` lies outside the screen's width (left of 0 or past its right)."""
    return page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)]
          .filter((el) => el.getClientRects().length > 0)
          .filter((el) => {
            const box = el.getBoundingClientRect();
            return box.left < 0 || box.right > document.documentElement.clientWidth;
          })
          .map((el) => (el.closest('article,li')?.getAttribute('aria-label') ??
            el.closest('article')?.innerText.slice(0, 40) ?? '') + ': ' + el.innerText)""",
        selector,
    )


def width(page: Page) -> int:
    return int(page.evaluate("() => document.documentElement.scrollWidth"))


@pytest.fixture
def long_names() -> None:
    """Every long name nominated; every other one approved, so each list has some."""
    admin = make_user(username="root", name="Robin Admin", role=Role.ADMIN)
    author = make_user(username="nia", name="María-José Rodríguez de la Fuente y Villanueva")
    make_user(username="vic", name="Vic Voter")
    for index, name in enumerate(LONG_NAMES):
        nomination = nominate(author, name=name, club=f"Club {index}")
        if index % 2:
            moderation.nomination_approve(admin=admin, nomination_id=nomination.pk)


def assert_fits(page: Page, route: str) -> None:
    assert width(page) <= PHONE["width"], f"{route}: {width(page)} px wide"
    assert not off_screen(page, "button[aria-pressed]"), (route, off_screen(page, "button"))
    assert not off_screen(page, "[data-testid=vote-count]"), route


def test_long_names_keep_vote_on_a_phone_screen(
    e2e_server: Server, browser: Browser, long_names: Any
) -> None:
    page = new_page(browser, e2e_server, PHONE)
    log_in(page, "vic")
    for route in LIST_PAGES:
        page.goto(route)
        expect(page.get_by_role("button", name="VOTE").first).to_be_visible()
        page.wait_for_load_state("networkidle")
        assert_fits(page, route)
        screenshot(page, f"long-names{route.replace('/', '-') or '-home'}-390x844")

    # Each name is shown, and its card's VOTE is on the screen when scrolled to.
    page.goto("/nominations")
    for name in LONG_NAMES:
        article = page.get_by_role("article", name=name)
        count = article.get_by_test_id("vote-count")
        for part in (count, article.get_by_role("button", name="VOTE")):
            part.scroll_into_view_if_needed()
            expect(part).to_be_in_viewport(ratio=1)
    assert page.evaluate("() => window.scrollX") == 0


def test_long_names_fit_the_admin_queue_on_a_phone(
    e2e_server: Server, browser: Browser, long_names: Any
) -> None:
    page = new_page(browser, e2e_server, PHONE)
    log_in(page, "root", to="/admin/dashboard")
    pending = page.get_by_role("list", name="Pending nominations")
    expect(pending.get_by_role("listitem")).to_have_count(3)
    page.wait_for_load_state("networkidle")
    for name in LONG_NAMES[::2]:
        row = pending.get_by_role("listitem", name=name)
        expect(row.get_by_role("button", name=re.compile("^Approve"))).to_be_visible()
    assert width(page) <= PHONE["width"], f"Pending: {width(page)} px wide"
    assert not off_screen(page, "[role=tabpanel] button"), off_screen(page, "button")
    screenshot(page, "long-names-admin-pending-390x844")

    page.get_by_role("tab", name=re.compile("^Approved")).click()
    for name in LONG_NAMES[1::2]:
        expect(page.get_by_role("tabpanel").get_by_text(name)).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert width(page) <= PHONE["width"], f"Approved: {width(page)} px wide"
    assert not off_screen(page, "[role=tabpanel] button"), off_screen(page, "button")
