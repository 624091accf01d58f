"""Browser tests of the three boards (issue 14): the Leaderboard page's tabs All time /
Trending / This week, each live, with Player of the Week; the wall rotating between the boards
with a countdown to the weekly reset. Votes are real: the vote path keeps the trend column and
the weekly counters, and the boards are checked through the API as well as on screen.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from project.scouting.boards import week_of
from project.scouting.services.votes import vote_cast
from tests.e2e.browsing import (
    ServerSession,
    live,
    log_in,
    new_page,
    nominate,
    screenshot,
    vote_through_server,
)
from tests.e2e.conftest import Server
from tests.helpers import make_user

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TV_SIZES = {"1920x1080": (1920, 1080), "1280x720": (1280, 720)}


def votes(count: int, nomination_id: int) -> None:
    for _ in range(count):
        vote_cast(user=make_user(), nomination_id=nomination_id)


def board_names(session: ServerSession, board: str) -> list[tuple[str, int, int]]:
    """The board through the API: (name, rank, score) of each entry."""
    entries = session.call("GET", f"/api/leaderboard/players?sport=football&board={board}").json()
    return [(entry["player"]["name"], entry["rank"], entry["score"]) for entry in entries]


def players(page: Page) -> Any:
    return page.get_by_role("list", name="Top Players").get_by_role("listitem")


def in_order(page: Page, names: list[str]) -> None:
    rows = players(page)
    expect(rows).to_have_count(len(names))
    for index, name in enumerate(names):
        expect(rows.nth(index)).to_contain_text(name)


def three_nominations() -> dict[str, int]:
    """Ava leads all time with 5 votes cast 10 days ago (so in an earlier week, and long
    decayed); Ben has 2 votes now, Cal 1."""
    nominator = make_user(username="nia", name="Nia Nominator")
    ids = {
        name: nominate(nominator, name=name).pk
        for name in ("Ava Early", "Ben Steady", "Cal Rising")
    }
    with time_machine.travel(timezone.now() - timedelta(days=10), tick=False):
        votes(5, ids["Ava Early"])
    votes(2, ids["Ben Steady"])
    votes(1, ids["Cal Rising"])
    return ids


def test_leaderboard_tabs_switch_boards_and_a_live_vote_moves_trending(
    e2e_server: Server, browser: Browser
) -> None:
    make_user(username="lee", name="Lee Looker", favorite_sport="football")
    ids = three_nominations()

    # The three boards order differently, as the votes' times say.
    api = ServerSession(e2e_server, make_user())
    assert board_names(api, "all") == [
        ("Ava Early", 1, 5),
        ("Ben Steady", 2, 2),
        ("Cal Rising", 3, 1),
    ]
    assert board_names(api, "trending") == [
        ("Ben Steady", 1, 2),
        ("Cal Rising", 2, 1),
        ("Ava Early", 3, 0),
    ]
    assert board_names(api, "weekly") == [("Ben Steady", 1, 2), ("Cal Rising", 2, 1)]

    page = new_page(browser, e2e_server)
    log_in(page, "lee", to="/results")
    live(page)
    expect(page.get_by_role("tab", name="All time")).to_have_attribute("aria-selected", "true")
    in_order(page, ["Ava Early", "Ben Steady", "Cal Rising"])
    expect(players(page).nth(0)).to_contain_text("5 votes")

    page.get_by_role("tab", name="Trending").click()
    expect(page).to_have_url(re.compile(r"/results\?board=trending$"))
    in_order(page, ["Ben Steady", "Cal Rising", "Ava Early"])
    expect(players(page).nth(0)).to_contain_text("2 votes in 24 h")
    expect(players(page).nth(2)).to_contain_text("0 votes in 24 h")

    # Two votes for Cal elsewhere: Cal overtakes Ben on the trending board, live.
    vote_through_server(e2e_server, ids["Cal Rising"], voters=2)
    in_order(page, ["Cal Rising", "Ben Steady", "Ava Early"])
    expect(players(page).nth(0)).to_contain_text("3 votes in 24 h")
    expect(players(page).nth(0)).to_contain_text("Up 1 place")
    expect(players(page).nth(1)).to_contain_text("Down 1 place")
    assert [name for name, _, _ in board_names(api, "trending")] == [
        "Cal Rising",
        "Ben Steady",
        "Ava Early",
    ]

    # The keyboard moves to This week (Radix tabs: arrow keys, automatic activation).
    page.get_by_role("tab", name="Trending").focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="This week")).to_be_focused()
    expect(page).to_have_url(re.compile(r"/results\?board=weekly$"))
    in_order(page, ["Cal Rising", "Ben Steady"])
    expect(players(page).nth(0)).to_contain_text("3 votes this week")

    # Player of the Week: Ava's votes made her the top of the week they were cast in.
    ava_week = week_of(timezone.now() - timedelta(days=10))
    past = page.get_by_role("list", name="Past weeks")
    podium = past.get_by_role("list", name=f"Week of {ava_week:%B} {ava_week.day}, {ava_week.year}")
    expect(podium.get_by_role("listitem")).to_have_count(1)
    expect(podium.get_by_role("listitem")).to_contain_text("Ava Early5 votes")

    # The address keeps the board: a reload opens it again.
    page.reload()
    expect(page.get_by_role("tab", name="This week")).to_have_attribute("aria-selected", "true")
    screenshot(page, "results-boards-weekly")
    page.context.close()


def test_the_wall_rotates_between_the_boards_and_counts_down_to_the_reset(
    e2e_server: Server, browser: Browser
) -> None:
    make_user(username="tv", name="Tv Screen", favorite_sport="football")
    three_nominations()

    wall = new_page(browser, e2e_server, viewport={"width": 1920, "height": 1080})
    log_in(wall, "tv", to="/results")
    wall.goto("/wall?sport=football&rotate=2")
    live(wall)
    boards = wall.get_by_role("list", name="Boards")
    shown = boards.locator("[aria-current=true]")
    top = wall.get_by_role("region", name="Top Players")

    expect(shown).to_have_text("All time")
    expect(top.get_by_role("listitem").nth(0)).to_contain_text("Ava Early")
    expect(top).to_contain_text("Votes")
    elements = wall.evaluate("document.getElementsByTagName('*').length")

    expect(shown).to_have_text("Trending", timeout=5000)
    expect(top).to_contain_text("Votes in 24 h")
    expect(top.get_by_role("listitem").nth(0)).to_contain_text("Ben Steady")
    expect(top.get_by_role("listitem").nth(2)).to_contain_text("Ava Early")

    expect(shown).to_have_text("This week", timeout=5000)
    expect(top).to_contain_text("Votes this week")
    expect(top.get_by_role("listitem")).to_have_count(2)

    # The countdown runs to the server's reset, second by second.
    countdown = wall.get_by_text(re.compile(r"^Weekly reset in"))
    expect(countdown).to_have_text(re.compile(r"^Weekly reset in (\d+d )?\d\d:\d\d:\d\d$"))
    week = ServerSession(e2e_server, make_user()).call("GET", "/api/leaderboard/week").json()
    expect(countdown.locator("time")).to_have_attribute("datetime", week["resetsAt"])
    expect(countdown).not_to_have_text(countdown.inner_text())

    # Round again to All time: the page holds no more elements than on the first pass.
    expect(shown).to_have_text("All time", timeout=5000)
    wall.wait_for_timeout(900)  # the glide and counts settle
    assert wall.evaluate("document.getElementsByTagName('*').length") == elements

    for size, (width, height) in TV_SIZES.items():
        wall.set_viewport_size({"width": width, "height": height})
        wall.wait_for_timeout(300)
        overflow = wall.evaluate(
            """() => ({
              width: document.documentElement.scrollWidth - window.innerWidth,
              height: document.documentElement.scrollHeight - window.innerHeight,
            })"""
        )
        assert overflow == {"width": 0, "height": 0}, (size, overflow)
        screenshot(wall, f"wall-boards-{size}")
    wall.context.close()


def test_a_fixed_board_on_the_wall_reads_again_once_the_reset_passes(
    e2e_server: Server, browser: Browser
) -> None:
    """The browser's clock is set to just before the reset: the countdown reaches zero, and the
    wall reads the week and the weekly board again rather than show a stale week."""
    make_user(username="tv2", name="Tv Two", favorite_sport="football")
    three_nominations()
    week = ServerSession(e2e_server, make_user()).call("GET", "/api/leaderboard/week").json()

    wall = new_page(browser, e2e_server, viewport={"width": 1280, "height": 720})
    log_in(wall, "tv2", to="/results")
    reset_ms = int(datetime.fromisoformat(week["resetsAt"]).timestamp() * 1000)
    wall.clock.install(time=reset_ms - 3000)
    reads: list[str] = []
    wall.on(
        "request",
        lambda request: reads.append(request.url) if "/api/leaderboard/" in request.url else None,
    )
    wall.goto("/wall?sport=football&board=weekly")
    live(wall)
    expect(wall.get_by_role("list", name="Boards").get_by_role("listitem")).to_have_text(
        ["This week"]
    )
    countdown = wall.get_by_text(re.compile(r"^Weekly reset in"))
    expect(countdown).to_have_text(re.compile(r"^Weekly reset in 00:00:0[0-3]$"))
    expect(countdown).to_have_text("Weekly reset in 00:00:00", timeout=6000)
    before = len(reads)
    wall.wait_for_timeout(2500)  # a second's grace for the server's push, then the reads
    again = reads[before:]
    assert any(url.endswith("/api/leaderboard/week") for url in again), again
    assert any("board=weekly" in url for url in again), again
    assert not any("board=trending" in url for url in reads), reads
    wall.context.close()
