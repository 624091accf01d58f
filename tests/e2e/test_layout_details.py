"""Browser tests of layout details: the unread count sits beside the bell without covering
it, Player of the Week is no wider than the board above it, and the takedown confirmation
shows whole below the header on a phone.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, FloatRect, Locator, expect

from project.accounts.models import Role
from project.moderation.services import decisions as moderation
from project.ops.management.commands.seed_demo import WORLD_NAMES
from tests.builders import make_user
from tests.e2e.browsing import (
    DESKTOP,
    PHONE,
    SCREENSHOT_DIR,
    log_in,
    new_page,
    nominate,
    resize,
    screenshot,
)
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None, locator
    return {key: float(found[key]) for key in ("x", "y", "width", "height")}


def overlap(first: dict[str, float], second: dict[str, float]) -> bool:
    return (
        first["x"] < second["x"] + second["width"]
        and second["x"] < first["x"] + first["width"]
        and first["y"] < second["y"] + second["height"]
        and second["y"] < first["y"] + first["height"]
    )


def glyph_box(bell: Locator) -> dict[str, float]:
    """The bell's drawn glyph: the bounding box of its strokes, not of the svg's square."""
    found: dict[str, float] = bell.locator("svg").evaluate(
        """(svg) => {
          const inner = svg.getBBox();  // in the viewBox's units
          const outer = svg.getBoundingClientRect();
          const scale = outer.width / svg.viewBox.baseVal.width;
          const stroke = 1;  // half of lucide's stroke width of 2
          return {
            x: outer.x + (inner.x - stroke) * scale,
            y: outer.y + (inner.y - stroke) * scale,
            width: (inner.width + 2 * stroke) * scale,
            height: (inner.height + 2 * stroke) * scale,
          };
        }"""
    )
    return found


def test_the_unread_count_leaves_the_bell_whole(e2e_server: Server, browser: Browser) -> None:
    admin = make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    nell = make_user(username="nell", name="Nell Nominator")
    for name in ("Bell One", "Bell Two", "Bell Three"):
        nomination = nominate(nell, name=name)
        moderation.nomination_approve(admin=admin, nomination_id=nomination.pk)

    page = new_page(browser, e2e_server)
    log_in(page, "nell")
    bell = page.get_by_role("button", name="Notifications, 3 unread")
    for viewport in (DESKTOP, PHONE):
        resize(page, viewport)
        expect(bell).to_be_visible()
        count = bell.get_by_test_id("unread-count")
        assert not overlap(box(count), glyph_box(bell)), viewport
        # Still beside the bell: it touches the bell's button.
        assert overlap(box(count), box(bell)), viewport
        around = box(bell)
        clip: FloatRect = {
            "x": around["x"] - 16,
            "y": 0,
            "width": around["width"] + 32,
            "height": around["y"] + around["height"] + 16,
        }
        page.screenshot(path=str(SCREENSHOT_DIR / f"bell-{viewport['width']}.png"), clip=clip)


def test_player_of_the_week_is_as_wide_as_the_board(e2e_server: Server, browser: Browser) -> None:
    nominate(make_user(username="nora", name="Nora Nominator"), name="Board Bea")
    make_user(username="lee", name="Lee Leader")
    page = new_page(browser, e2e_server)
    log_in(page, "lee", to="/results")
    board = page.get_by_role("list", name="Top Players")
    week = page.get_by_role("region", name="Player of the Week")
    expect(board).to_be_visible()
    expect(week).to_be_visible()
    board_box, week_box = box(board), box(week)
    assert week_box["x"] >= board_box["x"] - 1
    assert week_box["x"] + week_box["width"] <= board_box["x"] + board_box["width"] + 1
    screenshot(page, "results-player-of-the-week-1280x800")


def test_the_takedown_confirmation_shows_whole_on_a_phone(
    e2e_server: Server, browser: Browser
) -> None:
    child = nominate(make_user(username="nora", name="Nora Nominator"), name="Tia Takedown")
    page = new_page(browser, e2e_server, PHONE)  # no account
    page.goto(f"/takedown?nomination={child.pk}")
    page.get_by_label("I am a parent or guardian of the athlete").check()
    page.get_by_label("Your email address").fill("parent@example.com")
    page.get_by_label(re.compile("What should change")).fill("She is 12. Please remove it.")
    send = page.get_by_role("button", name="Send request")
    send.scroll_into_view_if_needed()
    send.click()
    received = page.get_by_role("status").filter(has_text="Confirm your request from your email")
    expect(received).to_be_visible()
    expect(received).to_be_focused()
    header = box(page.locator("header").first)
    shown = box(received)
    assert shown["y"] >= header["y"] + header["height"], (shown, header)
    assert shown["y"] + shown["height"] <= PHONE["height"], shown
    page.screenshot(path=str(SCREENSHOT_DIR / "takedown-received-390x844.png"))


# Every width where the profile's layout changes, and the ones between.
PROFILE_WIDTHS = [PHONE["width"], 639, 640, 768, 900, 1024, 1280, 1440, 1920]


def test_a_long_player_name_stays_below_the_profile_band(
    e2e_server: Server, browser: Browser
) -> None:
    """The seed's long names (42 and 113 characters among them) on a nomination's page, at every
    width: the name's text starts below the gradient band, where it reads dark on light."""
    nominator = make_user(username="nora", name="Nora Nominator")
    ids = [nominate(nominator, name=name).pk for name in WORLD_NAMES]
    make_user(username="lee", name="Lee Leader")
    page = new_page(browser, e2e_server)
    log_in(page, "lee")
    problems: list[str] = []
    for nomination_id, name in zip(ids, WORLD_NAMES, strict=True):
        page.goto(f"/nominations/{nomination_id}")
        heading = page.get_by_role("heading", level=1, name=name)
        expect(heading).to_be_visible()
        for width in PROFILE_WIDTHS:
            resize(page, {"width": width, "height": 900})
            band = box(page.get_by_test_id("profile-band"))
            top = box(heading)["y"]
            band_bottom = band["y"] + band["height"]
            if top < band_bottom:
                problems.append(f"{len(name)} characters at {width} px: {band_bottom - top:.0f} px")
    resize(page, DESKTOP)
    page.goto(f"/nominations/{ids[2]}")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    screenshot(page, "nomination-long-name-1280x800")
    assert not problems, "the name climbs into the band:\n" + "\n".join(problems)
