"""Browser tests of the three boards: the Leaderboard page's tabs All time /
Trending / This week, each live, with Player of the Week; the wall rotating between the boards
with a countdown to the weekly reset. Votes are real: the vote path keeps the trend column and
the weekly counters, and the boards are checked through the API as well as on screen.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine
from django.utils import timezone
from playwright.sync_api import Browser, Page, ViewportSize, expect

from devtools.launcher import daphne_command, free_port, spawn
from project.scouting.boards.maths import next_week_start, week_of
from project.scouting.services.votes import vote_cast
from realtime.summaries import WAKE_AT_LEAST_EVERY
from tests.builders import make_user
from tests.e2e.browsing import (
    ServerSession,
    live,
    log_in,
    new_page,
    nominate,
    resize,
    screenshot,
    vote_through_server,
)
from tests.e2e.conftest import Server

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

    # A vote for Cal elsewhere: Cal draws level with Ben (2 votes in 24 h each) and they share
    # first place, live, the newer votes first.
    vote_through_server(e2e_server, ids["Cal Rising"])
    in_order(page, ["Cal Rising", "Ben Steady", "Ava Early"])
    expect(players(page).nth(0)).to_contain_text("Rank 1")
    expect(players(page).nth(0)).to_contain_text("Up 1 place")
    expect(players(page).nth(1)).to_contain_text("Rank 1")
    expect(players(page).nth(1)).to_contain_text("2 votes in 24 h")
    # Another: Cal overtakes Ben.
    vote_through_server(e2e_server, ids["Cal Rising"])
    expect(players(page).nth(0)).to_contain_text("3 votes in 24 h")
    expect(players(page).nth(1)).to_contain_text("Rank 2")
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
    # Everything the wall reads is in before the page is counted: the activity ticker (its
    # own read: 3 nominations and 8 votes) and the watching count (a presence message).
    ticker = wall.get_by_role("region", name="Recent activity")
    expect(ticker.get_by_role("listitem")).to_have_count(11)
    expect(wall.get_by_test_id("watching")).to_have_text("1 watching")
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
    assert reset_shown(countdown) == datetime.fromisoformat(week["resetsAt"]).timestamp()
    expect(countdown).not_to_have_text(countdown.inner_text())

    # Round again to All time: the page holds no more elements than on the first pass.
    expect(shown).to_have_text("All time", timeout=5000)
    expect(top).to_contain_text("Votes")
    expect(top.get_by_role("listitem").nth(0)).to_contain_text("Ava Early")  # nothing glides
    assert wall.evaluate("document.getElementsByTagName('*').length") == elements

    for size, (width, height) in TV_SIZES.items():
        resize(wall, {"width": width, "height": height})
        overflow = wall.evaluate(
            """() => ({
              width: document.documentElement.scrollWidth - window.innerWidth,
              height: document.documentElement.scrollHeight - window.innerHeight,
            })"""
        )
        assert overflow == {"width": 0, "height": 0}, (size, overflow)
        screenshot(wall, f"wall-boards-{size}")


def test_a_fixed_board_on_the_wall_reads_again_once_the_reset_passes(
    e2e_server: Server, browser: Browser
) -> None:
    """Once the wall is open, the browser's clock is set to just before the reset: the countdown
    reaches zero, and the wall reads the week and the weekly board again rather than show a
    stale week."""
    make_user(username="tv2", name="Tv Two", favorite_sport="football")
    three_nominations()
    week = ServerSession(e2e_server, make_user()).call("GET", "/api/leaderboard/week").json()

    wall = new_page(browser, e2e_server, viewport={"width": 1280, "height": 720})
    log_in(wall, "tv2", to="/results")
    # Playwright for Python takes Unix seconds (a number in milliseconds put the browser
    # thousands of years ahead, past any reset).
    resets = datetime.fromisoformat(week["resetsAt"]).timestamp()
    wall.clock.install(time=resets - 600)  # however long the page takes to open
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
    wall.clock.set_system_time(resets - 3)
    expect(countdown).to_have_text(re.compile(r"^Weekly reset in 00:00:0[0-3]$"))
    expect(countdown).to_have_text("Weekly reset in 00:00:00", timeout=6000)
    before = len(reads)
    # After a second's grace for the server's push, the wall reads the week and its board.
    with (
        wall.expect_request(lambda request: request.url.endswith("/api/leaderboard/week")),
        wall.expect_request(lambda request: "board=weekly" in request.url),
    ):
        pass
    again = reads[before:]
    assert any(url.endswith("/api/leaderboard/week") for url in again), again
    assert any("board=weekly" in url for url in again), again
    assert not any("board=trending" in url for url in reads), reads


# --- The week turning over on the server ----------------------------------------------------

# The server's clock starts this long before a week boundary: the screens open at leisure, and
# the test then moves the server's clock to LEAD_S before the boundary.
OPENING_S = 600.0
# How long before the boundary the server's clock is moved once both screens are open: its
# summaries worker reads the wall clock again at least every WAKE_AT_LEAST_EVERY seconds, so
# by the boundary it has seen the move and waits for the boundary itself.
LEAD_S = WAKE_AT_LEAST_EVERY + 1.0
# The browsers' clocks run this far behind the server's, so their own countdowns are still
# running when the server's week turns over: only the server's push can change the screens.
BROWSER_LAG_S = 30.0
# The issue allows 1 s from the boundary to the screens; the shared machine and Playwright's
# polling get 2 s more.
PUSH_WITHIN_S = 3.0


def reset_shown(countdown: Any) -> float:
    """The instant the wall's countdown runs to (its ``<time datetime>``; the REST answer and
    the live event may spell the same instant differently: Z or +00:00)."""
    return datetime.fromisoformat(countdown.locator("time").get_attribute("datetime")).timestamp()


@dataclass
class ShiftedClockServer(Server):
    """A second daphne process on the same database whose wall clock starts at ``clock_at``
    (Unix seconds), runs on at the real pace, and moves when ``move_to`` says
    (tests/e2e/shifted_clock_daphne.py)."""

    control: Path = Path()
    clock_at: float = 0.0
    since: float = 0.0  # time.monotonic() when the clock was last set to clock_at

    def _spawn(self, log: Any) -> None:
        self.since = time.monotonic()
        shifted = ["tests.e2e.shifted_clock_daphne", repr(self.clock_at), str(self.control)]
        self.process = spawn(daphne_command(self.port, via=shifted), self.env, output=log)

    def now(self) -> float:
        """The server's clock (set a fraction of a second after ``since``, so this runs that
        fraction ahead of it)."""
        return self.clock_at + time.monotonic() - self.since

    def move_to(self, moment: float) -> None:
        """Moves the server's clock to ``moment`` and returns once the server says it has."""
        asked = repr(moment)
        done = self.control.with_name(self.control.name + ".done")
        self.control.write_text(asked)
        self.clock_at, self.since = moment, time.monotonic()
        deadline = time.monotonic() + 10
        while not (done.exists() and done.read_text() == asked):
            assert time.monotonic() < deadline, "the server did not move its clock"
            time.sleep(0.02)


