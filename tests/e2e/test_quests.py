"""An adult member's quest moves live: they vote in one tab, the dashboard open in another
shows the progress without a reload; a teen's dashboard shows no quests at all."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from project.engagement.models import EngagementSettings
from tests.builders import make_user
from tests.e2e.browsing import card, live, log_in, new_page, nominate
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_quest_moves_live_when_the_member_votes_in_another_tab(
    e2e_server: Server, browser: Browser
) -> None:
    adult = make_user(username="ada", name="Ada Adult", birth_year=1990)
    EngagementSettings.objects.create(user=adult, quests=True)
    nominate(make_user(username="nina"), name="Quinn Archer")

    dashboard = new_page(browser, e2e_server)
    log_in(dashboard, "ada", to="/")
    live(dashboard)
    daily = dashboard.get_by_role("progressbar", name="Vote where it is needed: 0 of 1")
    expect(daily).to_be_visible()

    voting = dashboard.context.new_page()
    voting.goto(f"{e2e_server.url}/nominations")
    card(voting, "Quinn Archer").get_by_role("button", name="VOTE", exact=True).click()
    expect(card(voting, "Quinn Archer").get_by_role("button", name="VOTED")).to_be_visible()

    # The first tab, untouched: the quest completed live.
    expect(
        dashboard.get_by_role("progressbar", name="Vote where it is needed: 1 of 1")
    ).to_be_visible()
    expect(
        dashboard.get_by_role("progressbar", name="Ten nominations this week: 1 of 10")
    ).to_be_visible()


def test_a_teen_sees_no_quests(e2e_server: Server, browser: Browser) -> None:
    make_user(username="tess", name="Tess Teen", birth_year=timezone.localdate().year - 15)
    page = new_page(browser, e2e_server)
    log_in(page, "tess", to="/")
    expect(page.get_by_role("region", name="Statistics")).to_be_visible()
    expect(page.get_by_role("heading", name="Quests")).to_have_count(0)
    page.goto(f"{e2e_server.url}/settings")
    expect(page.get_by_role("heading", name="Settings")).to_be_visible()
    expect(page.get_by_role("heading", name="Quests, streak and invitations")).to_have_count(0)
