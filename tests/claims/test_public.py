"""What the public sees of a child: a player's page fetched as a crawler fetches it (no
cookies, no JavaScript), its share card, and the rules of project/privacy."""

from __future__ import annotations

from datetime import date
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from project.privacy.models import PlayerControls
from project.privacy.players import Audience, age_from, player_view, public_card_denied
from project.scouting.models import Nomination, NominationStatus, Player
from project.sharing.previews import SITE_CARD_PATH
from project.sharing.selectors import cards_to_draw
from project.sharing.services import share_card_render
from tests.builders import make_nomination, make_user
from tests.helpers import ApiClient

pytestmark = pytest.mark.django_db(transaction=True)

YEAR = timezone.localdate().year


@pytest.fixture(autouse=True)
def _media(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.S3_BUCKET = ""


class Head(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.title = ""
        self.meta: dict[str, str] = {}
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {key: value or "" for key, value in attrs}
        if tag == "title":
            self._in_title = True
        elif tag == "meta" and ("property" in values or "name" in values):
            self.meta[values.get("property") or values["name"]] = values.get("content", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


def crawl(nomination: Nomination) -> tuple[Head, Any]:
    response = Client(HTTP_USER_AGENT="facebookexternalhit/1.1").get(
        f"/nominations/{nomination.pk}"
    )
    assert response.status_code == 200
    head = Head()
    head.feed(response.content.decode())
    return head, response


def live(**fields: Any) -> Nomination:
    values: dict[str, Any] = {
        "name": "Mia Jones",
        "club": "Lisbon Juniors",
        "nationality": "Portugal",
    }
    values.update(fields)
    return make_nomination(status=NominationStatus.APPROVED, **values)


def claim(nomination: Nomination, **controls: Any) -> PlayerControls:
    Player.objects.filter(pk=nomination.player_id).update(claimed_by=make_user())
    return PlayerControls.objects.create(
        player_id=nomination.player_id,
        relationship="parent_or_guardian",
        birth_year=YEAR - 12,
        **controls,
    )


def assert_noindex(head: Head, response: Any, *, noindex: bool = True) -> None:
    assert (head.meta.get("robots") == "noindex") is noindex
    assert (response.headers.get("X-Robots-Tag") == "noindex") is noindex


def test_an_unclaimed_child_under_13_shows_a_first_name_and_an_initial() -> None:
    nomination = live(age=11)

    head, response = crawl(nomination)

    assert head.title.startswith("Mia J. (")
    text = head.title + head.meta["og:description"] + head.meta["twitter:description"]
    assert "Jones" not in text
    assert "Lisbon" not in text and "Portugal" not in text
    assert head.meta["og:image"].endswith(SITE_CARD_PATH)  # the product's generic card
    assert_noindex(head, response)


def test_the_graduation_year_decides_before_the_typed_age() -> None:
    # Graduating in six years: 12 by the specification's rule, whatever age was typed.
    nomination = live(age=15, graduation_year=YEAR + 6)
    head, _ = crawl(nomination)
    assert head.title.startswith("Mia J. (")


def test_an_unclaimed_teenager_keeps_the_specification_preview_but_is_not_indexed() -> None:
    nomination = live(age=14)

    head, response = crawl(nomination)

    assert head.title.startswith("Mia Jones (")
    assert "Lisbon Juniors" in head.meta["og:description"]
    assert_noindex(head, response)


def test_a_claimed_child_shows_the_public_nothing_until_the_family_allows_it() -> None:
    nomination = live(age=11)
    claim(nomination)

    head, response = crawl(nomination)

    assert head.title == "ScoutVote"
    assert "Mia" not in head.meta["og:description"]
    assert head.meta["og:image"].endswith(SITE_CARD_PATH)
    assert_noindex(head, response)


def test_a_claimed_player_shows_what_the_family_allows() -> None:
    nomination = live(age=11)
    claim(nomination, share_card=True, hide_club=True, indexable=True)

    head, response = crawl(nomination)

    assert head.title.startswith("Mia Jones (")
    assert "Lisbon" not in head.meta["og:description"]
    assert_noindex(head, response, noindex=False)


def test_no_share_card_is_drawn_of_a_child_the_public_may_not_see() -> None:
    child = live(age=11)
    teen = live(age=14, name="Tom Teen")
    family_off = live(age=14, name="Fay Family")
    claim(family_off)
    family_on = live(age=11, name="Olly Open")
    claim(family_on, share_card=True)

    nominations, _ = cards_to_draw(limit=10)

    assert set(nominations) == {teen.pk, family_on.pk}
    assert share_card_render(nomination_id=child.pk) is None
    assert share_card_render(nomination_id=family_off.pk) is None
    card = share_card_render(nomination_id=family_on.pk)
    assert card is not None
    head, _ = crawl(family_on)
    assert head.meta["og:image"].endswith(card.key)
    # The card's address answers only while the family allows it.
    assert Client().get("/media/" + card.key).status_code == 200
    PlayerControls.objects.filter(player_id=family_on.player_id).update(share_card=False)
    assert Client().get("/media/" + card.key).status_code == 404


def test_the_query_and_the_python_rule_agree() -> None:
    players = [
        live(age=age, graduation_year=gy).player
        for age, gy in [(11, None), (12, None), (13, None), (15, YEAR + 6), (15, YEAR + 5)]
    ]
    denied = set(Player.objects.filter(public_card_denied()).values_list("pk", flat=True))
    for player in Player.objects.filter(pk__in=[p.pk for p in players]):
        assert (player.pk in denied) == (not player_view(player, Audience.PUBLIC).share_card)


def test_ages() -> None:
    today = date(2026, 6, 1)
    assert age_from(birth_year=2014, graduation_year=2030, age=15, today=today) == 11
    assert age_from(birth_year=None, graduation_year=2030, age=15, today=today) == 14
    assert age_from(birth_year=None, graduation_year=None, age=15, today=today) == 15


def test_members_keep_the_specification_card_of_a_child(other_api: ApiClient) -> None:
    nomination = live(age=11)
    player = other_api.get(f"/api/nominations/{nomination.pk}").json()["player"]
    assert (player["name"], player["club"], player["nationality"]) == (
        "Mia Jones",
        "Lisbon Juniors",
        "Portugal",
    )


def test_the_public_api_gives_nothing_of_a_player() -> None:
    nomination = live(age=11)
    assert Client().get(f"/api/nominations/{nomination.pk}").status_code == 401
