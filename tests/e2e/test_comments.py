"""Comments on a nomination, live: one member comments and a second member's open page shows
it; a held comment shows only to its author, "Awaiting review", until an admin approves it
from the live Comments tab; the section is clean under axe-core."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from project.accounts.models import Role
from tests.builders import make_user
from tests.e2e.browsing import TIMEOUT_MS, ServerSession, live, log_in, new_page, nominate
from tests.e2e.conftest import Server
from tests.e2e.test_a11y import axe_problems

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_comment_reaches_an_open_page_and_a_held_one_waits_for_an_admin(
    e2e_server: Server, browser: Browser
) -> None:
    make_user(username="ada", name="Ada Admin", role=Role.ADMIN)
    make_user(username="tom", name="Tom Member")
    olive = make_user(username="olive", name="Olive Other")
    nomination = nominate(make_user(username="nina"), name="Leo Costa", age=16)
    path = f"/nominations/{nomination.pk}"

    # The author's page may take axe-core's script tag (the CSP allows only 'self').
    context = browser.new_context(base_url=e2e_server.url, reduced_motion="reduce", bypass_csp=True)
    context.set_default_timeout(TIMEOUT_MS)
    author = context.new_page()
    log_in(author, "tom", to=path)
    live(author)
    reader = new_page(browser, e2e_server)
    log_in(reader, "olive", to=path)
    live(reader)
    reader_comments = reader.get_by_role("list", name="Comments")
    expect(reader.get_by_text("No comments yet.")).to_be_visible()

    form = author.get_by_label("Add a comment")
    form.fill("Brilliant vision in midfield")
    author.get_by_role("button", name="Post comment").click()
    expect(form).to_have_value("")

    # The second member's open page shows it without a reload.
    expect(reader_comments.get_by_text("Brilliant vision in midfield")).to_be_visible()
    expect(reader_comments.get_by_role("link", name="Tom Member")).to_be_visible()

    # A watched word holds the next one: its author sees it marked, nobody else does.
    form.fill("That ref was a wanker all game")
    author.get_by_role("button", name="Post comment").click()
    held = author.get_by_role("listitem", name="Comment").filter(has_text="That ref was a wanker")
    expect(held.get_by_text("Awaiting review")).to_be_visible()
    assert axe_problems(author, path) == []

    admin = new_page(browser, e2e_server)
    log_in(admin, "ada", to="/admin/dashboard?tab=comments")
    live(admin)
    expect(admin.get_by_role("tab", name=re.compile(r"^Comments"))).to_have_text("Comments (1)")
    row = admin.get_by_role("listitem", name="Comment by Tom Member (@tom)")
    expect(row.get_by_text("Watched word: wanker")).to_be_visible()
    expect(reader_comments.get_by_text("That ref was a wanker all game")).to_have_count(0)

    row.get_by_role("button", name="Approve comment").click()

    # Approved: it reaches the second member's open page live, and leaves the queue.
    expect(reader_comments.get_by_text("That ref was a wanker all game")).to_be_visible()
    expect(row).to_have_count(0)
    expect(held.get_by_text("Awaiting review")).to_have_count(0)

    # A report below the weight that holds a comment: the admin's open tab lists it, still
    # published, and removing it takes it off the reader's open page.
    session = ServerSession(e2e_server, olive)
    [first] = [
        comment
        for comment in session.call("GET", f"/api/nominations/{nomination.pk}/comments").json()[
            "items"
        ]
        if comment["content"] == "Brilliant vision in midfield"
    ]
    session.call("POST", "/api/reports", {"commentId": first["id"], "reason": "inappropriate"})
    reported = admin.get_by_role("list", name="Reported comments")
    row = reported.get_by_role("listitem", name="Comment by Tom Member (@tom)")
    expect(row.get_by_text(re.compile("Reported \\(inappropriate"))).to_be_visible()
    row.get_by_role("button", name="Remove comment").click()
    expect(reader_comments.get_by_text("Brilliant vision in midfield")).to_have_count(0)
    expect(reported).to_have_count(0)
    context.close()
