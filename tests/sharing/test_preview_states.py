"""Which nominations unfold into a link preview and a share card: an approved one only. A
pending nomination (no admin has looked at it), a rejected, a removed and a hidden (taken
down) one get the product's generic tags on their page, no card is drawn for them, and a card
stored under their name answers 404."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from project.moderation.models import ReportReason, ReportResolution, TakedownRequest
from project.moderation.services import decisions, reports, takedowns
from project.scouting.models import Nomination, NominationStatus
from project.sharing.models import ShareCard
from project.sharing.services import share_card_render
from tests.builders import make_user
from tests.sharing.conftest import nominate

# Real commits: the preview cache (Redis, when set) is made stale at commit.
pytestmark = pytest.mark.django_db(transaction=True)

INDEX = "<!doctype html><html><head><title>ScoutVote</title></head><body></body></html>"
# What the player's preview would tell: name, position, age and club (tests/sharing/conftest.py).
PLAYER = ("Pia Pending", "Winger", "age 16", "FC Example")


@pytest.fixture(autouse=True)
def _index(settings: Any, tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    dist.mkdir()
    (dist / "index.html").write_text(INDEX, "utf-8")
    settings.SPA_DIST_DIR = dist
    settings.PUBLIC_BASE_URL = "https://scoutvote.test"


def page(nomination: Nomination) -> str:
    response = Client().get(f"/nominations/{nomination.pk}")
    assert response.status_code == 200
    return response.content.decode()


def card_status(card: ShareCard) -> int:
    return Client().get(f"/media/{card.key}").status_code


def assert_generic(html: str) -> None:
    assert "<title>ScoutVote</title>" in html
    assert 'content="https://scoutvote.test/static/share-card.png"' in html
    for detail in PLAYER:
        assert detail not in html, detail


def stays_pending(nomination: Nomination) -> None:
    pass


def rejected(nomination: Nomination) -> None:
    admin = make_user(username="root", role="admin")
    decisions.nomination_reject(admin=admin, nomination_id=nomination.pk, reason="Duplicate")


def removed(nomination: Nomination) -> None:
    admin = make_user(username="root", role="admin")
    decisions.nomination_approve(admin=admin, nomination_id=nomination.pk)
    reports.report_create(
        reporter=make_user(username="rex"),
        reason=ReportReason.NOT_REAL,
        nomination_id=nomination.pk,
    )
    reports.reports_resolve(
        admin=admin,
        action=ReportResolution.HIDE_NOMINATION,
        reason="Not a real athlete",
        nomination_id=nomination.pk,
    )


def confirmed_takedown(nomination: Nomination) -> None:
    """A parent's request, confirmed from its email: the player is under review, kept from
    the public while members still see it."""
    request = takedowns.takedown_request_create(
        nomination_id=nomination.pk,
        relationship="parent_or_guardian",
        kind="remove",
        contact_email="parent@example.com",
        client_address="203.0.113.9",
        confirm_url="http://testserver/takedown/confirm",
    )
    takedowns.takedown_request_confirm(token=takedowns.takedown_confirm_token(request))


def taken_down(nomination: Nomination) -> None:
    """The confirmed request, decided by an admin: the profile is kept off the site."""
    confirmed_takedown(nomination)
    [request] = TakedownRequest.objects.filter(player_id=nomination.player_id)
    takedowns.takedown_request_decide(
        admin=make_user(username="root", role="admin"),
        request_id=request.pk,
        decision="remove",
        reason="The parent confirmed she is 12.",
    )


@pytest.mark.parametrize(
    ("state", "status"),
    [
        (stays_pending, NominationStatus.PENDING),
        (rejected, NominationStatus.REJECTED),
        (removed, NominationStatus.REMOVED),
        (taken_down, NominationStatus.HIDDEN),
    ],
    ids=lambda value: getattr(value, "__name__", str(value)),
)
def test_a_nomination_that_is_not_approved_gets_the_generic_tags_and_no_card(
    state: Callable[[Nomination], None], status: str
) -> None:
    nomination = nominate(PLAYER[0], approved=False)
    state(nomination)
    nomination.refresh_from_db()
    assert nomination.status == status
    assert_generic(page(nomination))
    assert share_card_render(nomination_id=nomination.pk) is None
    assert not ShareCard.objects.filter(nomination=nomination).exists()


def test_an_approved_nomination_under_review_gets_the_generic_tags_and_no_card() -> None:
    """One confirmed takedown request keeps the player from the public at once: its approved
    nomination stays approved for members, but its page's preview and its card are gone."""
    nomination = nominate(PLAYER[0])
    card = share_card_render(nomination_id=nomination.pk)
    assert card is not None and card_status(card) == 200
    confirmed_takedown(nomination)
    nomination.refresh_from_db()
    assert nomination.status == NominationStatus.APPROVED
    assert_generic(page(nomination))
    assert card_status(card) == 404
    assert share_card_render(nomination_id=nomination.pk) is None


def test_a_pending_nominations_card_answers_404() -> None:
    """A card stored for a nomination that is pending (drawn by a release that still drew
    them) is not served."""
    nomination = nominate(PLAYER[0])
    card = share_card_render(nomination_id=nomination.pk)
    assert card is not None and card_status(card) == 200
    Nomination.objects.filter(pk=nomination.pk).update(status=NominationStatus.PENDING)
    assert card_status(card) == 404
    assert_generic(page(nomination))


def test_an_approved_nomination_unfolds_into_its_card() -> None:
    nomination = nominate(PLAYER[0], approved=False)
    admin = make_user(username="root", role="admin")
    decisions.nomination_approve(admin=admin, nomination_id=nomination.pk)
    html = page(nomination)
    for detail in PLAYER:
        assert detail in html, detail
    card = share_card_render(nomination_id=nomination.pk)
    assert card is not None and card_status(card) == 200
    assert f'content="https://scoutvote.test/media/{card.key}"' in page(nomination)
