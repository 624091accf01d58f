"""Browser tests of pages left open while their nomination goes away: an admin rejects it, or
an admin keeps a parent's confirmed takedown request and hides the player. No page is
reloaded. A member's open player page turns into the Nomination Not Found state, its
nominator's shows the rejected status, an admin's shows the new status, the wall drops the
player and the admin queue drops the item.
"""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from project.moderation.models import TakedownRequest
from project.moderation.services.takedowns import takedown_confirm_token
from tests.builders import make_user
from tests.e2e.browsing import (
    TIMEOUT_MS,
    ServerSession,
    live,
    log_in,
    new_page,
    nominate,
    vote_through_server,
)
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# An open page follows within this (the event, then one read of the nomination), with room
# for a loaded test machine; a page that is never told stays as it was for good.
LIVE_MS = 3_000
PLAYER = "Gina Gone"


def open_page(browser: Browser, server: Server, username: str, path: str) -> Page:
    page = new_page(browser, server)
    log_in(page, username, to=path)
    live(page)
    return page


def open_player(browser: Browser, server: Server, username: str, nomination_id: int) -> Page:
    page = open_page(browser, server, username, f"/nominations/{nomination_id}")
    expect(page.get_by_role("heading", name=PLAYER, level=1)).to_be_visible()
    return page


def open_wall(browser: Browser, server: Server, username: str) -> Page:
    page = new_page(browser, server, viewport={"width": 1920, "height": 1080})
    log_in(page, username, to="/results")
    page.goto("/wall?sport=football&board=all")
    live(page)
    expect(wall_row(page)).to_be_visible()
    return page


def wall_row(page: Page) -> Locator:
    players = page.get_by_role("region", name="Top Players").get_by_role("listitem")
    return players.filter(has_text=PLAYER)


def pending_row(page: Page) -> Locator:
    queue = page.get_by_role("list", name="Pending nominations")
    return queue.get_by_role("listitem", name=PLAYER)


def shows_not_found(page: Page) -> None:
    expect(page.get_by_role("heading", name="Nomination Not Found")).to_be_visible(timeout=LIVE_MS)
    expect(page.get_by_role("heading", name=PLAYER)).to_have_count(0)
    expect(page.get_by_role("button", name="VOTE")).to_have_count(0)
    expect(page.get_by_role("button", name="Follow Player")).to_have_count(0)


def shows_status(page: Page, status: str) -> None:
    expect(page.get_by_text(status, exact=True)).to_be_visible(timeout=LIVE_MS)
    expect(page.get_by_role("heading", name=PLAYER, level=1)).to_be_visible()
    expect(page.get_by_text("pending", exact=True)).to_have_count(0)


def test_a_rejection_reaches_every_open_page_of_the_nomination(
    e2e_server: Server, browser: Browser
) -> None:
    nora = make_user(username="nora", name="Nora Nominator")
    make_user(username="walt", name="Walt Watcher")
    make_user(username="root", name="Ada Admin", role="admin")
    bob = make_user(username="bob", name="Bob Boss", role="admin")
    nomination = nominate(nora, name=PLAYER)
    vote_through_server(e2e_server, nomination.pk)

    member = open_player(browser, e2e_server, "walt", nomination.pk)
    expect(member.get_by_role("button", name="VOTE")).to_be_visible()
    nominator = open_player(browser, e2e_server, "nora", nomination.pk)
    admin = open_player(browser, e2e_server, "root", nomination.pk)
    wall = open_wall(browser, e2e_server, "walt")
    queue = open_page(browser, e2e_server, "root", "/admin/dashboard")
    expect(pending_row(queue)).to_be_visible()

    ServerSession(e2e_server, bob).call(
        "POST", f"/api/admin/nominations/{nomination.pk}/reject", {"reason": "Too little info."}
    )

    shows_not_found(member)
    shows_status(nominator, "rejected")
    shows_status(admin, "rejected")
    expect(wall_row(wall)).to_have_count(0, timeout=LIVE_MS)
    expect(pending_row(queue).get_by_text("Rejected by Bob Boss")).to_be_visible(timeout=LIVE_MS)


def test_a_confirmed_takedown_reaches_every_open_page_of_the_nomination(
    e2e_server: Server, browser: Browser
) -> None:
    nora = make_user(username="nora", name="Nora Nominator")
    make_user(username="walt", name="Walt Watcher")
    make_user(username="root", name="Ada Admin", role="admin")
    bob = make_user(username="bob", name="Bob Boss", role="admin")
    nomination = nominate(nora, name=PLAYER)
    vote_through_server(e2e_server, nomination.pk)

    member = open_player(browser, e2e_server, "walt", nomination.pk)
    nominator = open_player(browser, e2e_server, "nora", nomination.pk)
    admin = open_player(browser, e2e_server, "root", nomination.pk)
    wall = open_wall(browser, e2e_server, "walt")
    queue = open_page(browser, e2e_server, "root", "/admin/dashboard")
    expect(pending_row(queue)).to_be_visible()

    # The parent's request and its confirmation, through the server as the pages send them.
    with httpx.Client(base_url=e2e_server.url, timeout=TIMEOUT_MS / 1000) as parent:
        parent.get("/api/auth/csrf").raise_for_status()
        headers = {"X-CSRFToken": parent.cookies.get("csrftoken") or ""}
        body = {
            "nominationId": nomination.pk,
            "relationship": "parent_or_guardian",
            "kind": "remove",
            "contactEmail": "parent@example.com",
        }
        parent.post("/api/takedown-requests", json=body, headers=headers).raise_for_status()
        request = TakedownRequest.objects.get(contact_email="parent@example.com")
        token = takedown_confirm_token(request)
        confirmed = parent.post(
            "/api/takedown-requests/confirm", json={"token": token}, headers=headers
        )
        confirmed.raise_for_status()

    # A confirmation keeps the player from the public only: members still see the page.
    expect(member.get_by_role("heading", name=PLAYER, level=1)).to_be_visible()
    # An admin decides: the profile stays off the site.
    ServerSession(e2e_server, bob).call(
        "POST",
        f"/api/admin/takedown-requests/{request.pk}/decide",
        {"decision": "remove", "reason": "The parent confirmed he is 12."},
    )

    # Hidden from everyone but admins, the nominator included.
    shows_not_found(member)
    shows_not_found(nominator)
    shows_status(admin, "hidden")
    expect(wall_row(wall)).to_have_count(0, timeout=LIVE_MS)
    expect(pending_row(queue)).to_have_count(0, timeout=LIVE_MS)
