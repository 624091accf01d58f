"""Browser test of the one question an account from before years of birth were asked answers
after signing in: the step stands before every page until answered, starts with no year
selected, and once answered is not asked again.

Drives the built SPA against the real server (see conftest.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from project.accounts.models import ProfileVisibility, User, UserSettings
from tests.builders import make_user
from tests.e2e.browsing import shoot, sign_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_older_account_is_asked_its_year_of_birth_once_after_signing_in(page: Page) -> None:
    member = make_user(username="olderacct", name="Older Account", birth_year=None)
    sign_in(page, "olderacct")
    step = page.get_by_role("heading", name="One question before you go on")
    expect(step).to_be_visible()
    # The page the member was going to waits behind the question.
    expect(page.get_by_role("heading", name="Recent Nominations")).to_have_count(0)
    year = page.get_by_label("Year of birth")
    expect(year).to_have_value("")
    shoot(page, "birth-year-step")

    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_text("Year of birth is required")).to_be_visible()

    year.select_option("2011")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("heading", name="Recent Nominations")).to_be_visible()
    member.refresh_from_db()
    assert member.birth_year == 2011
    # A teen account: followers only and not discoverable.
    member_settings = UserSettings.objects.get(user=member)
    assert member_settings.profile_visibility == ProfileVisibility.FOLLOWERS
    assert member_settings.allow_discoverability is False

    # Asked once: a new visit goes straight to the page.
    page.reload()
    expect(page.get_by_role("heading", name="Recent Nominations")).to_be_visible()
    expect(step).to_have_count(0)


def test_an_older_account_under_13_is_closed_and_can_delete_itself(page: Page) -> None:
    member = make_user(username="youngacct", name="Young Account", birth_year=None)
    sign_in(page, "youngacct")
    page.get_by_label("Year of birth").select_option("2016")
    page.get_by_role("button", name="Continue").click()
    expect(page.get_by_role("alert")).to_have_text(
        "ScoutVote accounts are for people aged 13 and over."
    )
    assert User.objects.get(pk=member.pk).is_active is False
    page.get_by_role("button", name="Delete my account and its data").click()
    expect(page.get_by_text("Your account and everything it held are deleted.")).to_be_visible()
    assert not User.objects.filter(pk=member.pk).exists()
    page.get_by_role("main").get_by_role("button", name="Close").click()
    expect(page).to_have_url(re.compile(r"/login"))
