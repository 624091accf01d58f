"""Browser tests of impatient hands: a double click on VOTE, Follow Player or Follow sends one
request, not two, and the button keeps the keyboard focus while its call runs.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, Request, expect

from tests.builders import make_user
from tests.e2e.browsing import card, log_in, new_page, nominate, toast
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def writes(page: Page, path: str) -> list[str]:
    """The unsafe requests to ``path`` the page sends from now on (filled in as they go)."""
    sent: list[str] = []

    def record(request: Request) -> None:
        if request.method != "GET" and path in request.url:
            sent.append(f"{request.method} {request.url}")

    page.on("request", record)
    return sent


def test_a_double_click_on_vote_votes_once(e2e_server: Server, browser: Browser) -> None:
    nominate(make_user(username="dora", name="Dora Author"), name="Twice Tom")
    make_user(username="quin", name="Quin Quick")
    page = new_page(browser, e2e_server)
    log_in(page, "quin", to="/nominations")
    tom = card(page, "Twice Tom")
    votes = writes(page, "/api/votes")

    tom.get_by_role("button", name="VOTE").dblclick()
    expect(toast(page, "You have voted for Twice Tom.")).to_be_visible()
    voted = tom.get_by_role("button", name="VOTED")
    expect(voted).to_be_visible()
    expect(voted).to_be_focused()
    page.wait_for_load_state("networkidle")
    expect(toast(page, "You have already voted for this nomination")).to_have_count(0)
    expect(tom.get_by_test_id("vote-count")).to_have_text("1")
    assert len(votes) == 1, votes

    # Once the call is answered, the next click takes the vote back, as one request.
    voted.click()
    expect(toast(page, "You have removed your vote for Twice Tom.")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert len(votes) == 2, votes


def test_a_double_click_on_follow_follows_once(e2e_server: Server, browser: Browser) -> None:
    author = make_user(username="fern", name="Fern Author")
    nomination = nominate(author, name="Follow Fiona")
    make_user(username="quin", name="Quin Quick")
    page = new_page(browser, e2e_server)
    log_in(page, "quin", to=f"/nominations/{nomination.pk}")
    follows = writes(page, "/api/follow")

    page.get_by_role("button", name="Follow Player").dblclick()
    expect(toast(page, "You are now following Follow Fiona.")).to_be_visible()
    following = page.get_by_role("button", name="Following")
    expect(following).to_be_focused()
    page.wait_for_load_state("networkidle")
    assert len(follows) == 1, follows

    page.goto(f"/scout/{author.pk}")
    page.get_by_role("button", name="Follow Fern Author").dblclick()
    expect(toast(page, "You are now following Fern Author.")).to_be_visible()
    expect(page.get_by_role("button", name="Following Fern Author")).to_be_focused()
    page.wait_for_load_state("networkidle")
    assert len(follows) == 2, follows
