"""Browser tests of presence: "N watching" on a nomination's page, and an admin's open
nomination marked "being reviewed by {name}" on the other admins' dashboards within a second.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from project.accounts.models import Role
from tests.builders import make_user
from tests.e2e.browsing import live, log_in, new_page, nominate
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DASHBOARD = "/admin/dashboard"


def pending_row(page: Page, player: str) -> Any:
    return page.get_by_role("list", name="Pending nominations").get_by_role("listitem", name=player)


def signed_in(browser: Browser, server: Server, username: str, to: str) -> Page:
    page = new_page(browser, server)
    log_in(page, username, to=to)
    live(page)
    return page


def test_an_admin_reviewing_a_nomination_is_shown_to_the_other_admins(
    e2e_server: Server, browser: Browser
) -> None:
    make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    make_user(username="bob", name="Bob Boss", role=Role.ADMIN)
    scout = make_user(username="nina", name="Nina Nominator")
    nomination = nominate(scout, name="Rae Reviewed")
    nominate(scout, name="Nico Nobody")

    ada = signed_in(browser, e2e_server, "ada", DASHBOARD)
    bob = signed_in(browser, e2e_server, "bob", DASHBOARD)
    mark = pending_row(ada, "Rae Reviewed").get_by_text("being reviewed by Bob Boss")
    expect(mark).to_have_count(0)

    # Bob decides on it (the reject dialog is open): Ada sees it within a second.
    pending_row(bob, "Rae Reviewed").get_by_role("button", name="Reject").click()
    expect(bob.get_by_role("dialog")).to_be_visible()
    expect(mark).to_be_visible(timeout=1000)
    expect(pending_row(ada, "Nico Nobody").get_by_text("being reviewed by")).to_have_count(0)
    # Bob is not shown his own mark.
    expect(pending_row(bob, "Rae Reviewed").get_by_text("being reviewed by")).to_have_count(0)

    bob.keyboard.press("Escape")  # he leaves it: the mark goes
    expect(mark).to_have_count(0, timeout=1000)

    # Opening the nomination's page is reviewing it too; leaving the page clears it.
    bob.goto(f"/nominations/{nomination.pk}")
    expect(bob.get_by_role("heading", name="Rae Reviewed")).to_be_visible()
    expect(mark).to_be_visible(timeout=2000)
    bob.goto(DASHBOARD)
    expect(mark).to_have_count(0, timeout=2000)


def test_watchers_of_a_nomination_see_how_many_watch(e2e_server: Server, browser: Browser) -> None:
    scout = make_user(username="wes", name="Wes Watcher")
    make_user(username="val", name="Val Viewer")
    nomination = nominate(scout, name="Will Watched", sport="football")
    from project.moderation.services import decisions as moderation

    moderation.nomination_approve(admin=make_user(role=Role.ADMIN), nomination_id=nomination.pk)
    page = f"/nominations/{nomination.pk}"
    wes = signed_in(browser, e2e_server, "wes", page)
    expect(wes.get_by_test_id("watching")).to_have_text("1 watching")
    val = signed_in(browser, e2e_server, "val", page)
    expect(val.get_by_test_id("watching")).to_have_text("2 watching")
    expect(wes.get_by_test_id("watching")).to_have_text("2 watching", timeout=3000)
    val.context.close()
    expect(wes.get_by_test_id("watching")).to_have_text("1 watching", timeout=6000)