@pytest.fixture
def week_ending_server(e2e_server: Server, tmp_path: Path) -> Iterator[ShiftedClockServer]:
    """A server whose week ends OPENING_S seconds after it starts, unless it is moved on."""
    boundary = next_week_start(timezone.now())
    port = free_port()
    server = ShiftedClockServer(
        url=f"http://127.0.0.1:{port}",
        port=port,
        env=dict(e2e_server.env),
        control=tmp_path / "clock",
        clock_at=boundary.timestamp() - OPENING_S,
    )
    server.start()
    yield server
    server.stop()


def test_the_week_turning_over_on_the_server_reaches_the_wall_and_the_leaderboard(
    week_ending_server: ShiftedClockServer, browser: Browser
) -> None:
    """The server's summaries timer (no cron, no vote) pushes the new week's empty board to a
    wall fixed on the weekly board and to the Leaderboard's This week tab, and the wall's
    countdown starts again, without a reload. The browsers' clocks are BROWSER_LAG_S behind, so
    neither page's own countdown fallback can be what changed them, and neither reads the
    weekly board again."""
    server = week_ending_server
    ends = server.clock_at + OPENING_S  # the week's end on the server's clock
    make_user(username="bea", name="Bea Basket", favorite_sport="basketball")
    nominator = make_user(username="noe", name="Noe Nominator")
    wes = nominate(nominator, name="Wes Weekly", sport="basketball").pk
    val = nominate(nominator, name="Val Voted", sport="basketball").pk
    vote_through_server(server, wes, voters=2)  # cast at the server's time: the ending week
    vote_through_server(server, val)

    api = ServerSession(server, make_user())
    week = api.call("GET", "/api/leaderboard/week").json()
    assert datetime.fromisoformat(week["resetsAt"]).timestamp() == ends
    weekly = api.call("GET", "/api/leaderboard/players?sport=basketball&board=weekly").json()
    assert [(entry["player"]["name"], entry["score"]) for entry in weekly] == [
        ("Wes Weekly", 2),
        ("Val Voted", 1),
    ]

    reads: list[str] = []

    def opened(viewport: ViewportSize | None = None) -> Page:
        page = new_page(browser, server, **({"viewport": viewport} if viewport else {}))
        page.clock.install(time=server.now() - BROWSER_LAG_S)  # Unix seconds
        page.on(
            "request",
            lambda request: (
                reads.append(request.url) if "/api/leaderboard/players" in request.url else None
            ),
        )
        return page

    wall = opened({"width": 1280, "height": 720})
    log_in(wall, "bea", to="/results")
    wall.goto("/wall?sport=basketball&board=weekly")
    live(wall)
    top = wall.get_by_role("region", name="Top Players")
    expect(top.get_by_role("listitem")).to_have_count(2)
    expect(top.get_by_role("listitem").nth(0)).to_contain_text("Wes Weekly")
    countdown = wall.get_by_text(re.compile(r"^Weekly reset in"))
    assert reset_shown(countdown) == ends
    # The browser's clock is behind: its countdown still has OPENING_S and more to go.
    expect(countdown).to_have_text(re.compile(r"^Weekly reset in 00:\d\d:\d\d$"))

    results = opened()
    log_in(results, "bea", to="/results?board=weekly")
    live(results)
    expect(results.get_by_role("tab", name="This week")).to_have_attribute("aria-selected", "true")
    in_order(results, ["Wes Weekly", "Val Voted"])
    ended = week_of(datetime.fromtimestamp(ends - 1, UTC))
    podium = results.get_by_role("list", name=f"Week of {ended:%B} {ended.day}, {ended.year}")
    expect(podium).to_have_count(0)  # the week is not history yet

    shown = len(reads)
    # Both screens are open: the browsers' clocks go to BROWSER_LAG_S behind the moment the
    # server's clock is moved to, LEAD_S before the boundary.
    for page in (wall, results):
        page.clock.set_system_time(ends - LEAD_S - BROWSER_LAG_S)
    expect(countdown).to_have_text(re.compile(r"^Weekly reset in 00:0[01]:\d\d$"))
    server.move_to(ends - LEAD_S)

    # The server's week ends: both screens show the new, empty week, pushed.
    within = (LEAD_S + PUSH_WITHIN_S) * 1000
    expect(top.get_by_role("listitem")).to_have_count(0, timeout=within)
    expect(top).to_contain_text("No votes this week yet")
    expect(players(results)).to_have_count(0, timeout=within)
    expect(results.get_by_role("heading", name="No votes this week yet")).to_be_visible()
    late = server.now() - ends
    assert late <= PUSH_WITHIN_S, f"the new week reached the screens {late:.1f} s late"

    # The wall's countdown starts again from the next week's reset (7 days and the browser's
    # lag away), and the Leaderboard's Player of the Week takes in the week that ended.
    new_week = api.call("GET", "/api/leaderboard/week").json()
    assert datetime.fromisoformat(new_week["resetsAt"]).timestamp() == ends + 7 * 86_400
    expect(countdown).to_have_text(re.compile(r"^Weekly reset in 7d 00:00:[0-5]\d$"))
    assert reset_shown(countdown) == ends + 7 * 86_400
    expect(podium.get_by_role("listitem")).to_have_count(2)
    expect(podium.get_by_role("listitem").nth(0)).to_contain_text("Wes Weekly2 votes")
    assert not [url for url in reads[shown:] if "board=weekly" in url], reads[shown:]
    screenshot(wall, "wall-week-turned-over-1280x720")
