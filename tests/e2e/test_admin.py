"""Browser tests of the operator views: the admin dashboard with several admins at once, who may
see it, and the notifications bell.

Every test drives the built SPA against the real server (see conftest.py); the dashboard is
photographed tab by tab at the wall's two TV sizes and at a phone size.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import pyotp
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from devtools.launcher import free_port
from project.accounts.models import Role
from tests.builders import make_user
from tests.e2e.browsing import (
    ServerSession,
    live,
    log_in,
    new_page,
    nominate,
    nominate_through_server,
    resize,
    screenshot,
    toast,
)
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"1920x1080": (1920, 1080), "1280x720": (1280, 720), "390x844": (390, 844)}
DASHBOARD = "/admin/dashboard"


def pending_row(page: Page, player: str) -> Any:
    return page.get_by_role("list", name="Pending nominations").get_by_role("listitem", name=player)


def tab(page: Page, label: str) -> Any:
    return page.get_by_role("tab", name=re.compile(rf"^{re.escape(label)}"))


def stat(page: Page, title: str) -> Any:
    return (
        page.get_by_role("region", name="Platform statistics")
        .get_by_text(title, exact=True)
        .locator("..")
    )


def open_dashboard(browser: Browser, server: Server, username: str) -> Page:
    page = new_page(browser, server)
    log_in(page, username, to=DASHBOARD)
    expect(page.get_by_role("heading", name="Admin Dashboard")).to_be_visible()
    live(page)
    return page


def test_an_approval_by_one_admin_leaves_the_other_admins_queue_live(
    e2e_server: Server, browser: Browser
) -> None:
    make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    make_user(username="bob", name="Bob Boss", role=Role.ADMIN)
    scout = make_user(username="nina", name="Nina Nominator")
    nominate(scout, name="Alex Approved")
    nominate(scout, name="Riley Rejected")
    nominate(scout, name="Casey Contested")

    ada = open_dashboard(browser, e2e_server, "ada")
    bob = open_dashboard(browser, e2e_server, "bob")
    for page in (ada, bob):
        expect(tab(page, "Pending")).to_have_text("Pending (3)")
        expect(pending_row(page, "Alex Approved")).to_be_visible()

    pending_row(ada, "Alex Approved").get_by_role("button", name="Approve").click()
    expect(pending_row(ada, "Alex Approved")).to_have_count(0)

    # Bob sees who decided, greyed, for a moment; then the row goes. Counts follow at once.
    decided = pending_row(bob, "Alex Approved")
    expect(decided.get_by_text("Approved by Ada Admin")).to_be_visible()
    expect(decided).to_have_attribute("aria-disabled", "true")
    expect(decided.get_by_role("button", name="Approve")).to_have_count(0)
    expect(tab(bob, "Pending")).to_have_text("Pending (2)")
    expect(tab(bob, "Approved")).to_have_text("Approved (1)")
    expect(stat(bob, "Pending Nominations")).to_contain_text("2")
    screenshot(bob, "admin-decided-elsewhere-1280x800")
    expect(decided).to_have_count(0, timeout=10_000)
    expect(tab(ada, "Approved")).to_have_text("Approved (1)")

    # A rejection with a reason, seen the same way.
    pending_row(ada, "Riley Rejected").get_by_role("button", name="Reject").click()
    dialog = ada.get_by_role("dialog", name="Reject Nomination")
    dialog.get_by_label("Reason (optional)").fill("Not enough information.")
    dialog.get_by_role("button", name="Reject").click()
    expect(pending_row(ada, "Riley Rejected")).to_have_count(0)
    expect(pending_row(bob, "Riley Rejected").get_by_text("Rejected by Ada Admin")).to_be_visible()
    expect(tab(bob, "Rejected")).to_have_text("Rejected (1)")

    # Bob clicks on an item Ada has just decided: the 409 names her and nothing is left over.
    contested = nominate_through_server(e2e_server, scout, name="Dana Duplicate")
    expect(pending_row(bob, "Dana Duplicate")).to_be_visible()
    ada_session = ServerSession(
        e2e_server, make_user(username="ada2", name="Ada Again", role=Role.ADMIN)
    )

    def decide_first(route: Route) -> None:
        ada_session.call("POST", f"/api/admin/nominations/{contested}/approve")
        route.continue_()

    bob.route(f"**/api/admin/nominations/{contested}/approve", decide_first)
    pending_row(bob, "Dana Duplicate").get_by_role("button", name="Approve").click()
    expect(toast(bob, "Already approved by Ada Again")).to_be_visible()
    expect(pending_row(bob, "Dana Duplicate")).to_have_count(0, timeout=10_000)
    expect(tab(bob, "Pending")).to_have_text("Pending (1)")
    expect(tab(bob, "Approved")).to_have_text("Approved (2)")
    expect(pending_row(bob, "Casey Contested")).to_be_visible()


def test_a_members_nomination_appears_in_pending_live(e2e_server: Server, browser: Browser) -> None:
    make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    member = make_user(username="mo", name="Mo Member")
    nominate(member, name="First Prospect")

    admin = open_dashboard(browser, e2e_server, "ada")
    expect(tab(admin, "Pending")).to_have_text("Pending (1)")

    # The member nominates through the SPA, in another browser.
    page = new_page(browser, e2e_server)
    log_in(page, "mo")
    page.get_by_role("button", name="Nominate Player").first.click()
    form = page.get_by_role("dialog", name="Athlete Nomination")
    form.get_by_label("Player Name").fill("Newly Nominated")
    form.get_by_label("Age").fill("16")
    form.get_by_label("Position").fill("Running Back")
    form.get_by_label("Nationality").fill("Canadian")
    form.get_by_label("Current Club/School").fill("North High")
    form.get_by_label("Skills & Strengths").fill("Breaks tackles; patient runner.")
    form.get_by_role("button", name="Submit Nomination").click()
    expect(toast(page, "Newly Nominated has been nominated successfully.")).to_be_visible()

    row = pending_row(admin, "Newly Nominated")
    expect(row).to_be_visible()
    expect(row).to_contain_text("Mo Member")
    newest = admin.get_by_role("list", name="Pending nominations").get_by_role("listitem").first
    expect(newest).to_have_attribute("aria-label", "Newly Nominated")
    expect(tab(admin, "Pending")).to_have_text("Pending (2)")
    expect(stat(admin, "Total Nominations")).to_contain_text("2")


def test_the_dashboard_tabs_users_and_verification(e2e_server: Server, browser: Browser) -> None:
    make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    scout = make_user(username="sam", name="Sam Scout")
    make_user(username="gone", name="Gus Gone")
    for index, name in enumerate(["Jordan Quick", "Taylor Strong", "Morgan Swift"]):
        nominate(scout, name=name, club=f"Club {index}")

    page = open_dashboard(browser, e2e_server, "ada")
    row = pending_row(page, "Jordan Quick")
    row.get_by_role("button", name="Verify Player").click()
    expect(row.get_by_text("Verified", exact=True)).to_be_visible()
    expect(row.get_by_role("button", name="Remove Verification")).to_be_visible()
    expect(row.get_by_role("button", name="Edit Player")).to_be_visible()
    pending_row(page, "Taylor Strong").get_by_role("button", name="Approve").click()
    expect(tab(page, "Approved")).to_have_text("Approved (1)")

    shots = {
        "pending": None,
        "approved": "Approved",
        "rejected": "Rejected",
        "scouts": "Top Scouts",
        "users": "Users",
    }
    for name, label in shots.items():
        if label:
            tab(page, label).click()
        if name == "approved":
            expect(page.get_by_role("list", name="Approved nominations")).to_contain_text(
                "Taylor Strong"
            )
        if name == "scouts":
            expect(page.get_by_role("list", name="Top scouts")).to_contain_text("Sam Scout")
        if name == "users":
            expect(page.get_by_role("row", name="Gus Gone")).to_be_visible()
        for size, (width, height) in SIZES.items():
            resize(page, {"width": width, "height": height})
            screenshot(page, f"admin-{name}-{size}")
        page.set_viewport_size({"width": 1280, "height": 800})

    # Users: never on one's own row; role change and deletion after a confirmation.
    own = page.get_by_role("row", name="Ada Admin")
    expect(own.get_by_text("You", exact=True)).to_be_visible()
    expect(own.get_by_role("button")).to_have_count(0)

    sam = page.get_by_role("row", name="Sam Scout")
    sam.get_by_role("button", name="Make Admin").click()
    confirm = page.get_by_role("alertdialog", name="Change User Role")
    expect(confirm).to_contain_text("Sam Scout (@sam) will become an admin")
    confirm.get_by_role("button", name="Make Admin").click()
    expect(sam.get_by_role("button", name="Make Scout")).to_be_visible()
    scout.refresh_from_db()
    assert scout.role == Role.ADMIN

    page.get_by_role("row", name="Gus Gone").get_by_role("button", name="Delete").click()
    confirm = page.get_by_role("alertdialog", name="Delete User")
    expect(confirm).to_contain_text("This action cannot be undone.")
    expect(confirm).to_contain_text("nominations, votes, and other data")
    screenshot(page, "admin-delete-user-1280x800")
    confirm.get_by_role("button", name="Delete User").click()
    expect(page.get_by_role("row", name="Gus Gone")).to_have_count(0)
    expect(tab(page, "Users")).to_have_text("Users (2)")


def test_who_may_open_the_dashboard(e2e_server: Server, browser: Browser) -> None:
    make_user(username="sol", name="Sol Scout")

    page = new_page(browser, e2e_server)
    page.goto(DASHBOARD)
    expect(toast(page, "Authentication Required")).to_be_visible()
    expect(toast(page, "Please sign in to access the admin dashboard.")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/login\?"))
    query = parse_qs(urlparse(page.url).query)
    assert query["returnTo"] == [DASHBOARD]

    log_in(page, "sol")
    page.goto(DASHBOARD)
    expect(toast(page, "Access Denied")).to_be_visible()
    expect(toast(page, "You do not have permission to access the admin dashboard.")).to_be_visible()
    expect(page).to_have_url(f"{e2e_server.url}/")
    screenshot(page, "admin-access-denied-1280x800")


def test_the_bell_receives_an_approval_live(e2e_server: Server, browser: Browser) -> None:
    make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    nominate(make_user(username="nell", name="Nell Nominator"), name="Bell Ringer")

    member = new_page(browser, e2e_server)
    log_in(member, "nell")
    live(member)
    bell = member.get_by_role("button", name=re.compile(r"^Notifications"))
    expect(bell).to_have_accessible_name("Notifications")

    admin = open_dashboard(browser, e2e_server, "ada")
    pending_row(admin, "Bell Ringer").get_by_role("button", name="Approve").click()

    message = "Your nomination of Bell Ringer has been approved."
    expect(toast(member, message)).to_be_visible()
    expect(bell).to_have_accessible_name("Notifications, 1 unread")
    bell.click()
    menu = member.get_by_role("menu")
    item = menu.get_by_role("menuitem", name=re.compile("Bell Ringer has been approved"))
    expect(item).to_contain_text("less than a minute ago")
    for size, (width, height) in (("1280x800", (1280, 800)), ("390x844", (390, 844))):
        resize(member, {"width": width, "height": height})
        screenshot(member, f"notifications-bell-{size}")
    member.set_viewport_size({"width": 1280, "height": 800})

    menu.get_by_role("menuitem", name="Mark all as read").click()
    expect(member.get_by_test_id("unread-count")).to_have_count(0)
    expect(menu.get_by_role("menuitem", name="Mark all as read")).to_have_count(0)
    item.click()
    expect(member).to_have_url(re.compile(r"/nominations/\d+$"))
    expect(bell).to_have_accessible_name("Notifications")


@pytest.fixture(scope="module")
def two_factor_server(e2e_server: Server) -> Iterator[Server]:
    """A second server on the same database with ADMIN_2FA_REQUIRED on (the first one's
    environment, copied before the tests' ORM switch was set)."""
    port = free_port()
    env = {**e2e_server.env, "ADMIN_2FA_REQUIRED": "true"}
    server = Server(url=f"http://127.0.0.1:{port}", port=port, env=env)
    server.start()
    yield server
    server.stop()


def test_a_password_only_admin_is_shown_the_enrolment_step_then_the_tools(
    two_factor_server: Server, browser: Browser
) -> None:
    make_user(username="casey", name="Casey Chief", role=Role.ADMIN)
    nominate(make_user(username="nia", name="Nia Nominator"), name="Queued Quinn")
    page = new_page(browser, two_factor_server)
    admin_reads: list[str] = []
    refused: list[str] = []
    page.on("request", lambda r: admin_reads.append(r.url) if "/api/admin/" in r.url else None)
    page.on("response", lambda r: refused.append(r.url) if r.status == 403 else None)

    log_in(page, "casey", to=DASHBOARD)
    expect(page.get_by_role("heading", name="Two-factor sign-in needed")).to_be_visible()
    expect(
        page.get_by_text("Turn on two-factor sign-in in Settings to use the admin tools.")
    ).to_be_visible()
    expect(page.get_by_role("region", name="Platform statistics")).to_have_count(0)
    screenshot(page, "admin-dashboard-two-factor-needed")
    assert admin_reads == [] and refused == []

    page.get_by_role("link", name="Go to Settings").click()
    section = page.get_by_role("region", name="Two-Factor Sign-In")
    expect(section.get_by_text("Admins must turn this on to use the admin tools.")).to_be_visible()
    section.get_by_role("button", name="Set up two-factor sign-in").click()
    secret = section.locator("code").inner_text()
    section.get_by_label("Code from the app").fill(pyotp.TOTP(secret).now())
    section.get_by_role("button", name="Turn on").click()
    section.get_by_role("button", name="I saved them").click()
    assert admin_reads == [] and refused == []

    # Without a reload: the session now acts as an admin, and the dashboard reads its tools.
    page.get_by_role("link", name="Admin", exact=True).first.click()
    expect(stat(page, "Pending Nominations")).to_contain_text("1")
    expect(pending_row(page, "Queued Quinn")).to_be_visible()
    assert admin_reads and refused == []
