"""The installable app in Chromium: its service worker registers over the whole site, Chrome
finds nothing missing to install it, a push shows a notification, the offline page and the
shell answer without a server, and a new build offers "New version available" with "Reload".

The server here serves its own copy of the build (SPA_DIST_DIR), so a test can change the
service worker as a new deployment would, and can be stopped to take the network away."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.db import connection
from playwright.sync_api import Browser, Page, expect

from devtools.launcher import free_port
from project.accounts.models import UserSettings
from project.notify.emails import unsubscribe_url
from tests.builders import make_user
from tests.e2e.browsing import DESKTOP, ROOT, TIMEOUT_MS
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, Server, server_env

DIST = ROOT / "frontend" / "dist"


@pytest.fixture(scope="module")
def dist_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (DIST / "sw.js").exists():
        pytest.fail("The SPA is not built with its service worker: run `make frontend`")
    target = tmp_path_factory.mktemp("pwa") / "dist"
    shutil.copytree(DIST, target)
    return target


@pytest.fixture(scope="module")
def pwa_server(django_db_setup: Any, django_db_blocker: Any, dist_copy: Path) -> Iterator[Server]:
    with django_db_blocker.unblock():
        database_name = str(connection.settings_dict["NAME"])
    port = free_port()
    env = {**server_env(database_name), "SPA_DIST_DIR": str(dist_copy)}
    server = Server(url=f"http://127.0.0.1:{port}", port=port, env=env)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def app_page(browser: Browser, pwa_server: Server, tmp_path: Path) -> Iterator[Page]:
    """A page the service worker controls: the first visit installs it, the second is its. The
    context has a profile on disk: Chrome installs no app and shows no notification in an
    incognito-like context (Playwright's usual one)."""
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile",
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        base_url=pwa_server.url,
        viewport=DESKTOP,
        reduced_motion="reduce",
    )
    context.set_default_timeout(TIMEOUT_MS)
    page = context.pages[0] if context.pages else context.new_page()
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.goto("/")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    yield page
    page.context.close()


def test_worker_controls_the_whole_site_and_chrome_can_install_the_app(
    app_page: Page, pwa_server: Server
) -> None:
    registration = app_page.evaluate(
        """navigator.serviceWorker.ready.then((r) => ({
            scope: r.scope, script: r.active.scriptURL }))"""
    )
    origin = pwa_server.url
    assert registration == {"scope": f"{origin}/", "script": f"{origin}/sw.js"}

    cdp = app_page.context.new_cdp_session(app_page)
    assert cdp.send("Page.getInstallabilityErrors") == {"installabilityErrors": []}
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == []
    data = json.loads(manifest["data"])
    assert data["display"] == "standalone"
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in data["icons"]}
    assert any(icon.get("purpose") == "maskable" for icon in data["icons"])


# Records each notification the worker asks for, and whether Chrome accepted it, then calls
# through. Headless Chromium at times leaves a notification it has accepted out of
# getNotifications() (no notificationclose fires), so the test reads the worker's own call.
RECORD_NOTIFICATIONS = """() => {
    self.shownNotifications = [];
    const show = ServiceWorkerRegistration.prototype.showNotification;
    ServiceWorkerRegistration.prototype.showNotification = function (title, options) {
        const record = { title, options, outcome: "pending" };
        self.shownNotifications.push(record);
        return show.call(this, title, options).then(
            (value) => { record.outcome = "shown"; return value; },
            (error) => { record.outcome = String(error); throw error; },
        );
    };
}"""


