"""Browser tests of the live layer as members see it: what one member does shows on another's
screen without a reload, new nominations wait behind an "N new" pill once the reader has
scrolled, and a tab that lost its socket catches up when it comes back.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from project.scouting.services import votes
from tests.builders import make_user
from tests.e2e.browsing import (
    TIMEOUT_MS,
    card,
    live,
    new_page,
    nominate,
    nominate_through_server,
    screenshot,
    sign_in,
    toast,
    vote_through_server,
)
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A reconnect waits out the backoff (up to a few seconds) and the server's restart.
RECONNECT_MS = 30_000
# A network lost or back shows within this, without waiting for a heartbeat or a backoff.
NOTICE_MS = 5_000


def wait_for_scroll(page: Page, *, above: int | None = None, below: int | None = None) -> None:
    """Waits, frame by frame in the page, until the scroll offset is past ``above`` or back
    under ``below`` (the page's CSP forbids wait_for_function's eval; a smooth scroll takes
    frames)."""
    reached, offset = page.evaluate(
        """([above, below, timeout]) => new Promise((done) => {
          const until = performance.now() + timeout;
          const look = () => {
            const y = window.scrollY;
            const there = (above === null || y > above) && (below === null || y < below);
            if (there || performance.now() > until) done([there, y]);
            else requestAnimationFrame(look);
          };
          look();
        })""",
        [above, below, TIMEOUT_MS],
    )
    assert reached, f"scrollY stayed at {offset}"


def stat(page: Page, title: str) -> Locator:
    return page.get_by_text(title, exact=True).locator("..")


def test_a_vote_in_one_browser_moves_the_count_in_another(
    e2e_server: Server, browser: Browser
) -> None:
    voter = make_user(username="vera", name="Vera Voter")
    make_user(username="walt", name="Walt Watcher")
    nomination = nominate(voter, name="Quinn Archer", position="Wide Receiver")
    nominate(voter, name="Reese Blocker", position="Tackle")

    watcher = new_page(browser, e2e_server)
    sign_in(watcher, "walt", to="/nominations")
    live(watcher)
    quinn = card(watcher, "Quinn Archer")
    expect(quinn.get_by_test_id("vote-count")).to_have_text("0")

    detail = new_page(browser, e2e_server)
    sign_in(detail, "walt", to=f"/nominations/{nomination.pk}")
    live(detail)
    dashboard = new_page(browser, e2e_server)
    sign_in(dashboard, "walt")
    live(dashboard)
    expect(stat(dashboard, "Total Votes")).to_contain_text("0")

    page = new_page(browser, e2e_server)
    sign_in(page, "vera", to="/vote")
    card(page, "Quinn Archer").get_by_role("button", name="VOTE", exact=True).click()
    expect(toast(page, "You have voted for Quinn Archer.")).to_be_visible()

    # No reload anywhere: the other tabs are told.
    expect(quinn.get_by_test_id("vote-count")).to_have_text("1")
    expect(quinn.get_by_role("button", name="VOTE", exact=True)).to_be_visible()
    expect(detail.get_by_text("Community Votes").locator("..")).to_contain_text("1")
    expect(stat(dashboard, "Total Votes")).to_contain_text("1")
    screenshot(watcher, "live-vote-watcher-1280x800")

    card(page, "Quinn Archer").get_by_role("button", name="VOTED").click()
    expect(toast(page, "You have removed your vote for Quinn Archer.")).to_be_visible()
    expect(quinn.get_by_test_id("vote-count")).to_have_text("0")
    expect(stat(dashboard, "Total Votes")).to_contain_text("0")

    # A vote made without a browser arrives the same way.
    vote_through_server(e2e_server, nomination.pk)
    expect(quinn.get_by_test_id("vote-count")).to_have_text("1")


def test_new_nominations_arrive_live_and_wait_when_scrolled(
    e2e_server: Server, browser: Browser
) -> None:
    author = make_user(username="nico", name="Nico Nominator")
    make_user(username="ola", name="Ola Reader")
    for index in range(12):
        nominate(author, name=f"Existing Player {index:02d}", club=f"Club {index}")

    reader = new_page(browser, e2e_server)
    sign_in(reader, "ola", to="/nominations")
    live(reader)
    expect(card(reader, "Existing Player 11")).to_be_visible()
    home = new_page(browser, e2e_server)
    sign_in(home, "ola")
    live(home)

    # At the top of the list, a new nomination comes in at once.
    nominate_through_server(e2e_server, author, name="Fresh Face", club="New Club")
    expect(card(reader, "Fresh Face")).to_be_visible()
    recent = home.get_by_role("region", name="Recent Nominations")
    expect(recent.get_by_role("article", name="Fresh Face")).to_be_visible()
    expect(stat(home, "Total Nominations")).to_contain_text("13")

    # Scrolled down, it waits behind the pill and nothing moves under the reader.
    reader.mouse.wheel(0, 1500)
    wait_for_scroll(reader, above=600)
    before = card(reader, "Existing Player 05").bounding_box()
    nominate_through_server(e2e_server, author, name="Later Arrival", club="Late Club")
    pill = reader.get_by_role("button", name="1 new")
    expect(pill).to_be_visible()
    expect(card(reader, "Later Arrival")).to_have_count(0)
    assert card(reader, "Existing Player 05").bounding_box() == before
    screenshot(reader, "live-new-pill-1280x800")
    pill.click()
    expect(card(reader, "Later Arrival")).to_be_visible()
    wait_for_scroll(reader, below=50)
    expect(pill).to_have_count(0)


def test_a_tab_catches_up_after_losing_its_socket(e2e_server: Server, browser: Browser) -> None:
    author = make_user(username="pat", name="Pat Nominator")
    make_user(username="remy", name="Remy Reader")
    nomination = nominate(author, name="Steady Sam")

    page = new_page(browser, e2e_server)
    sign_in(page, "remy", to="/nominations")
    live(page)
    sam = card(page, "Steady Sam")
    expect(sam.get_by_test_id("vote-count")).to_have_text("0")

    # While the server is down the tab says so; votes made meanwhile are not lost.
    e2e_server.stop()
    expect(page.get_by_title(re.compile("Live updates: (connecting|offline)"))).to_be_visible()
    screenshot(page, "live-reconnecting-1280x800")
    for _ in range(2):
        votes.vote_cast(user=make_user(), nomination_id=nomination.pk)
    e2e_server.start()

    expect(page.get_by_title("Live updates: live")).to_be_visible(timeout=RECONNECT_MS)
    expect(sam.get_by_test_id("vote-count")).to_have_text("2")

    # And the new socket carries later events as before.
    vote_through_server(e2e_server, nomination.pk)
    expect(sam.get_by_test_id("vote-count")).to_have_text("3")


def test_a_lost_network_shows_at_once_and_resumes_when_it_returns(
    e2e_server: Server, browser: Browser
) -> None:
    author = make_user(username="pat", name="Pat Nominator")
    make_user(username="remy", name="Remy Reader")
    nomination = nominate(author, name="Offline Olly")

    page = new_page(browser, e2e_server)
    sign_in(page, "remy", to="/nominations")
    live(page)
    olly = card(page, "Offline Olly")
    expect(olly.get_by_test_id("vote-count")).to_have_text("0")
    wall = new_page(browser, e2e_server, viewport={"width": 1280, "height": 720})
    sign_in(wall, "remy", to="/results")
    wall.goto("/wall?sport=football&board=all")
    live(wall)

    # The browser loses its network: both say so within seconds, not after a heartbeat.
    for context in (page.context, wall.context):
        context.set_offline(True)
    expect(page.get_by_title("Live updates: offline")).to_be_visible(timeout=NOTICE_MS)
    banner = wall.get_by_role("alert").filter(has_text="Reconnecting…")
    expect(banner).to_be_visible(timeout=NOTICE_MS)
    vote_through_server(e2e_server, nomination.pk, voters=2)

    # The network back, they connect at once (no backoff) and replay what they missed.
    for context in (page.context, wall.context):
        context.set_offline(False)
    expect(page.get_by_title("Live updates: live")).to_be_visible(timeout=NOTICE_MS)
    expect(olly.get_by_test_id("vote-count")).to_have_text("2")
    expect(banner).to_have_count(0, timeout=NOTICE_MS)
    rows = wall.get_by_role("region", name="Top Players").get_by_role("listitem")
    expect(rows.filter(has_text="Offline Olly")).to_have_text(re.compile(r"\D2$"))
