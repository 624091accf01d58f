"""Browser tests of the console: being signed out is no error, and a scout sent away from the
admin dashboard fires no admin request on the way. A console error is a sign something failed;
these pages fail nothing.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Response, expect

from tests.builders import PASSWORD, make_user
from tests.e2e.browsing import log_in, new_page, toast
from tests.e2e.conftest import Server
from tests.e2e.test_a11y import SIGNED_OUT_ROUTES

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def watch(page: Page) -> list[str]:
    """Console errors and failed API answers (4xx, 5xx) of the page from now on."""
    problems: list[str] = []

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            problems.append(f"console: {message.text}")

    def answered(response: Response) -> None:
        if "/api/" in response.url and response.status >= 400:
            problems.append(f"{response.status} {response.request.method} {response.url}")

    page.on("console", console)
    page.on("response", answered)
    return problems


def test_signed_out_pages_log_no_error(e2e_server: Server, browser: Browser) -> None:
    page = new_page(browser, e2e_server)
    problems = watch(page)
    for route in [*SIGNED_OUT_ROUTES, "/takedown", "/"]:
        page.goto(route)
        expect(page.locator("h1")).to_have_count(1)
        page.wait_for_load_state("networkidle")
    assert not problems, "\n".join(problems)


def test_a_scout_sent_from_the_dashboard_fires_no_admin_request(
    e2e_server: Server, browser: Browser
) -> None:
    make_user(username="sol", name="Sol Scout")
    page = new_page(browser, e2e_server)
    log_in(page, "sol")
    page.wait_for_load_state("networkidle")
    problems = watch(page)
    admin_requests: list[str] = []
    page.on(
        "request",
        lambda request: admin_requests.append(request.url) if "/api/admin" in request.url else None,
    )
    page.goto("/admin/dashboard")
    expect(toast(page, "Access Denied")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/$"))
    page.wait_for_load_state("networkidle")
    assert not admin_requests, admin_requests
    assert not problems, "\n".join(problems)

    # The same, signing in on the way: the dashboard's address sends to the login page first.
    signed_out = new_page(browser, e2e_server)
    problems = watch(signed_out)
    signed_out.on(
        "request",
        lambda request: admin_requests.append(request.url) if "/api/admin" in request.url else None,
    )
    signed_out.goto("/admin/dashboard")
    expect(signed_out).to_have_url(re.compile(r"/login\?"))
    signed_out.get_by_label("Username").fill("sol")
    signed_out.get_by_label("Password").fill(PASSWORD)
    signed_out.get_by_role("button", name="Sign in").click()
    expect(toast(signed_out, "Access Denied")).to_be_visible()
    expect(signed_out).to_have_url(re.compile(r"/$"))
    signed_out.wait_for_load_state("networkidle")
    assert not admin_requests, admin_requests
    assert not problems, "\n".join(problems)
