"""A verified coach endorses a player and a follower's open page shows it live, with the
page's provenance; axe-core finds nothing serious on the page at phone and desktop sizes.
Two browsers, each with its own session, against the real server and the built SPA."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from project.accounts.models import Role
from project.coaches.services import verification_approve, verification_create
from project.moderation.services import decisions as moderation
from tests.builders import follow, make_user
from tests.e2e.browsing import DESKTOP, PHONE, TIMEOUT_MS, live, log_in, nominate, resize, toast
from tests.e2e.conftest import Server
from tests.e2e.test_a11y import axe_problems

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TEXT = "Reads the game two passes ahead; the best U13 playmaker I coached against."


def page_for_axe(browser: Browser, server: Server, viewport: ViewportSize = DESKTOP) -> Page:
    """A page of its own session; axe-core goes in as a script tag, which the CSP refuses."""
    context = browser.new_context(
        viewport=viewport, base_url=server.url, reduced_motion="reduce", bypass_csp=True
    )
    context.set_default_timeout(TIMEOUT_MS)
    return context.new_page()


def test_a_coach_endorses_and_a_followers_open_page_shows_it_live(
    e2e_server: Server, browser: Browser
) -> None:
    admin = make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    coach = make_user(username="carla", name="Carla Coach")
    request = verification_create(
        user=coach,
        organization="Lisbon Juniors FC",
        role_title="Head coach, U13",
        evidence_url="https://lisbonjuniors.example/staff",
        work_email="",
    )
    verification_approve(admin=admin, verification_id=request.pk)
    fan = make_user(username="fran", name="Fran Follower")
    nomination = nominate(make_user(username="nina"), name="Mia Jones", age=11)
    moderation.nomination_approve(admin=admin, nomination_id=nomination.pk)
    follow(fan, player=nomination.player)
    path = f"/nominations/{nomination.pk}"

    follower = page_for_axe(browser, e2e_server)
    log_in(follower, "fran", to=path)
    expect(follower.get_by_role("heading", name="Mia Jones")).to_be_visible()
    live(follower)
    section = follower.get_by_role("region", name="Endorsements")
    expect(section.get_by_text("No verified coach has endorsed this player yet.")).to_be_visible()
    expect(follower.get_by_test_id("provenance")).to_contain_text("Nominated by @nina")

    writer = page_for_axe(browser, e2e_server)
    log_in(writer, "carla", to=path)
    form = writer.get_by_role("form", name="Endorse this player")
    form.get_by_label("Endorse as a verified coach").fill(TEXT)
    form.get_by_label("Rating (seen by coaches, the family and admins)").select_option("5")
    form.get_by_role("button", name="Endorse").click()
    expect(toast(writer, "Endorsement saved")).to_be_visible()
    # The coach sees their rating; the form now edits their endorsement.
    expect(writer.get_by_text("Rated 5 of 5")).to_have_count(1)
    expect(writer.get_by_role("form", name="Edit your endorsement")).to_be_visible()

    # The follower's open page shows it without a reload: the text and the coach, no rating.
    item = follower.get_by_role("listitem", name="Endorsement by Carla Coach")
    expect(item).to_be_visible()
    expect(item.get_by_text(TEXT)).to_be_visible()
    expect(item.get_by_test_id("coach-badge")).to_have_text("Verified coach")
    expect(item.get_by_text("Head coach, U13 · Lisbon Juniors FC")).to_be_visible()
    expect(follower.get_by_text("Rated 5 of 5")).to_have_count(0)
    expect(section.get_by_role("heading", name="Endorsements (1)")).to_be_visible()
    expect(follower.get_by_test_id("provenance")).to_contain_text("Endorsed by 1 verified coach")
    # The follower was told (the bell, live), and no form is offered to a member who is no
    # coach.
    expect(follower.get_by_label("Notifications, 1 unread")).to_be_visible()
    expect(follower.get_by_role("form", name="Endorse this player")).to_have_count(0)

    problems: list[str] = []
    for page, who in ((follower, "follower"), (writer, "coach")):
        for viewport, size in ((DESKTOP, "1280"), (PHONE, "390")):
            resize(page, viewport)
            expect(page.get_by_role("listitem", name="Endorsement by Carla Coach")).to_be_visible()
            problems += axe_problems(page, f"{who} {size} {path}")
    assert problems == []
