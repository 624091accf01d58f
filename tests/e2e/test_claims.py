"""A family claims its child's page and an admin confirms it live: three browsers, each with
its own session, against the real server and the built SPA."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from project.accounts.models import Role
from tests.builders import make_user
from tests.e2e.browsing import live, log_in, new_page, nominate, toast
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BADGE = "Managed by the athlete's family"


def test_a_guardian_claims_an_admin_approves_and_the_badge_reaches_an_open_page(
    e2e_server: Server, browser: Browser
) -> None:
    make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    make_user(username="rita", name="Rita Jones")
    make_user(username="tom", name="Tom Member")
    nomination = nominate(make_user(username="nina"), name="Mia Jones", age=11)
    path = f"/nominations/{nomination.pk}"

    admin = new_page(browser, e2e_server)
    log_in(admin, "ada", to="/admin/dashboard?tab=claims")
    live(admin)
    claims_tab = admin.get_by_role("tab", name=re.compile(r"^Claims"))
    expect(claims_tab).to_have_text("Claims (0)")

    member = new_page(browser, e2e_server)
    log_in(member, "tom", to=path)
    expect(member.get_by_role("heading", name="Mia Jones")).to_be_visible()
    live(member)
    expect(member.get_by_text(BADGE)).to_have_count(0)

    guardian = new_page(browser, e2e_server)
    log_in(guardian, "rita", to=path)
    guardian.get_by_role("button", name="Claim this profile").click()
    dialog = guardian.get_by_role("dialog")
    dialog.get_by_label("I am the athlete's parent or guardian").check()
    dialog.get_by_label("The athlete's year of birth").fill("2014")
    dialog.get_by_label("How can we check it?").fill("Her coach at Lisbon Juniors vouches.")
    dialog.get_by_role("button", name="Send claim").click()
    expect(toast(guardian, "Claim sent")).to_be_visible()

    # The claim reaches the admin's open queue without a reload.
    row = admin.get_by_role("listitem", name="Claim of Mia Jones")
    expect(row).to_be_visible()
    expect(claims_tab).to_have_text("Claims (1)")
    expect(row.get_by_text("Her coach at Lisbon Juniors vouches.")).to_be_visible()
    row.get_by_role("button", name="Approve claim").click()
    expect(row).to_have_count(0)
    expect(claims_tab).to_have_text("Claims (0)")

    # The third member's open page shows the badge, live.
    expect(member.get_by_text(BADGE)).to_be_visible()
    expect(member.get_by_role("button", name="Claim this profile")).to_have_count(0)

    # The family now holds the page's controls.
    guardian.reload()
    expect(guardian.get_by_role("heading", name="Your controls")).to_be_visible()
    expect(guardian.get_by_text(BADGE)).to_be_visible()