def test_a_push_message_shows_its_notification(app_page: Page, pwa_server: Server) -> None:
    app_page.context.grant_permissions(["notifications"], origin=pwa_server.url)
    running = app_page.context.service_workers
    worker = running[0] if running else app_page.context.wait_for_event("serviceworker")
    worker.evaluate(RECORD_NOTIFICATIONS)
    cdp = app_page.context.new_cdp_session(app_page)
    registrations: list[dict[str, Any]] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    for _ in range(50):
        if registrations:
            break
        app_page.wait_for_timeout(100)
    registration_id = next(r["registrationId"] for r in registrations if not r["isDeleted"])
    payload = {
        "title": "Kai Tanaka got 3 new votes",
        "body": "Your nominee is now 4th on the soccer board.",
        "url": "/nominations/12",
        "tag": "nomination-12",
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": pwa_server.url, "registrationId": registration_id, "data": json.dumps(payload)},
    )
    shown: Any = None
    for _ in range(100):
        shown = worker.evaluate("self.shownNotifications")
        if shown and shown[0]["outcome"] != "pending":
            break
        app_page.wait_for_timeout(100)
    assert shown == [
        {
            "title": payload["title"],
            "options": {
                "body": payload["body"],
                "icon": "/static/pwa-192.png",
                "badge": "/static/pwa-192.png",
                "tag": "nomination-12",
                "data": {"url": f"{pwa_server.url}/nominations/12"},
            },
            "outcome": "shown",
        }
    ]


def test_without_a_network_the_shell_opens_and_other_pages_show_the_offline_page(
    app_page: Page, pwa_server: Server
) -> None:
    pwa_server.stop()  # every request, the worker's own too, now fails as with no network
    try:
        # Not a page of the app: the worker has only the offline page for it.
        app_page.goto("/admin-django/login/")
        expect(
            app_page.get_by_role(
                "heading", name="You're offline; live updates resume when you're back"
            )
        ).to_be_visible()

        # A page of the app: the shell opens from the precache (the app itself runs) and says
        # why its data is missing.
        app_page.goto("/nominations")
        expect(
            app_page.get_by_role(
                "heading", name="You're offline; live updates resume when you're back"
            )
        ).to_be_visible()
        expect(app_page.get_by_role("button", name="Reload the page")).to_be_visible()
    finally:
        pwa_server.start()


def test_a_new_build_offers_a_reload_that_moves_the_tab_to_it(
    app_page: Page, dist_copy: Path
) -> None:
    worker = dist_copy / "sw.js"
    original = worker.read_bytes()
    first_script = app_page.evaluate("navigator.serviceWorker.controller.scriptURL")
    try:
        # A new deployment: another worker script at the same address.
        worker.write_bytes(original + b"\n// the next build\n")
        stat = worker.stat()
        os.utime(worker, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
        app_page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")

        toast = app_page.get_by_role("status").filter(has_text="New version available")
        expect(toast).to_be_visible()
        app_page.wait_for_function(
            "navigator.serviceWorker.getRegistration().then((r) => r.waiting !== null)"
        )
        with app_page.expect_navigation():
            app_page.get_by_role("button", name="Reload", exact=True).click()
        app_page.wait_for_function(
            """navigator.serviceWorker.getRegistration().then((r) =>
                r.waiting === null && navigator.serviceWorker.controller !== null)"""
        )
        assert app_page.evaluate("navigator.serviceWorker.controller.scriptURL") == first_script
        expect(app_page.get_by_text("New version available")).to_have_count(0)
    finally:
        worker.write_bytes(original)


@pytest.mark.django_db(transaction=True)
def test_an_emails_unsubscribe_link_opens_the_servers_page_under_the_worker(
    app_page: Page, pwa_server: Server
) -> None:
    """A member whose browser has the worker clicks an email's unsubscribe link: the server's
    page answers (the worker lets /email/ through), and its button turns the emails off."""
    member = make_user(username="mia", name="Mia Member")
    link = unsubscribe_url(user_id=member.pk, kind="votes")
    path = urlsplit(link).path
    assert path.startswith("/email/unsubscribe/")

    app_page.goto(path)
    assert app_page.evaluate("navigator.serviceWorker.controller !== null")
    expect(app_page.get_by_role("heading", name="Turn off Vote Emails?")).to_be_visible()
    expect(app_page.get_by_text("404")).to_have_count(0)

    app_page.get_by_role("button", name="Turn off Vote Emails").click()
    expect(app_page.get_by_role("heading", name="Vote Emails turned off")).to_be_visible()
    expect(app_page.get_by_role("link", name="Settings").first).to_be_visible()
    settings = UserSettings.objects.get(user=member)
    assert (settings.vote_emails, settings.vote_notifications) == (False, True)
