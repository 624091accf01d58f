"""Browser test of a takedown: a parent, without an account, sends the request, is told to
confirm it from the email, opens the emailed link and confirms, which takes a child's profile
off every open screen at once (list, search, leaderboard, feed, wall); the admin sees the
request live (unconfirmed, then confirmed) with its age, decides it, and the profile comes
back."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import Browser, Page, expect

from tests.builders import make_user
from tests.e2e.browsing import (
    card,
    live,
    log_in,
    new_page,
    nominate,
    screenshot,
    vote_through_server,
)
from tests.e2e.conftest import Server
from tests.helpers import run_tasks

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CHILD = "Tia Takedown"
OTHER = "Omar Stays"


def watching(browser: Browser, server: Server, path: str, username: str = "walt") -> Page:
    page = new_page(browser, server)
    log_in(page, username, to=path)
    live(page)
    return page


def test_a_parent_takes_a_profile_down_everywhere_at_once_and_the_admin_restores_it(
    e2e_server: Server, browser: Browser
) -> None:
    nora = make_user(username="nora", name="Nora Nominator")
    make_user(username="walt", name="Walt Watcher")
    make_user(username="root", name="Ada Admin", role="admin")
    child = nominate(nora, name=CHILD)
    nominate(nora, name=OTHER)
    vote_through_server(e2e_server, child.pk)

    listing = watching(browser, e2e_server, "/nominations")
    expect(card(listing, CHILD)).to_be_visible()
    results = watching(browser, e2e_server, "/results")
    expect(results.get_by_text(CHILD).first).to_be_visible()
    feed = watching(browser, e2e_server, "/feed")
    expect(feed.get_by_text(CHILD).first).to_be_visible()
    wall = new_page(browser, e2e_server, viewport={"width": 1920, "height": 1080})
    log_in(wall, "walt", to="/results")
    wall.goto("/wall?sport=football")
    live(wall)
    expect(wall.get_by_text(CHILD).first).to_be_visible()
    admin = watching(browser, e2e_server, "/admin/dashboard?tab=reports", "root")
    expect(admin.get_by_text("Nothing to review")).to_be_visible()

    # Every player page links to the form.
    detail = watching(browser, e2e_server, f"/nominations/{child.pk}")
    link = detail.get_by_role("link", name=re.compile("remove or correct this profile"))
    expect(link).to_have_attribute("href", f"/takedown?nomination={child.pk}")

    parent = new_page(browser, e2e_server)  # no account, no session
    parent.goto(f"/takedown?nomination={child.pk}")
    expect(parent.get_by_label(re.compile("Which player"))).to_have_value(
        re.compile(rf"/nominations/{child.pk}$")
    )
    parent.get_by_label("I am a parent or guardian of the athlete").check()
    parent.get_by_label("Your email address").fill("parent@example.com")
    parent.get_by_label(re.compile("What should change")).fill("She is 12. Please remove it.")
    parent.get_by_role("button", name="Send request").click()
    received = parent.get_by_role("status").filter(has_text="Confirm your request from your email")
    expect(received).to_contain_text(re.compile(r"TD-[0-9A-F]{8}"))
    expect(received).to_contain_text("We have sent a link to parent@example.com")
    expect(parent.get_by_text("Check your email", exact=True)).to_be_visible()
    screenshot(parent, "takedown-received-1280x800")

    # Nothing is hidden until the parent confirms; the admin sees the request, unconfirmed.
    request = admin.get_by_role("listitem").filter(has_text="Takedown TD-")
    expect(request).to_contain_text("Unconfirmed")
    expect(card(listing, CHILD)).to_be_visible()

    # The worker mails the link; the parent opens it and confirms with the button.
    run_tasks()
    [email] = [m for m in mail.outbox if m.to == ["parent@example.com"]]
    [link] = re.findall(r"http://\S+/takedown/confirm\?token=\S+", str(email.body))
    parent.goto(link)
    parent.get_by_role("button", name="Confirm request").click()
    expect(parent.get_by_text("Your request is confirmed")).to_be_visible()
    screenshot(parent, "takedown-confirmed-1280x800")

    # No reload anywhere: every open screen drops the child at once.
    expect(card(listing, CHILD)).to_have_count(0)
    expect(card(listing, OTHER)).to_be_visible()
    expect(results.get_by_text(CHILD)).to_have_count(0)
    expect(feed.get_by_text(CHILD)).to_have_count(0)
    expect(wall.get_by_text(CHILD)).to_have_count(0)
    # A search and a fresh page do not find it either.
    listing.get_by_role("searchbox").fill("Tia")
    expect(card(listing, CHILD)).to_have_count(0)
    detail.reload()
    expect(detail.get_by_text("Nomination Not Found")).to_be_visible()

    # The admin sees the request live, confirmed now, with its age, and decides it.
    expect(request).not_to_contain_text("Unconfirmed")
    expect(request).to_contain_text(CHILD)
    expect(request).to_contain_text(re.compile("waiting"))
    screenshot(admin, "takedown-reports-tab-1280x800")
    request.get_by_role("button", name="Decide").click()
    dialog = admin.get_by_role("dialog")
    dialog.get_by_label("Decline the request: show it again").check()
    dialog.get_by_label("Reason").fill("The athlete is 19; the parent was mistaken.")
    dialog.get_by_role("button", name="Decide").click()
    expect(admin.get_by_text("Nothing to review")).to_be_visible()
    admin.get_by_role("tab", name="Log").click()
    expect(admin.get_by_role("list", name="Moderation log")).to_contain_text(
        "decided a takedown request"
    )

    listing.get_by_role("searchbox").fill("")
    expect(card(listing, CHILD)).to_be_visible()
