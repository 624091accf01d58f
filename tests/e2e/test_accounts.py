"""Browser tests of the account screens: profile and avatar, settings, and the scout pages.

Every test drives the built SPA against the real server (see conftest.py) and takes screenshots
of what it shows at a desktop and a phone size.
"""

from __future__ import annotations

import re
import struct
import zlib
from typing import Any

import pyotp
import pytest
from playwright.sync_api import FilePayload, Page, expect

from project.accounts.models import User, UserSettings
from tests.builders import PASSWORD, make_user
from tests.e2e.browsing import (
    browser_page,
    nominate,
    nominate_through_server,
    shoot,
    sign_in,
    toast,
)
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def png_bytes(width: int = 8, height: int = 8) -> bytes:
    """A small valid PNG (orange and green diagonal halves), built without an imaging library."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    orange, green = bytes((234, 88, 12)), bytes((21, 128, 61))
    rows = b"".join(
        b"\x00" + b"".join(orange if x > y else green for x in range(width)) for y in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def test_edit_profile_and_see_the_toast(page: Page) -> None:
    user = make_user(username="casey", name="Casey Jones")
    sign_in(page, "casey", to="/profile")

    expect(page.get_by_label("Full Name")).to_have_value("Casey Jones")
    expect(page.get_by_text("@casey")).to_be_visible()
    expect(page.get_by_text("casey@example.com")).to_be_visible()
    shoot(page, "profile")

    page.get_by_label("Full Name").fill("Casey Q. Jones")
    page.get_by_label("Bio").fill("Youth soccer scout for ten years.")
    page.get_by_label("Location").fill("Leeds, UK")
    page.get_by_label("Phone Number").fill("+44 113 496 0000")
    page.get_by_label("Favorite Sport").select_option("tennis")
    page.get_by_role("button", name="Save Changes").click()

    expect(toast(page, "Profile updated successfully")).to_be_visible()
    user.refresh_from_db()
    assert (user.name, user.location, user.favorite_sport) == (
        "Casey Q. Jones",
        "Leeds, UK",
        "tennis",
    )
    # The header's user menu shows the new name once the session user is refreshed.
    page.get_by_role("button", name="Open user menu").click()
    expect(page.get_by_role("menu").get_by_text("Casey Q. Jones")).to_be_visible()
    page.keyboard.press("Escape")

    page.reload()
    expect(page.get_by_label("Bio")).to_have_value("Youth soccer scout for ten years.")


def test_profile_asks_a_visitor_to_log_in(page: Page) -> None:
    page.goto("/profile")
    expect(page.get_by_text("Please log in to view your profile")).to_be_visible()
    shoot(page, "profile-signed-out")


def test_change_password_then_sign_in_with_it(page: Page, browser: Any, e2e_server: Server) -> None:
    make_user(username="pat", name="Pat Lee")
    sign_in(page, "pat", to="/settings")

    expect(page.get_by_label("Username")).to_have_value("pat")
    expect(page.get_by_role("textbox", name="Email", exact=True)).to_have_value("pat@example.com")
    expect(
        page.get_by_text(
            "Username and email cannot be changed. Contact support if you need assistance."
        )
    ).to_be_visible()
    shoot(page, "settings")

    page.get_by_label("Current Password").fill(PASSWORD)
    page.get_by_label("New Password", exact=True).fill("abc")
    page.get_by_label("Confirm New Password").fill("abd")
    page.get_by_role("button", name="Update Password").click()
    expect(page.get_by_text("New passwords do not match")).to_be_visible()
    page.get_by_label("Confirm New Password").fill("abc")
    page.get_by_role("button", name="Update Password").click()
    expect(page.get_by_text("Password must be at least 6 characters")).to_be_visible()

    page.get_by_label("New Password", exact=True).fill("brand-new-pass")
    page.get_by_label("Confirm New Password").fill("brand-new-pass")
    page.get_by_role("button", name="Update Password").click()
    expect(toast(page, "Password Updated")).to_be_visible()
    expect(toast(page, "Your password has been successfully changed.")).to_be_visible()

    # Another browser: the old password no longer signs in, the new one does.
    with browser_page(browser, e2e_server) as elsewhere:
        elsewhere.goto("/login")
        elsewhere.get_by_label("Username").fill("pat")
        elsewhere.get_by_label("Password").fill(PASSWORD)
        elsewhere.get_by_role("button", name="Sign in").click()
        expect(toast(elsewhere, "Login failed")).to_be_visible()

        sign_in(elsewhere, "pat", "brand-new-pass")
        expect(elsewhere.get_by_role("button", name="Open user menu")).to_be_visible()


def test_notification_toggle_is_kept_after_a_reload(page: Page) -> None:
    user = make_user(username="nina", name="Nina Park")
    sign_in(page, "nina", to="/settings")

    vote_toggle = page.get_by_role("switch", name="Vote Notifications")
    expect(vote_toggle).to_have_attribute("aria-checked", "true")
    vote_toggle.click()
    expect(vote_toggle).to_have_attribute("aria-checked", "false")
    expect(toast(page, "Settings Updated")).to_be_visible()
    expect(toast(page, "Your notification preferences have been saved.")).to_be_visible()

    followers_only = page.get_by_role("radio", name=re.compile("Followers"))
    followers_only.click()
    expect(followers_only).to_be_checked()
    expect(toast(page, "Privacy Settings Updated")).to_be_visible()

    page.reload()
    expect(page.get_by_role("switch", name="Vote Notifications")).to_have_attribute(
        "aria-checked", "false"
    )
    expect(page.get_by_role("switch", name="Email Notifications")).to_have_attribute(
        "aria-checked", "true"
    )
    expect(page.get_by_role("radio", name=re.compile("Followers"))).to_be_checked()
    stored = UserSettings.objects.get(user=user)
    assert (stored.vote_notifications, stored.email_notifications) == (False, True)
    assert stored.profile_visibility == "followers"


def test_delete_account_through_the_dialog(page: Page) -> None:
    user = make_user(username="dana", name="Dana Cruz")
    sign_in(page, "dana", to="/settings")

    page.get_by_role("button", name="Delete Account").click()
    dialog = page.get_by_role("dialog", name="Are you absolutely sure?")
    expect(
        dialog.get_by_text(
            "This action cannot be undone. This will permanently delete your account, remove "
            "all your nominations, votes, and profile data from our servers."
        )
    ).to_be_visible()
    shoot(page, "settings-delete-dialog")

    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    assert User.objects.filter(pk=user.pk).exists()

    page.get_by_role("button", name="Delete Account").click()
    page.get_by_role("button", name="Yes, delete my account").click()
    expect(toast(page, "Account Deleted")).to_be_visible()
    expect(toast(page, "Your account has been permanently deleted.")).to_be_visible()
    # Signed out: the home page sends a visitor to sign in.
    expect(page).to_have_url(re.compile(r"/login\?returnTo=%2F$"))
    expect(page.get_by_role("button", name="Open user menu")).to_have_count(0)
    assert not User.objects.filter(pk=user.pk).exists()


def test_avatar_upload_shows_in_the_header(page: Page) -> None:
    user = make_user(username="ava", name="Ava Stone")
    sign_in(page, "ava", to="/profile")
    menu_button = page.get_by_role("button", name="Open user menu")
    expect(menu_button.locator("img")).to_have_count(0)
    expect(menu_button).to_have_text("AS")

    picker = page.locator("#avatar-file")
    not_a_picture: FilePayload = {
        "name": "notes.txt",
        "mimeType": "text/plain",
        "buffer": b"not a picture",
    }
    picker.set_input_files(files=[not_a_picture])
    expect(toast(page, "Please choose an image file (PNG, JPEG, GIF or WebP)")).to_be_visible()

    picture: FilePayload = {"name": "me.png", "mimeType": "image/png", "buffer": png_bytes(64, 64)}
    picker.set_input_files(files=[picture])
    expect(toast(page, "Profile picture updated successfully")).to_be_visible()

    user.refresh_from_db()
    assert user.avatar_url
    header_picture = menu_button.locator("img")
    expect(header_picture).to_have_attribute("src", user.avatar_url)
    page.wait_for_function(
        "img => img.complete && img.naturalWidth === 64", arg=header_picture.element_handle()
    )
    expect(page.get_by_role("img", name="Ava Stone").first).to_be_visible()
    shoot(page, "profile-with-avatar")

    # Other members see it on the scouts directory.
    page.goto("/discover")
    card = page.get_by_role("listitem").filter(has_text="@ava")
    expect(card.get_by_role("img", name="Ava Stone")).to_have_attribute("src", user.avatar_url)


def test_discover_lists_a_scout_whose_page_opens(page: Page) -> None:
    riley = make_user(
        username="riley",
        name="Riley Seeded",
        bio="Scouting quarterbacks across Texas high schools.",
        location="Austin, USA",
        points=120,
    )
    hidden = make_user(username="hidden", name="Hidden Scout")
    UserSettings.objects.filter(user=hidden).update(allow_discoverability=False)
    nominate(
        riley, name="Sam Smith", nationality="USA", club="Austin Tigers", skills="Quick release."
    )
    make_user(username="viewer", name="Val Viewer")
    sign_in(page, "viewer", to="/discover")

    card = page.get_by_role("listitem").filter(has_text="@riley")
    expect(card).to_contain_text("Riley Seeded")
    expect(card).to_contain_text("Scouting quarterbacks across Texas high schools.")
    expect(card).to_contain_text("Austin, USA")
    expect(card).to_contain_text("130 points")  # 120, and 10 for the nomination
    expect(page.get_by_text("@hidden")).to_have_count(0)
    shoot(page, "discover")

    card.get_by_role("link", name=re.compile("View Profile")).click()
    expect(page).to_have_url(re.compile(rf"/scout/{riley.pk}$"))
    expect(page.get_by_role("heading", name="Riley Seeded")).to_be_visible()
    expect(page.get_by_role("heading", name="Recent Nominations (1)")).to_be_visible()
    nomination = page.get_by_role("link", name=re.compile("Sam Smith"))
    expect(nomination).to_contain_text("Quarterback · Football")
    expect(nomination).to_contain_text("pending")
    expect(page.get_by_text("riley@example.com")).to_have_count(0)

    page.get_by_role("button", name="Follow Riley Seeded").click()
    expect(toast(page, "You are now following Riley Seeded.")).to_be_visible()
    expect(page.get_by_role("button", name="Following Riley Seeded")).to_be_visible()
    shoot(page, "scout")

    page.goto("/scout/999999")
    expect(page.get_by_role("heading", name="Scout Not Found")).to_be_visible()


def test_feed_shows_activity_and_the_network(page: Page) -> None:
    riley = make_user(username="rfeed", name="Riley Feed")
    nominate(
        riley,
        name="Jordan Miles",
        age=17,
        position="Wide Receiver",
        nationality="USA",
        club="Dallas Stars",
        skills="Hands.",
    )
    viewer = make_user(username="fviewer", name="Fay Viewer")

    page.goto("/feed")
    expect(page.get_by_role("link", name="Sign in").last).to_have_attribute(
        "href", "/login?returnTo=%2Ffeed"
    )
    shoot(page, "feed-signed-out")

    sign_in(page, "fviewer", to="/feed")
    item = page.get_by_role("list", name="Activity").get_by_role("listitem").first
    expect(item).to_contain_text(f"Scout #{riley.pk} nominated Jordan Miles")
    expect(item).to_contain_text("less than a minute ago")
    expect(item.get_by_role("link", name=re.compile("View nomination"))).to_have_attribute(
        "href", re.compile(r"/nominations/\d+$")
    )
    network = page.get_by_role("complementary", name="Your network")
    expect(network.get_by_text("Your Network")).to_be_visible()
    expect(network.get_by_role("link", name=re.compile("Riley Feed"))).to_be_visible()
    expect(network.get_by_role("link", name=re.compile(viewer.name))).to_have_count(0)
    shoot(page, "feed")

    page.get_by_role("button", name="Following", exact=True).click()
    expect(page.get_by_text("Nothing from your network yet")).to_be_visible()


def nominate_back(user: User, name: str, *, through: Server | None = None) -> None:
    """A running back nominated by ``user``: through the server when open pages must see it."""
    fields: dict[str, Any] = {
        "position": "Running Back",
        "nationality": "USA",
        "club": f"{name} Academy",
        "skills": "Speed.",
    }
    if through is None:
        nominate(user, name=name, **fields)
    else:
        nominate_through_server(through, user, name=name, **fields)


def test_feed_takes_in_live_activity(page: Page, e2e_server: Server) -> None:
    author = make_user(username="lauthor", name="Lee Live")
    for number in range(10):
        nominate_back(author, f"Earlier Player {number}")
    make_user(username="lviewer", name="Lou Viewer")
    sign_in(page, "lviewer", to="/feed")
    activity = page.get_by_role("list", name="Activity").get_by_role("listitem")
    expect(activity).to_have_count(10)
    expect(page.get_by_role("status", name="Live updates: live")).to_be_attached()

    # At the top of the feed, new activity goes straight in.
    nominate_back(author, "Fresh Prospect", through=e2e_server)
    expect(activity.first).to_contain_text("nominated Fresh Prospect")

    # Scrolled down, it waits behind a pill so the list does not move.
    page.mouse.wheel(0, 600)
    page.wait_for_function("() => window.scrollY > 200")
    nominate_back(author, "Later Prospect", through=e2e_server)
    pill = page.get_by_role("button", name="1 new")
    expect(pill).to_be_visible()
    expect(activity.first).to_contain_text("nominated Fresh Prospect")
    pill.click()
    expect(activity.first).to_contain_text("nominated Later Prospect")
    page.wait_for_function("() => window.scrollY < 50")


def test_two_factor_sign_in_from_enrolment_to_a_code_at_sign_in(
    page: Page, browser: Any, e2e_server: Server
) -> None:
    make_user(username="robin", name="Robin Vale")
    sign_in(page, "robin", to="/settings")
    section = page.get_by_role("region", name="Two-Factor Sign-In")
    section.get_by_role("button", name="Set up two-factor sign-in").click()
    expect(section.get_by_role("img", name="QR code for your authenticator app")).to_be_visible()
    secret = section.locator("code").inner_text()
    totp = pyotp.TOTP(secret)
    section.get_by_label("Code from the app").fill("000000")
    section.get_by_role("button", name="Turn on").click()
    expect(section.get_by_text("That code is not valid.", exact=False)).to_be_visible()
    section.get_by_label("Code from the app").fill(totp.now())
    section.get_by_role("button", name="Turn on").click()
    codes = section.get_by_role("list", name="Recovery codes").get_by_role("listitem")
    expect(codes).to_have_count(10)
    recovery = codes.first.inner_text()
    shoot(page, "settings-two-factor-codes")
    section.get_by_role("button", name="I saved them").click()
    expect(section.get_by_text("10 recovery codes left")).to_be_visible()
    assert UserSettings.objects.get(user__username="robin").two_factor_enabled

    with browser_page(browser, e2e_server) as elsewhere:
        elsewhere.goto("/login?returnTo=/profile")
        elsewhere.get_by_label("Username").fill("robin")
        elsewhere.get_by_label("Password").fill(PASSWORD)
        elsewhere.get_by_role("button", name="Sign in").click()
        code = elsewhere.get_by_label("Authentication code")
        expect(code).to_be_focused()
        code.fill(recovery)
        elsewhere.get_by_role("button", name="Sign in").click()
        expect(elsewhere).to_have_url(re.compile(r"/profile$"))
        expect(elsewhere.get_by_role("button", name="Open user menu")).to_be_visible()
