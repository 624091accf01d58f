"""Browser test of the Integrity tab: a seeded ring is flagged and explained; an admin voids it
in a few clicks while a scout's open list watches the count drop, live."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from project.accounts.models import Role
from tests.builders import aged_user, make_user
from tests.e2e.browsing import card, live, log_in, new_page, nominate, screenshot, sign_in, toast
from tests.e2e.conftest import Server
from tests.integrity.helpers import vote

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_voiding_a_ring_drops_the_count_on_another_screen(
    e2e_server: Server, browser: Browser
) -> None:
    make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    make_user(username="walt", name="Walt Watcher")
    nomination = nominate(aged_user(), name="Rory Ringed")
    honest = aged_user()
    vote(honest, nomination, "198.51.100.7")
    for number in range(1, 6):  # five accounts of one network: the ring
        vote(aged_user(), nomination, f"203.0.113.{number}")

    watcher = new_page(browser, e2e_server)
    sign_in(watcher, "walt", to="/nominations")
    live(watcher)
    rory = card(watcher, "Rory Ringed")
    expect(rory.get_by_test_id("vote-count")).to_have_text("6")

    admin = new_page(browser, e2e_server)
    log_in(admin, "ada", to="/admin/dashboard?tab=integrity")
    live(admin)
    expect(admin.get_by_role("tab", name=re.compile(r"^Integrity"))).to_have_text("Integrity (1)")
    flag = admin.get_by_role("list", name="Integrity flags").get_by_role("listitem")
    expect(flag).to_contain_text("One network, many accounts")
    expect(flag).to_contain_text("5 accounts from one network")
    expect(flag).to_contain_text("Rory Ringed")
    screenshot(admin, "integrity-tab-1280x800")

    flag.get_by_role("button", name="Void votes").click()
    admin.get_by_label("Reason").fill("Five accounts of one network")
    admin.get_by_role("dialog").get_by_role("button", name="Void votes").click()
    expect(toast(admin, "5 votes no longer count.")).to_be_visible()
    expect(rory.get_by_test_id("vote-count")).to_have_text("1", timeout=5000)
    expect(flag).to_contain_text("Voided")

    flag.get_by_role("button", name="Restore votes").click()
    admin.get_by_label("Reason").fill("A school team after all")
    admin.get_by_role("dialog").get_by_role("button", name="Restore votes").click()
    expect(rory.get_by_test_id("vote-count")).to_have_text("6", timeout=5000)
