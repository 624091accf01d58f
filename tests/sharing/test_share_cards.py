"""Share cards redrawn by the worker's periodic job: a card missing or showing an old vote
count is drawn again (a new address, the old file deleted), an edit drops the card with the
old details, and the job draws nothing twice."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import transaction

from project.accounts.models import ProfileVisibility, UserSettings
from project.media.storage import get_storage
from project.scouting.models import Nomination
from project.scouting.services.nominations import player_update
from project.sharing.models import ShareCard
from project.sharing.selectors import cards_to_draw
from tests.builders import make_user
from tests.sharing.conftest import nominate

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_periodic_job_draws_missing_and_outdated_cards_once() -> None:
    nomination = nominate("Vic Votes")
    assert nomination.pk in cards_to_draw(limit=10)[0]
    call_command("share_cards", "--changed")
    card = ShareCard.objects.get(nomination=nomination)
    assert get_storage().read(card.key, limit=4) == b"\x89PNG"
    assert nomination.pk not in cards_to_draw(limit=10)[0]

    call_command("share_cards", "--changed")  # nothing moved: nothing drawn
    assert ShareCard.objects.get(nomination=nomination).key == card.key

    Nomination.objects.filter(pk=nomination.pk).update(vote_count=3)
    assert nomination.pk in cards_to_draw(limit=10)[0]
    call_command("share_cards", "--changed")
    redrawn = ShareCard.objects.get(nomination=nomination)
    assert (redrawn.count, redrawn.key != card.key) == (3, True)
    assert get_storage().read(card.key, limit=4) is None


def test_an_edit_drops_the_card_with_the_old_details() -> None:
    nomination = nominate("Old Name")
    call_command("share_cards", "--nomination", str(nomination.pk))
    card = ShareCard.objects.get(nomination=nomination)
    with transaction.atomic():
        player_update(
            user=nomination.nominated_by,
            player_id=nomination.player_id,
            name="New Name",
            age=16,
            graduation_year=None,
            position="Winger",
            nationality="Danish",
            club="FC Example",
            sport="football",
        )
    assert not ShareCard.objects.filter(nomination=nomination).exists()
    assert get_storage().read(card.key, limit=4) is None
    assert nomination.pk in cards_to_draw(limit=10)[0]


def test_a_profile_made_private_drops_the_scouts_card() -> None:
    sam = make_user(username="sam", name="Sam Scout")
    call_command("share_cards", "--scout", str(sam.pk))
    card = ShareCard.objects.get(scout=sam)
    UserSettings.objects.update_or_create(
        user=sam, defaults={"profile_visibility": ProfileVisibility.PRIVATE}
    )
    assert not ShareCard.objects.filter(scout=sam).exists()
    assert get_storage().read(card.key, limit=4) is None
    assert sam.pk not in cards_to_draw(limit=10)[1]
