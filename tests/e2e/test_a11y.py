"""Browser tests of accessibility and the phone layout: axe-core finds no serious or critical
violation on any route (signed out, as a scout, as an admin on each dashboard tab, with a
dialog open, at the phone size), and no page is wider than a 390 px screen.

axe-core is the npm package the SPA installs as a devDependency; it is injected into each page
as a script, so nothing is downloaded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from project.accounts.models import Role, User
from project.moderation.services import decisions as moderation
from project.scouting.models import Player
from project.scouting.services import follows
from project.scouting.services.votes import vote_cast
from tests.builders import aged_user, make_user
from tests.e2e.browsing import DESKTOP, PHONE, ROOT, TIMEOUT_MS, log_in, nominate
from tests.e2e.conftest import Server
from tests.integrity.helpers import vote as integrity_vote

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = ROOT / "frontend" / "node_modules" / "axe-core" / "axe.min.js"
# Moderate in axe-core's grading, held to the same bar: the headings are how a screen reader
# user skims a page.
ALSO_CHECKED = ["heading-order", "page-has-heading-one", "landmark-one-main"]
SIGNED_OUT_ROUTES = [
    "/login",
    "/register",
    "/feed",
    "/profile",
    "/about",
    "/how-it-works",
    "/help",
    "/contact",
    "/privacy",
    "/terms",
    "/sports",
    "/no-such-page",
]


@dataclass
class World:
    scout: User
    admin: User
    other: User
    nomination_id: int
    club_id: int


@pytest.fixture
def world() -> World:
    """A scout who nominated and follows, another scout, an admin, approved nominations with
    tied vote counts (so ranks read 1, 2, 2, 4) and one pending nomination."""
    scout = make_user(username="alex", name="Alex Brown")
    other = make_user(username="casey", name="Casey Dunn")
    admin = make_user(username="root", name="Robin Admin", role=Role.ADMIN)
    ids = []
    for name, votes in [("Ana Lopes", 3), ("Ben Okafor", 2), ("Cai Wen", 2), ("Dev Patel", 1)]:
        nomination = nominate(other, name=name)
        moderation.nomination_approve(admin=admin, nomination_id=nomination.pk)
        for _ in range(votes):
            vote_cast(user=make_user(), nomination_id=nomination.pk)
        ids.append(nomination.pk)
    vote_cast(user=scout, nomination_id=ids[1])
    nominate(scout, name="Eli Moss", age=None, graduation_year=2027)
    follows.follow_user_create(user=scout, target_id=other.pk)
    club_id = Player.objects.get(nominations__pk=ids[0]).club_ref_id
    assert club_id is not None
    return World(scout=scout, admin=admin, other=other, nomination_id=ids[0], club_id=club_id)


def scout_routes(world: World) -> list[str]:
    return [
        "/",
        "/nominations",
        "/nominations/needing-votes",
        f"/nominations/{world.nomination_id}",
        "/vote",
        "/results",
        "/feed",
        "/discover",
        f"/scout/{world.other.pk}",
        f"/clubs/{world.club_id}",
        "/profile",
        "/settings",
        "/about",
        "/how-it-works",
        "/help",
        "/contact",
        "/privacy",
        "/terms",
        "/sports",
        "/no-such-page",
        "/wall",
    ]


@pytest.fixture
def pages(e2e_server: Server, browser: Browser) -> Iterator[Any]:
    """Pages of their own (reduced motion: no animation is caught half-way), all closed after
    the test."""
    opened: list[Page] = []

    def open_page(viewport: ViewportSize = DESKTOP) -> Page:
        context = browser.new_context(
            viewport=viewport,
            base_url=e2e_server.url,
            reduced_motion="reduce",
            bypass_csp=True,  # axe-core goes in as a script tag; the CSP allows only 'self'
        )
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        opened.append(page)
        return page

    yield open_page
    for page in opened:
        page.context.close()


def settle(page: Page, where: str = "") -> None:
    """Waits until the page has loaded what it shows: no request on the way, its one h1 there."""
    page.wait_for_load_state("networkidle")
    expect(page.locator("h1"), f"{where}: one h1").to_have_count(1)
    expect(page.locator("h1"), f"{where}: its h1 shows").to_be_visible()
    expect(page.locator("[aria-busy=true]")).to_have_count(0)


def axe_problems(page: Page, where: str) -> list[str]:
    """The serious and critical axe-core violations on the page as it is now, one line each."""
    if not page.evaluate("() => 'axe' in window"):
        page.add_script_tag(path=str(AXE))
    violations = page.evaluate(
        """async (alsoChecked) => {
          const result = await window.axe.run(document, { resultTypes: ['violations'] });
          return result.violations
            .filter((v) => ['serious', 'critical'].includes(v.impact) || alsoChecked.includes(v.id))
            .map((v) => ({
              id: v.id,
              impact: v.impact,
              help: v.help,
              targets: v.nodes.slice(0, 4).map((n) => n.target.join(' ') + ' ' +
                n.html.slice(0, 120) + ' ' +
                (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 160)),
            }));
        }""",
        ALSO_CHECKED,
    )
    return [
        f"{where}: {v['impact']} {v['id']} ({v['help']}): " + " | ".join(v["targets"])
        for v in violations
    ]


def overflow(page: Page, where: str) -> list[str]:
    widths = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    if widths[0] <= widths[1]:
        return []
    wide = page.evaluate(
        """() => [...document.querySelectorAll('body *')]
          .filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth)
          .slice(0, 3)
          .map((el) => el.tagName.toLowerCase() + '.' + [...el.classList].slice(0, 4).join('.'))"""
    )
    return [f"{where}: {widths[0]} px wide in {widths[1]} px ({', '.join(wide)})"]


def sweep(page: Page, routes: list[str], label: str, *, phone: bool = False) -> list[str]:
    problems: list[str] = []
    for route in routes:
        page.goto(route)
        where = f"{label} {route}"
        settle(page, where)
        problems += axe_problems(page, where)
        if phone:
            problems += overflow(page, where)
    return problems


def test_no_serious_axe_violation_signed_out(pages: Any) -> None:
    problems = sweep(pages(), SIGNED_OUT_ROUTES, "signed out")
    problems += sweep(pages(PHONE), SIGNED_OUT_ROUTES, "signed out 390x844", phone=True)
    assert not problems, "\n".join(problems)


def test_no_serious_axe_violation_as_a_scout(pages: Any, world: World) -> None:
    page = pages()
    log_in(page, "alex")
    problems = sweep(page, scout_routes(world), "scout")

    # With a dialog open, and with the user menu open.
    page.goto("/")
    settle(page)
    page.get_by_role("button", name="Nominate Player").click()
    expect(page.get_by_role("dialog", name="Athlete Nomination")).to_be_visible()
    problems += axe_problems(page, "scout / nominate dialog")
    page.keyboard.press("Escape")
    page.get_by_role("button", name=re.compile("Open user menu")).click()
    expect(page.get_by_role("menu")).to_be_visible()
    problems += axe_problems(page, "scout / user menu")
    page.keyboard.press("Escape")
    problems += header_menus_problems(page, "scout", (SPORT_MENU, NOTIFICATIONS))
    assert not problems, "\n".join(problems)


SPORT_MENU = (re.compile(r"^Sport: .*Change sport$"), "sport menu")
NOTIFICATIONS = (re.compile(r"^Notifications"), "notifications")


def header_menus_problems(
    page: Page, label: str, menus: tuple[tuple[re.Pattern[str], str], ...]
) -> list[str]:
    """axe with each of the header's menus open: a menu leaves the page behind it readable (a
    modal one hides it with aria-hidden while its links stay focusable)."""
    problems: list[str] = []
    for name, where in menus:
        page.get_by_role("banner").get_by_role("button", name=name).click()
        expect(page.get_by_role("menu")).to_be_visible()
        problems += axe_problems(page, f"{label} / {where}")
        page.keyboard.press("Escape")
        expect(page.get_by_role("menu")).to_have_count(0)
    return problems


def test_no_serious_axe_violation_or_overflow_on_a_phone(pages: Any, world: World) -> None:
    page = pages(PHONE)
    log_in(page, "alex")
    problems = sweep(page, scout_routes(world), "scout 390x844", phone=True)
    page.goto("/")
    settle(page)
    page.get_by_role("button", name="Open menu").click()
    problems += axe_problems(page, "scout 390x844 / mobile menu")
    problems += overflow(page, "scout 390x844 / mobile menu")
    assert not problems, "\n".join(problems)


def test_no_serious_axe_violation_as_an_admin(pages: Any, world: World) -> None:
    problems: list[str] = []
    for viewport, label in [(DESKTOP, "admin"), (PHONE, "admin 390x844")]:
        page = pages(viewport)
        log_in(page, "root", to="/admin/dashboard")
        settle(page)
        tabs = page.get_by_role("tablist", name="Moderation").get_by_role("tab")
        expect(tabs.first).to_be_visible()
        for index in range(tabs.count()):  # every tab, the ones added later included
            tab = tabs.nth(index)
            name = tab.inner_text()
            tab.click()
            page.wait_for_load_state("networkidle")
            expect(page.locator("[aria-busy=true]")).to_have_count(0)
            problems += axe_problems(page, f"{label} dashboard / {name}")
            if viewport == PHONE:
                problems += overflow(page, f"{label} dashboard / {name}")
        page.get_by_role("tab", name=re.compile(r"^Pending")).click()
        page.get_by_role("tabpanel").get_by_role("button", name="Reject", exact=True).click()
        expect(page.get_by_role("dialog")).to_be_visible()
        problems += axe_problems(page, f"{label} dashboard / reject dialog")
    assert not problems, "\n".join(problems)


def test_no_serious_axe_violation_on_the_integrity_tab_with_its_voters_and_dialog(
    pages: Any, world: World
) -> None:
    """A flagged ring: the tab with a flag's voters open, then its Void dialog open; and the
    admin header's menus."""
    nomination = nominate(aged_user(), name="Rory Ringed")
    for number in range(1, 6):  # five accounts of one network: a flag
        integrity_vote(aged_user(), nomination, f"203.0.113.{number}")
    page = pages()
    log_in(page, "root", to="/admin/dashboard?tab=integrity")
    flag = page.get_by_role("list", name="Integrity flags").get_by_role("listitem")
    expect(flag).to_contain_text("One network, many accounts")
    flag.get_by_text("Voters", exact=True).click()
    expect(flag.get_by_role("table")).to_be_visible()
    expect(flag.get_by_role("row")).to_have_count(6)
    problems = axe_problems(page, "admin dashboard / integrity voters")
    flag.get_by_role("button", name="Void votes").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    problems += axe_problems(page, "admin dashboard / void dialog")
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    # The admin pages' header has no sport menu.
    problems += header_menus_problems(page, "admin", (NOTIFICATIONS,))
    assert not problems, "\n".join(problems)


