"""Player updates in the browser: the claimant posts, a follower's open page shows it live; a
video shows through its privacy-enhanced embed and asks its host for nothing before the click;
the Updates section and the admins' Player updates tab are axe clean on a phone and a desktop."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Request, Route, ViewportSize, expect

from project.accounts.models import Role, User
from project.privacy.models import PlayerControls
from project.scouting.models import Nomination, Player
from project.updates.services import update_approve, update_create
from tests.builders import follow, make_coach, make_user
from tests.e2e.browsing import (
    DESKTOP,
    PHONE,
    TIMEOUT_MS,
    live,
    log_in,
    new_page,
    nominate,
    screenshot,
    toast,
)
from tests.e2e.conftest import Server
from tests.e2e.test_a11y import axe_problems, overflow, settle

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def claimed(nomination: Nomination, claimant: User) -> None:
    Player.objects.filter(pk=nomination.player_id).update(claimed_by=claimant)
    PlayerControls.objects.create(
        player_id=nomination.player_id, relationship="parent_or_guardian", birth_year=2011
    )


def published_video(nomination: Nomination, *, author: User, admin: User) -> None:
    update = update_create(
        user=author,
        player_id=nomination.player_id,
        title="Hat-trick in the cup final",
        content="Highlights from Saturday.",
        video_url="https://www.youtube.com/watch?v=dQw4w9WgXcQ",
        image_url=None,
        milestone=True,
    )
    update_approve(admin=admin, update_id=update.pk)


def test_the_claimant_posts_an_update_and_a_followers_open_page_shows_it_live(
    e2e_server: Server, browser: Browser
) -> None:
    parent = make_user(username="rita", name="Rita Jones")
    fan = make_user(username="tom", name="Tom Follower")
    nomination = nominate(make_user(username="nina"), name="Mia Jones", age=15)
    claimed(nomination, parent)
    follow(fan, player=nomination.player)
    path = f"/nominations/{nomination.pk}"

    follower = new_page(browser, e2e_server)
    log_in(follower, "tom", to=path)
    updates = follower.get_by_role("region", name="Updates")
    expect(updates.get_by_text("No updates yet.")).to_be_visible()
    expect(updates.get_by_role("button", name="Post an update")).to_have_count(0)
    provenance = follower.get_by_test_id("provenance")
    expect(provenance).to_contain_text("Confirmed by the family")
    expect(provenance).not_to_contain_text("Latest update")
    live(follower)

    family = new_page(browser, e2e_server, PHONE)
    log_in(family, "rita", to=path)
    family.get_by_role("button", name="Post an update").click()
    form = family.get_by_role("form", name="New update")
    form.get_by_label("Title").fill("Called up to the regional team")
    form.get_by_label("Text").fill("Her first call-up, for the spring camp.")
    form.get_by_label("Mark as a milestone").check()
    form.get_by_role("button", name="Post update").click()
    expect(toast(family, "Update posted")).to_be_visible()

    # The follower's open page shows it without a reload, marked as a milestone.
    item = updates.get_by_role("listitem", name="Called up to the regional team")
    expect(item).to_be_visible()
    expect(item.get_by_text("Milestone")).to_be_visible()
    expect(item.get_by_text("by Rita Jones, the athlete's family")).to_be_visible()
    # The page's provenance dates its news.
    expect(provenance).to_contain_text("Latest update")
    expect(item.get_by_role("button", name=re.compile("Delete"))).to_have_count(0)
    # ... and their bell tells them.
    expect(follower.get_by_role("button", name="Notifications, 1 unread")).to_be_visible()


def test_a_video_asks_its_host_for_nothing_before_the_click(
    e2e_server: Server, browser: Browser
) -> None:
    coach = make_coach(username="carla", name="Carla Coach")
    admin = make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    make_user(username="tom", name="Tom Member")
    nomination = nominate(make_user(username="nina"), name="Mia Jones", age=15)
    published_video(nomination, author=coach, admin=admin)

    page = new_page(browser, e2e_server)
    outside: list[str] = []

    def record(request: Request) -> None:
        if urlsplit(request.url).hostname not in ("127.0.0.1", "localhost"):
            outside.append(request.url)

    def refuse(route: Route) -> None:  # nothing leaves the machine; the attempt is counted
        route.abort()

    page.on("request", record)
    page.context.route(re.compile(r"^https?://(?!127\.0\.0\.1|localhost)"), refuse)
    log_in(page, "tom", to=f"/nominations/{nomination.pk}")
    item = page.get_by_role("listitem", name="Hat-trick in the cup final")
    expect(item).to_be_visible()
    item.scroll_into_view_if_needed()
    page.wait_for_load_state("networkidle")

    assert outside == [], outside
    expect(item.locator("iframe")).to_have_count(0)

    with page.expect_request(lambda request: "youtube" in request.url) as first:
        item.get_by_role("button", name="Play video: Hat-trick in the cup final").click()

    assert first.value.url.startswith("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ")
    frame = item.locator("iframe")
    expect(frame).to_have_attribute("src", "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ")
    assert {urlsplit(url).hostname for url in outside} == {"www.youtube-nocookie.com"}, outside


@pytest.mark.parametrize(
    ("viewport", "label"), [(PHONE, "390"), (DESKTOP, "1280")], ids=["phone", "desktop"]
)
def test_the_updates_section_and_the_admin_tab_are_axe_clean(
    e2e_server: Server, browser: Browser, viewport: ViewportSize, label: str
) -> None:
    coach = make_coach(username="carla", name="Carla Coach")
    make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    nomination = nominate(make_user(username="nina"), name="Mia Jones", age=15)
    claimed(nomination, make_user(username="rita", name="Rita Jones"))
    admin_user = User.objects.get(username="ada")
    published_video(nomination, author=coach, admin=admin_user)
    update_create(
        user=coach,
        player_id=nomination.player_id,
        title="Training clip",
        content="",
        video_url="https://vimeo.com/76979871",
        image_url=None,
        milestone=False,
    )
    problems: list[str] = []

    context = browser.new_context(
        viewport=viewport, base_url=e2e_server.url, reduced_motion="reduce", bypass_csp=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    context.route(re.compile(r"^https?://(?!127\.0\.0\.1|localhost)"), lambda route: route.abort())
    page = context.new_page()

    log_in(page, "carla", to=f"/nominations/{nomination.pk}")
    settle(page, f"coach {label}")
    expect(page.get_by_role("listitem", name="Training clip")).to_be_visible()
    page.get_by_role("button", name="Post an update").click()
    problems += axe_problems(page, f"coach {label} / player page with the form")
    problems += overflow(page, f"coach {label} / player page")
    screenshot(page, f"player-updates-{label}")

    page.context.clear_cookies()
    log_in(page, "ada", to="/admin/dashboard?tab=updates")
    tab = page.get_by_role("tab", name=re.compile(r"^Player updates"))
    expect(tab).to_have_text("Player updates (1)")
    expect(page.get_by_role("listitem", name="Update on Mia Jones: Training clip")).to_be_visible()
    problems += axe_problems(page, f"admin {label} / Player updates tab")
    problems += overflow(page, f"admin {label} / Player updates tab")
    screenshot(page, f"admin-player-updates-{label}")
    context.close()

    assert problems == [], "\n".join(problems)


def test_an_admin_publishes_a_waiting_video_and_an_open_page_shows_it(
    e2e_server: Server, browser: Browser
) -> None:
    coach = make_coach(username="carla", name="Carla Coach")
    make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    make_user(username="tom", name="Tom Member")
    nomination = nominate(make_user(username="nina"), name="Mia Jones", age=15)
    update_create(
        user=coach,
        player_id=nomination.player_id,
        title="Training clip",
        content="",
        video_url="https://vimeo.com/76979871",
        image_url=None,
        milestone=False,
    )

    member = new_page(browser, e2e_server)
    log_in(member, "tom", to=f"/nominations/{nomination.pk}")
    updates = member.get_by_role("region", name="Updates")
    expect(updates.get_by_text("No updates yet.")).to_be_visible()
    live(member)

    admin = new_page(browser, e2e_server)
    log_in(admin, "ada", to="/admin/dashboard?tab=updates")
    row = admin.get_by_role("listitem", name="Update on Mia Jones: Training clip")
    row.get_by_role("button", name="Publish update").click()
    expect(row).to_have_count(0)

    expect(updates.get_by_role("listitem", name="Training clip")).to_be_visible()
