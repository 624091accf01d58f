"""Browser tests of the Share button on a nomination's page and a scout's profile: the
browser's share sheet where it has one (navigator.share, stubbed to record what it is
given), otherwise the address copied to the clipboard with a "Link copied" toast; the
address is the canonical one. axe-core finds nothing serious on either page."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.builders import make_user
from tests.e2e.browsing import log_in, nominate
from tests.e2e.conftest import Server
from tests.e2e.test_a11y import axe_problems, settle

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SHARE_SHEET = """
window.__shared = [];
Object.defineProperty(Navigator.prototype, 'share', {
  configurable: true,
  value: async (data) => { window.__shared.push(data); },
});
"""
NO_SHARE_SHEET = "delete Navigator.prototype.share; delete navigator.share;"


def open_page(browser: Browser, server: Server, script: str) -> Page:
    context = browser.new_context(base_url=server.url, reduced_motion="reduce", bypass_csp=True)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    context.add_init_script(script)
    return context.new_page()


def shared_count(page: Page, count: int) -> None:
    """Waits until the share sheet was given ``count`` shares."""
    for _ in range(100):
        if page.evaluate("() => window.__shared.length") >= count:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"navigator.share was not called {count} time(s)")


def test_share_opens_the_share_sheet_with_the_canonical_address(
    e2e_server: Server, browser: Browser
) -> None:
    nora = make_user(username="nora", name="Nora Nominator")
    nomination = nominate(nora, name="Sia Shared")
    page = open_page(browser, e2e_server, SHARE_SHEET)
    log_in(page, "nora", to=f"/nominations/{nomination.pk}?from=list")
    settle(page, "nomination")
    page.get_by_role("button", name="Share").click()
    shared_count(page, 1)
    shared = page.evaluate("() => window.__shared[0]")
    assert shared == {
        "title": "Sia Shared on ScoutVote",
        "url": f"{e2e_server.url}/nominations/{nomination.pk}",
    }
    assert axe_problems(page, "nomination with Share") == []

    page.goto(f"/scout/{nora.pk}")
    settle(page, "scout")
    page.get_by_role("button", name="Share").click()
    shared_count(page, 1)  # a new page load: a new record
    assert page.evaluate("() => window.__shared[0].url") == f"{e2e_server.url}/scout/{nora.pk}"
    assert axe_problems(page, "scout with Share") == []


def test_without_a_share_sheet_the_link_is_copied(e2e_server: Server, browser: Browser) -> None:
    nora = make_user(username="nora", name="Nora Nominator")
    nomination = nominate(nora, name="Cal Copied")
    page = open_page(browser, e2e_server, NO_SHARE_SHEET)
    log_in(page, "nora", to=f"/nominations/{nomination.pk}")
    settle(page, "nomination")
    assert page.evaluate("() => typeof navigator.share") == "undefined"
    page.get_by_role("button", name="Share").click()
    expect(page.get_by_text("Link copied", exact=True)).to_be_visible()
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == f"{e2e_server.url}/nominations/{nomination.pk}"
    assert axe_problems(page, "nomination with the toast") == []