def test_ties_are_numbered_the_same_on_results_and_the_wall(pages: Any, world: World) -> None:
    """Votes 3, 3, 2, 1, 0 read ranks 1, 1, 3, 4, 5 on both (a pending nomination is on the
    board too)."""
    page = pages()
    log_in(page, "alex", to="/results")
    players = page.get_by_role("list", name="Top Players").get_by_role("listitem")
    expect(players).to_have_count(5)
    expect(players).to_have_text([re.compile(rf"^Rank {n}\D") for n in (1, 1, 3, 4, 5)])

    page.goto("/wall")
    rows = page.get_by_role("region", name="Top Players").get_by_role("listitem")
    expect(rows.first).to_be_visible()
    expect(rows).to_have_count(5)
    ranks = [re.match(r"\d+", text) for text in rows.all_inner_texts()]
    assert [int(m.group()) for m in ranks if m] == [1, 1, 3, 4, 5]


def test_no_serious_axe_violation_on_a_club_page_signed_out_and_as_an_admin(
    pages: Any, world: World
) -> None:
    route = f"/clubs/{world.club_id}"
    problems = sweep(pages(), [route], "signed out")
    problems += sweep(pages(PHONE), [route], "signed out 390x844", phone=True)
    admin = pages()
    log_in(admin, "root", to=route)
    settle(admin, "admin club")
    # The merge panel with its search answered (the duplicates' checkboxes).
    admin.get_by_label("Find duplicates").fill("Central")
    admin.wait_for_load_state("networkidle")
    problems += axe_problems(admin, f"admin {route}")
    assert not problems, "\n".join(problems)
