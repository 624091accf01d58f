"""Link previews and share cards as a crawler sees them: plain HTTP requests to the real
server (no JavaScript), the page's head read with an HTML parser, the card's image decoded."""

from __future__ import annotations

import io
import urllib.error
import urllib.request
from html.parser import HTMLParser

import pytest
from PIL import Image

from project.accounts.models import ProfileVisibility, UserSettings
from project.media.storage import get_storage
from project.moderation.services import decisions, takedowns
from project.scouting.models import Nomination
from project.sharing.models import ShareCard
from project.sharing.services import share_card_render
from tests.builders import make_user
from tests.e2e.browsing import nominate
from tests.e2e.conftest import Server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Quotes, markup, an emoji and right-to-left text in one name.
TRICKY = 'Zoë "The <Rocket>" & محمد 🚀'
GENERIC_TITLE = "ScoutVote"


class Head(HTMLParser):
    """The page's <title>, its <meta> tags by name or property, and its canonical link."""

    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.titles = 0
        self.meta: dict[str, list[str]] = {}
        self.canonical: list[str] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        if tag == "title":
            self._in_title = True
            self.titles += 1
        elif tag == "meta" and ("property" in values or "name" in values):
            key = values.get("property") or values["name"]
            self.meta.setdefault(key, []).append(values.get("content", ""))
        elif tag == "link" and values.get("rel") == "canonical":
            self.canonical.append(values["href"])

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data

    def one(self, key: str) -> str:
        values = self.meta.get(key, [])
        assert len(values) == 1, (key, values)
        return values[0]


