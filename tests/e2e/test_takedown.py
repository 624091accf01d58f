"""Browser tests of a takedown: a parent, without an account, sends the request, is told to
confirm it from the email, opens the emailed link and confirms, which hides a child's profile
from the public at once and marks it under review for members; the admin sees the request live
(unconfirmed, then confirmed) with its age, keeps the profile off the site, which takes it off
every open screen at once (list, search, leaderboard, feed, wall), and restores it. A parent
holding a shared link, signed out, finds the form from the sign-in page, the footer and Help."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from playwright.sync_api import Browser, Page, expect

from project.moderation.services import decisions
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


def public_head(page: Page, path: str) -> str:
    """The page's HTML as a signed-out visitor (a crawler, a chat app) gets it: its preview."""
    return page.request.get(path).text()


def test_a_parent_takes_a_profile_down_everywhere_at_once_and_the_admin_restores_it(
    e2e_server: Server, browser: Browser
) -> None:
    nora = make_user(username="nora", name="Nora Nominator")
    make_user(username="walt", name="Walt Watcher")
    root = make_user(username="root", name="Ada Admin", role="admin")
    child = nominate(nora, name=CHILD)
    # Approved before any page opens: only an approved nomination unfolds into a preview.
    decisions.nomination_approve(admin=root, nomination_id=child.pk)
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
    assert CHILD in public_head(parent, f"/nominations/{child.pk}")
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
    expect(parent.get_by_role("status")).to_contain_text("hidden from people who are not signed in")
    screenshot(parent, "takedown-confirmed-1280x800")

    # The public no longer sees the child: the link preview is the site's, not the child's.
    assert CHILD not in public_head(parent, f"/nominations/{child.pk}")
    # Members still do, the page marked under review.
    expect(card(listing, CHILD)).to_be_visible()
    detail.reload()
    expect(detail.get_by_role("note")).to_contain_text("Under review")
    screenshot(detail, "takedown-under-review-1280x800")

    # The admin sees the request live, confirmed now, with its age, and keeps it off the site.
    expect(request).not_to_contain_text("Unconfirmed")
    expect(request).to_contain_text(CHILD)
    expect(request).to_contain_text(re.compile("waiting"))
    screenshot(admin, "takedown-reports-tab-1280x800")
    request.get_by_role("button", name="Decide").click()
    dialog = admin.get_by_role("dialog")
    dialog.get_by_label("Keep the profile off the site").check()
    dialog.get_by_label("Reason").fill("The parent confirmed she is 12.")
    dialog.get_by_role("button", name="Decide").click()

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
    admin.get_by_role("tab", name="Log").click()
    expect(admin.get_by_role("list", name="Moderation log")).to_contain_text(
        "decided a takedown request"
    )

    # The admin restores the player: it comes back.
    admin.get_by_role("tab", name=re.compile("Reports")).click()
    hidden = admin.get_by_role("region", name="Taken-down players")
    hidden.get_by_role("listitem").filter(has_text=CHILD).get_by_role(
        "button", name="Restore"
    ).click()
    dialog = admin.get_by_role("dialog")
    dialog.get_by_label("Reason").fill("The athlete turned 18 and asked.")
    dialog.get_by_role("button", name="Restore").click()
    listing.get_by_role("searchbox").fill("")
    expect(card(listing, CHILD)).to_be_visible()


def test_a_parent_signed_out_with_a_shared_link_finds_the_takedown_form(
    e2e_server: Server, browser: Browser
) -> None:
    nora = make_user(username="nora", name="Nora Nominator")
    child = nominate(nora, name=CHILD)
    parent = new_page(browser, e2e_server)  # no account, no session

    # The shared link leads to sign-in, which says no account is needed and links to the form.
    parent.goto(f"/nominations/{child.pk}")
    expect(parent.get_by_role("heading", name="Sign in")).to_be_visible()
    hint = parent.get_by_role("complementary", name="Is this your child?")
    expect(hint).to_contain_text("You do not need an account")
    screenshot(parent, "takedown-sign-in-hint-1280x800")
    hint.get_by_role("link", name="Ask us to take this profile down").click()
    expect(parent).to_have_url(re.compile(rf"/takedown\?nomination={child.pk}$"))
    expect(parent.get_by_label(re.compile("Which player"))).to_have_value(
        re.compile(rf"/nominations/{child.pk}$")
    )

    # The footer and the Help page lead there too, in a parent's words.
    parent.goto("/help")
    footer = parent.get_by_role("contentinfo")
    expect(footer.get_by_role("link", name="Remove your child's profile")).to_have_attribute(
        "href", "/takedown"
    )
    main = parent.get_by_role("main")
    expect(main.get_by_role("heading", name=re.compile("Is your child on"))).to_be_visible()
    main.get_by_role("link", name="Ask us to take a profile down").click()
    expect(parent).to_have_url(re.compile(r"/takedown$"))
    # A sign-in that is not about a player says nothing of takedowns.
    parent.goto("/login")
    expect(parent.get_by_role("heading", name="Sign in")).to_be_visible()
    expect(parent.get_by_role("complementary", name="Is this your child?")).to_have_count(0)
