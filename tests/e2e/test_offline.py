"""Browser tests of a page opened with no network, from the service worker's shell: a signed-in
member is not shown the signed-out header, and a page that could not load recovers by itself
when the browser is back online (no Reload press).

The network goes away twice over: the server stops (every request, the worker's own too, fails)
and the context is offline (``navigator.onLine`` and the browser's online event)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.builders import make_user
from tests.e2e.browsing import log_in
from tests.e2e.conftest import Server
from tests.e2e.test_installable_app import app_page, dist_copy, pwa_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

__all__ = ["app_page", "dist_copy", "pwa_server"]  # the fixtures these tests use

OFFLINE = "You're offline; live updates resume when you're back"


class Network:
    def __init__(self, page: Page, server: Server) -> None:
        self.page = page
        self.server = server

    def lose(self) -> None:
        self.server.stop()
        self.page.context.set_offline(True)

    def regain(self) -> None:
        self.server.start()
        self.page.context.set_offline(False)


@pytest.fixture
def network(app_page: Page, pwa_server: Server) -> Iterator[Network]:
    network = Network(app_page, pwa_server)
    yield network
    if pwa_server.process is None:
        network.regain()


def test_a_page_that_needed_the_network_loads_by_itself_when_it_is_back(
    app_page: Page, network: Network
) -> None:
    make_user(username="noor", name="Noor Member")
    log_in(app_page, "noor")
    network.lose()
    app_page.goto("/nominations")
    expect(app_page.get_by_role("heading", name=OFFLINE)).to_be_visible()

    network.regain()
    expect(app_page.get_by_role("heading", name="All Nominations")).to_be_visible()
    expect(app_page.get_by_role("heading", name=OFFLINE)).to_have_count(0)


def test_a_member_offline_is_not_shown_the_signed_out_header(
    app_page: Page, network: Network
) -> None:
    make_user(username="mia", name="Mia Member")
    log_in(app_page, "mia")
    network.lose()
    app_page.goto("/about")
    banner = app_page.get_by_role("banner")
    expect(app_page.get_by_role("heading", level=1)).to_be_visible()
    expect(app_page.get_by_role("status").filter(has_text=OFFLINE)).to_be_visible()
    app_page.wait_for_timeout(1000)  # the session read has failed by now, were it to fail
    expect(banner.get_by_role("link", name="Sign in")).to_have_count(0)

    network.regain()
    expect(banner.get_by_role("button", name="Open user menu")).to_be_visible()