def crawl(server: Server, path: str) -> Head:
    request = urllib.request.Request(
        server.url + path, headers={"User-Agent": "facebookexternalhit/1.1"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/html")
        html = response.read().decode("utf-8")
    assert '<div id="root">' in html  # still the SPA's page
    head = Head()
    head.feed(html)
    assert head.titles == 1
    return head


def fetch(url: str) -> tuple[int, str, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), b""


def assert_complete(head: Head, server: Server, path: str) -> None:
    """Every tag a preview needs, with absolute addresses."""
    assert head.one("og:site_name") == "ScoutVote"
    assert head.one("twitter:card") == "summary_large_image"
    assert head.one("og:title") == head.title == head.one("twitter:title")
    assert head.one("og:description") == head.one("description")
    assert head.one("og:url") == server.url + path == head.canonical[0]
    assert head.one("og:image").startswith(server.url + "/")
    assert head.one("twitter:image") == head.one("og:image")
    assert head.one("og:image:width") == "1200"
    assert head.one("og:image:height") == "630"
    status, content_type, body = fetch(head.one("og:image"))
    assert (status, content_type) == (200, "image/png")
    with Image.open(io.BytesIO(body)) as image:
        assert (image.format, image.size) == ("PNG", (1200, 630))


def assert_generic(head: Head, *secrets: str) -> None:
    assert head.title == GENERIC_TITLE
    assert head.one("og:title") == GENERIC_TITLE
    text = repr(head.meta) + head.title
    for secret in secrets:
        assert secret not in text


def approve(nomination: Nomination) -> None:
    admin = make_user(username=f"root{nomination.pk}", role="admin")
    decisions.nomination_approve(admin=admin, nomination_id=nomination.pk)


def test_an_approved_nomination_previews_its_player_with_its_card(e2e_server: Server) -> None:
    nora = make_user(username="nora", name="Nora Nominator")
    nomination = nominate(nora, name=TRICKY, position="Winger", club="FC <Ünited>", age=16)
    # Pending: no admin has looked at it yet, so its page names nobody and it has no card.
    assert_generic(crawl(e2e_server, f"/nominations/{nomination.pk}"), "Zoë", "Ünited", "Winger")
    assert share_card_render(nomination_id=nomination.pk) is None

    # Approved: the preview names the player.
    approve(nomination)
    head = crawl(e2e_server, f"/nominations/{nomination.pk}")
    assert TRICKY in head.title  # the parser unescaped exactly the name back
    assert "FC <Ünited>" in head.one("og:description")
    assert head.one("og:type") == "profile"
    assert_complete(head, e2e_server, f"/nominations/{nomination.pk}")
    assert head.one("og:image").endswith("/static/share-card.png")  # no card drawn yet

    card = share_card_render(nomination_id=nomination.pk)
    assert card is not None
    head = crawl(e2e_server, f"/nominations/{nomination.pk}/")
    assert head.one("og:image") == f"{e2e_server.url}/media/{card.key}"
    assert_complete(head, e2e_server, f"/nominations/{nomination.pk}")

    # A changed card is a new address; the old one answers 404 at once.
    Nomination.objects.filter(pk=nomination.pk).update(vote_count=7)
    changed = share_card_render(nomination_id=nomination.pk)
    assert changed is not None and changed.key != card.key
    assert fetch(f"{e2e_server.url}/media/{card.key}")[0] == 404
    assert crawl(e2e_server, f"/nominations/{nomination.pk}").one("og:image").endswith(changed.key)


def test_a_takedown_drops_the_preview_and_the_card_at_once(e2e_server: Server) -> None:
    nora = make_user(username="nora", name="Nora Nominator")
    nomination = nominate(nora, name="Tia Takedown")
    approve(nomination)
    card = share_card_render(nomination_id=nomination.pk)
    assert card is not None
    image = f"{e2e_server.url}/media/{card.key}"
    assert fetch(image)[0] == 200
    stored = get_storage()
    assert stored.read(card.key, limit=8) == b"\x89PNG\r\n\x1a\n"

    request = takedowns.takedown_request_create(
        nomination_id=nomination.pk,
        relationship="parent_or_guardian",
        kind="remove",
        contact_email="parent@example.com",
        client_address="203.0.113.9",
        confirm_url=f"{e2e_server.url}/takedown/confirm",
    )
    assert fetch(image)[0] == 200  # nothing changes until the request is confirmed
    takedowns.takedown_request_confirm(token=takedowns.takedown_confirm_token(request))

    assert_generic(crawl(e2e_server, f"/nominations/{nomination.pk}"), "Tia Takedown")
    assert fetch(image)[0] == 404
    assert not ShareCard.objects.filter(key=card.key).exists()
    assert stored.read(card.key, limit=8) is None  # the stored file went with it


def test_what_the_community_cannot_see_gets_the_generic_tags(e2e_server: Server) -> None:
    nora = make_user(username="nora", name="Nora Nominator")
    admin = make_user(username="root", role="admin")
    rejected = nominate(nora, name="Rita Rejected")
    decisions.nomination_reject(admin=admin, nomination_id=rejected.pk, reason="Duplicate")
    assert_generic(crawl(e2e_server, f"/nominations/{rejected.pk}"), "Rita Rejected")
    assert share_card_render(nomination_id=rejected.pk) is None

    # A card stored while a nomination was pending (a release that drew them) is not served.
    pending = nominate(nora, name="Pat Pending")
    Nomination.objects.filter(pk=pending.pk).update(status="approved")
    card = share_card_render(nomination_id=pending.pk)
    assert card is not None
    Nomination.objects.filter(pk=pending.pk).update(status="pending")
    assert fetch(f"{e2e_server.url}/media/{card.key}")[0] == 404

    private = make_user(username="pia", name="Pia Private")
    UserSettings.objects.update_or_create(
        user=private, defaults={"profile_visibility": ProfileVisibility.PRIVATE}
    )
    assert share_card_render(scout_id=private.pk) is None
    assert_generic(crawl(e2e_server, f"/scout/{private.pk}"), "Pia Private", "pia")

    for path in ("/nominations/999999", "/scout/999999", "/nominations/abc", "/nope"):
        head = crawl(e2e_server, path)
        assert_generic(head)
        assert_complete(head, e2e_server, "/")


def test_a_public_scout_and_the_boards_have_their_previews(e2e_server: Server) -> None:
    sam = make_user(username="sam", name="Sam <Scout> 🧢")
    nominate(sam, name="Anyone")
    head = crawl(e2e_server, f"/scout/{sam.pk}")
    assert "Sam <Scout> 🧢" in head.title
    assert "1 nomination" in head.one("description")
    assert_complete(head, e2e_server, f"/scout/{sam.pk}")
    card = share_card_render(scout_id=sam.pk)
    assert card is not None
    head = crawl(e2e_server, f"/scout/{sam.pk}")
    assert head.one("og:image").endswith(card.key)
    assert_complete(head, e2e_server, f"/scout/{sam.pk}")

    # Made private: the page and the card's address say nothing of the scout at once, though
    # nothing dropped the card yet (the card view checks the subject on every request).
    UserSettings.objects.update_or_create(
        user=sam, defaults={"profile_visibility": ProfileVisibility.FOLLOWERS}
    )
    assert_generic(crawl(e2e_server, f"/scout/{sam.pk}"), "Sam <Scout>")
    assert fetch(f"{e2e_server.url}/media/{card.key}")[0] == 404

    for path in ("/results", "/wall"):
        head = crawl(e2e_server, path)
        assert head.title != GENERIC_TITLE
        assert_complete(head, e2e_server, path)
