"""Browser tests of the member screens: the dashboard, nominating, the lists and search, voting,
the leaderboard, the player profile, sport selection, the not-found page and the mobile menu.

Every test drives the built SPA against the real server (see conftest.py) and takes screenshots
of what it shows at a desktop and a phone size.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from project.accounts.models import Role
from project.scouting.models import Nomination
from project.scouting.services import votes
from tests.builders import PASSWORD, make_user
from tests.e2e.browsing import (
    PHONE,
    card,
    live,
    new_page,
    nominate,
    screenshot,
    shoot,
    sign_in,
    toast,
)
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_register_nominate_search_vote_and_unvote(page: Page) -> None:
    page.goto("/register")
    page.get_by_label("Username").fill("riley")
    page.get_by_label("Full name").fill("Riley Scout")
    page.get_by_label("Email").fill("riley@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_label("Year of birth").select_option("1990")
    page.get_by_role("button", name="Create account").click()
    expect(page).to_have_url(re.compile(r"/$"))
    expect(page.get_by_role("heading", name="Recent Nominations")).to_be_visible()
    expect(page.get_by_text("No nominations yet")).to_be_visible()
    expect(page.get_by_role("heading", name="My Nominations")).to_have_count(0)
    live(page)
    shoot(page, "home-empty")

    # The form's own messages, word for word.
    page.get_by_role("button", name="Nominate Player").click()
    dialog = page.get_by_role("dialog", name="Athlete Nomination")
    dialog.get_by_role("button", name="Submit Nomination").click()
    for message in [
        "Name must be at least 2 characters",
        "Position is required",
        "Nationality is required",
        "Club is required",
        "Skills are required",
    ]:
        expect(dialog.get_by_text(message)).to_be_visible()
    dialog.get_by_label("Age").fill("8")
    dialog.get_by_role("button", name="Submit Nomination").click()
    expect(dialog.get_by_text("Player must be at least 9 years old")).to_be_visible()
    shoot(page, "nominate-dialog-errors")

    dialog.get_by_label("Player Name").fill("Jordan Rivers")
    dialog.get_by_label("Age").fill("16")
    dialog.get_by_label("Position").fill("Point Guard")
    dialog.get_by_label("Nationality").fill("Canadian")
    dialog.get_by_label("Current Club/School").fill("Toronto Prep")
    expect(dialog.get_by_label("Sport")).to_have_value("football")
    dialog.get_by_label("Skills & Strengths").fill("Explosive first step and court vision.")
    dialog.get_by_role("button", name="Submit Nomination").click()
    expect(toast(page, "Jordan Rivers has been nominated successfully.")).to_be_visible()
    expect(dialog).to_be_hidden()

    my = page.get_by_role("region", name="My Nominations")
    status = my.get_by_role("article", name="Jordan Rivers").get_by_text("pending", exact=True)
    expect(status).to_have_css("text-transform", "uppercase")
    expect(card(page, "Jordan Rivers")).to_have_count(2)  # mine, and the recent grid
    expect(page.get_by_text("Total Nominations").locator("..")).to_contain_text("1")
    shoot(page, "home")

    # The same player again is refused with a link to the existing nomination.
    page.get_by_role("button", name="Nominate Player").first.click()
    dialog = page.get_by_role("dialog", name="Athlete Nomination")
    dialog.get_by_label("Player Name").fill("Jordan Rivers")
    dialog.get_by_label("Age").fill("16")
    dialog.get_by_label("Position").fill("Guard")
    dialog.get_by_label("Nationality").fill("Canadian")
    dialog.get_by_label("Current Club/School").fill("Toronto Prep")
    dialog.get_by_label("Skills & Strengths").fill("Again.")
    dialog.get_by_role("button", name="Submit Nomination").click()
    expect(dialog.get_by_text("This player has already been nominated.")).to_be_visible()
    # Said once: in the dialog's notice, with no toast beside it.
    expect(page.get_by_text("This player has already been nominated", exact=True)).to_have_count(0)
    dialog.get_by_role("link", name="View the existing nomination").click()
    expect(page).to_have_url(re.compile(r"/nominations/\d+$"))
    expect(page.get_by_role("heading", name="Jordan Rivers", level=1)).to_be_visible()

    # Search runs on the server: by club, then for something no one has.
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Nominations").click()
    expect(page.get_by_role("heading", name="All Nominations")).to_be_visible()
    search = page.get_by_role("searchbox", name="Search nominations")
    search.fill("toronto")
    expect(page).to_have_url(re.compile(r"/nominations\?q=toronto$"))
    rivers = card(page, "Jordan Rivers")
    expect(rivers).to_be_visible()
    expect(rivers).to_contain_text("16 YRS")
    expect(rivers).to_contain_text("Nominated by Riley Scout")
    search.fill("nobody-matches-this")
    expect(page.get_by_role("heading", name="No Results Found")).to_be_visible()
    shoot(page, "nominations-no-results")
    search.fill("")
    expect(rivers).to_be_visible()

    rivers.get_by_role("button", name="VOTE").click()
    expect(toast(page, "Vote submitted")).to_be_visible()
    expect(toast(page, "You have voted for Jordan Rivers.")).to_be_visible()
    expect(rivers.get_by_role("button", name="VOTED")).to_be_visible()
    expect(rivers.get_by_test_id("vote-count")).to_have_text("1")
    shoot(page, "nominations")

    rivers.get_by_role("button", name="VOTED").click()
    expect(toast(page, "Vote removed")).to_be_visible()
    expect(toast(page, "You have removed your vote for Jordan Rivers.")).to_be_visible()
    expect(rivers.get_by_role("button", name="VOTE", exact=True)).to_be_visible()
    expect(rivers.get_by_test_id("vote-count")).to_have_text("0")
    assert Nomination.objects.get(player__name="Jordan Rivers").vote_count == 0


def test_vote_tabs_needing_votes_and_leaderboard(page: Page) -> None:
    scout = make_user(username="avery", name="Avery Scout")
    other = make_user(username="blake", name="Blake Finder")
    ranked = [nominate(other, name=f"Player {letter}", club=f"Club {letter}") for letter in "ABCD"]
    voters = [make_user() for _ in range(5)]
    for count, nomination in zip([5, 3, 2, 0], ranked, strict=True):
        for voter in voters[:count]:
            votes.vote_cast(user=voter, nomination_id=nomination.pk)
    votes.vote_cast(user=scout, nomination_id=ranked[1].pk)

    sign_in(page, "avery", to="/vote")
    tabs = page.get_by_role("tablist", name="Filter nominations")
    expect(tabs.get_by_role("tab", name=re.compile(r"^Voted"))).to_contain_text("1")
    expect(page.get_by_role("article")).to_have_count(4)
    shoot(page, "vote-all")
    tabs.get_by_role("tab", name=re.compile(r"^Voted")).click()
    expect(page).to_have_url(re.compile(r"/vote\?tab=voted$"))
    expect(page.get_by_role("article")).to_have_count(1)
    expect(card(page, "Player B").get_by_role("button", name="VOTED")).to_be_visible()
    card(page, "Player B").get_by_role("button", name="VOTED").click()
    expect(page.get_by_role("heading", name="No Votes Yet")).to_be_visible()
    shoot(page, "vote-voted-empty")
    tabs.get_by_role("tab", name="Not Voted").click()
    expect(page.get_by_role("article")).to_have_count(4)
    for player in ["Player A", "Player B", "Player C", "Player D"]:
        card(page, player).get_by_role("button", name="VOTE", exact=True).click()
        expect(card(page, player)).to_have_count(0)
    expect(page.get_by_role("heading", name="All Caught Up")).to_be_visible()

    page.goto("/nominations/needing-votes")
    expect(page.get_by_role("heading", name="Nominations Needing Votes")).to_be_visible()
    expect(page.get_by_role("article")).to_have_count(3)  # B (4 votes now), C (3) and D (1)
    shoot(page, "needing-votes")

    page.goto("/results")
    board = page.get_by_role("list", name="Top Players")
    rows = board.get_by_role("listitem")
    expect(rows).to_have_count(4)
    expect(rows.nth(0)).to_contain_text("Player A")
    expect(rows.nth(0)).to_contain_text("6 votes")
    expect(rows.nth(0).get_by_role("progressbar")).to_have_attribute("aria-valuenow", "100")
    expect(rows.nth(3)).to_contain_text("Player D")
    expect(rows.nth(3).get_by_role("progressbar")).to_have_attribute("aria-valuenow", "17")
    expect(page.get_by_role("link", name="Open Wall Display")).to_have_attribute("href", "/wall")
    shoot(page, "results-players")
    page.get_by_role("tab", name="Top Scouts").click()
    scouts = page.get_by_role("list", name="Top Scouts")
    expect(scouts.get_by_role("listitem").first).to_contain_text("Blake Finder")
    expect(scouts.get_by_role("listitem").first).to_contain_text("@blake")
    expect(scouts.get_by_role("listitem").first).to_contain_text("4")
    shoot(page, "results-scouts")
    page.get_by_role("tab", name="Top Players").click()
    page.get_by_role("list", name="Top Players").get_by_role("link").first.click()
    expect(page.get_by_role("heading", name="Player A", level=1)).to_be_visible()

    # With everything voted past 5, nothing needs votes.
    for voter in voters[:5]:
        for nomination in ranked[1:]:
            if not nomination.votes.filter(user=voter).exists():
                votes.vote_cast(user=voter, nomination_id=nomination.pk)
    page.goto("/nominations/needing-votes")
    expect(page.get_by_role("heading", name="ALL CAUGHT UP!")).to_be_visible()
    expect(page.get_by_text("All active nominations have at least 5 votes")).to_be_visible()


def test_player_profile_deep_link_follow_edit_and_not_found(
    page: Page, browser: Browser, e2e_server: Server
) -> None:
    nominator = make_user(username="casey", name="Casey Nominator")
    nomination = nominate(
        nominator,
        name="Mia Lopez",
        sport="soccer",
        age=None,
        graduation_year=2027,
        position="Winger",
        nationality="",
        club="",
        video_link="https://video.example/mia",
    )
    Nomination.objects.filter(pk=nomination.pk).update(created_at="2025-03-07T12:00:00Z")

    sign_in(page, "casey", to=f"/nominations/{nomination.pk}")
    profile = page.get_by_role("article", name="Mia Lopez")
    expect(profile.get_by_role("heading", name="Mia Lopez", level=1)).to_be_visible()
    expect(profile).to_contain_text("Winger · Soccer")
    expect(profile.get_by_text("pending", exact=True)).to_have_css("text-transform", "uppercase")
    expect(profile).to_contain_text("Graduation Year2027")
    expect(profile).to_contain_text("NationalityNot specified")
    expect(profile).to_contain_text("Current Club/SchoolNot specified")
    expect(profile).to_contain_text("Casey Nominator")
    expect(profile).to_contain_text("@casey")
    expect(profile).to_contain_text("Nominated on March 7, 2025")
    highlights = profile.get_by_role("link", name="Watch Highlights")
    expect(highlights).to_have_attribute("href", "https://video.example/mia")
    expect(highlights).to_have_attribute("target", "_blank")
    live(page)
    shoot(page, "nomination-detail")

    profile.get_by_role("button", name="Follow Player").click()
    expect(toast(page, "You are now following Mia Lopez.")).to_be_visible()
    expect(profile.get_by_role("button", name="Following")).to_be_visible()
    profile.get_by_role("button", name="Following").click()
    expect(toast(page, "You have unfollowed Mia Lopez.")).to_be_visible()
    expect(profile.get_by_role("button", name="Follow Player")).to_be_visible()

    profile.get_by_role("button", name="Edit").click()
    dialog = page.get_by_role("dialog", name="Edit Player Information")
    expect(dialog.get_by_label("Sport")).to_have_value("soccer")
    dialog.get_by_label("Nationality").fill("Mexican")
    dialog.get_by_label("Current Club/School").fill("Club América U17")
    shoot(page, "edit-player-dialog")
    dialog.get_by_role("button", name="Save Changes").click()
    expect(toast(page, "Mia Lopez's information has been updated successfully.")).to_be_visible()
    expect(profile).to_contain_text("NationalityMexican")
    expect(profile).to_contain_text("Club América U17")

    # Someone else sees no Edit; an admin does.
    make_user(username="drew", name="Drew Other")
    make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    for username, edit_count in [("drew", 0), ("ada", 1)]:
        other = new_page(browser, e2e_server)
        sign_in(other, username, to=f"/nominations/{nomination.pk}")
        expect(other.get_by_role("button", name="Follow Player")).to_be_visible()
        expect(other.get_by_role("button", name="Edit")).to_have_count(edit_count)
        other.context.close()

    page.goto("/nominations/999999")
    expect(page.get_by_role("heading", name="Nomination Not Found")).to_be_visible()
    shoot(page, "nomination-not-found")
    page.get_by_role("link", name="Back to Nominations").click()
    expect(page).to_have_url(re.compile(r"/nominations$"))

    page.goto("/no/such/page")
    expect(page.get_by_role("heading", name="404 Page Not Found")).to_be_visible()
    expect(page.get_by_text("Did you forget to add the page to the router?")).to_be_visible()
    shoot(page, "not-found")


def test_sport_selection_filters_and_survives_reload(page: Page) -> None:
    scout = make_user(username="emery", name="Emery Scout")
    nominate(scout, name="Gridiron Gary", sport="football")
    nominate(scout, name="Striker Sofia", sport="soccer", position="Striker")

    sign_in(page, "emery", to="/nominations")
    expect(card(page, "Gridiron Gary")).to_be_visible()
    expect(card(page, "Striker Sofia")).to_have_count(0)

    page.get_by_role("button", name="Sport: Football. Change sport").click()
    page.get_by_role("menuitemradio", name="Soccer").click()
    expect(card(page, "Striker Sofia")).to_be_visible()
    expect(card(page, "Gridiron Gary")).to_have_count(0)

    page.reload()
    expect(page.get_by_role("button", name="Sport: Soccer. Change sport")).to_be_visible()
    expect(card(page, "Striker Sofia")).to_be_visible()
    expect(card(page, "Gridiron Gary")).to_have_count(0)
    page.goto("/")
    expect(page.get_by_text("Soccer · Community scouting")).to_be_visible()
    recent = page.get_by_role("region", name="Recent Nominations")
    expect(recent.get_by_role("article", name="Striker Sofia")).to_be_visible()
    expect(recent.get_by_role("article", name="Gridiron Gary")).to_have_count(0)


def test_mobile_menu(e2e_server: Server, browser: Browser) -> None:
    scout = make_user(username="finley", name="Finley Scout")
    nominate(scout, name="Hockey Hana", sport="hockey", position="Center")
    page = new_page(browser, e2e_server, PHONE)
    sign_in(page, "finley")
    live(page)
    # The address turns to / at once, the page once its chunk has loaded (the router keeps the
    # login page until then); the menu belongs to the page it was opened on, so opening it
    # before the dashboard shows would see it closed by the dashboard's arrival.
    expect(page.get_by_role("heading", name="Welcome back, Finley")).to_be_visible()

    expect(page.get_by_role("navigation", name="Main")).to_be_hidden()
    page.get_by_role("button", name="Open menu").click()
    menu = page.get_by_role("navigation", name="Mobile")
    for link in ["Dashboard", "Nominations", "Vote", "Leaderboard", "Feed"]:
        expect(menu.get_by_role("link", name=link)).to_be_visible()
    screenshot(page, "mobile-menu-390x844")
    menu.get_by_role("button", name="Hockey").click()
    expect(menu).to_be_hidden()

    page.get_by_role("button", name="Open menu").click()
    page.get_by_role("navigation", name="Mobile").get_by_role("link", name="Nominations").click()
    expect(page.get_by_role("heading", name="All Nominations")).to_be_visible()
    expect(card(page, "Hockey Hana")).to_be_visible()
    screenshot(page, "nominations-hockey-390x844")
