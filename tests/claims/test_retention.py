"""Unclaimed players with no vote, follow or edit for PLAYER_RETENTION_MONTHS are anonymised
by the daily job; what the community did (counts) stays; anything recent keeps a player."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from project.accounts.models import User
from project.claims.retention import ANONYMISED_NAME, months_before, players_anonymise
from project.privacy.models import PlayerRetention
from project.scouting.models import Activity, Follow, Nomination, Notification, Player, Vote
from tests.builders import follow, make_nomination, vote
from tests.claims.test_controls import claimed
from tests.helpers import ApiClient

pytestmark = pytest.mark.django_db(transaction=True)


def old(nomination: Nomination, *, months: int = 25) -> Nomination:
    """The nomination's player as if nominated ``months`` ago, everything about it as old."""
    then = months_before(timezone.now(), months)
    Player.objects.filter(pk=nomination.player_id).update(created_at=then)
    Vote.objects.filter(nomination__player_id=nomination.player_id).update(created_at=then)
    Follow.objects.filter(followed_player_id=nomination.player_id).update(created_at=then)
    return nomination


def player(nomination: Nomination) -> Player:
    return Player.objects.get(pk=nomination.player_id)


def test_an_idle_unclaimed_player_is_anonymised_and_its_counts_kept(
    scout: User, other_scout: User, other_api: ApiClient
) -> None:
    nomination = make_nomination(
        scout,
        name="Mia Jones",
        club="Lisbon Juniors",
        nationality="Portugal",
        skills="Left foot",
        video_link="https://v.example/mia",
        status="approved",
    )
    vote(other_scout, nomination)
    follow(other_scout, player=nomination.player)
    old(nomination)
    assert Notification.objects.filter(message__contains="Mia Jones").exists()

    out = StringIO()
    call_command("anonymise_players", stdout=out)

    assert out.getvalue().strip() == "Anonymised 1 players."
    anonymised = player(nomination)
    assert (
        anonymised.name,
        anonymised.club,
        anonymised.nationality,
        anonymised.skills,
        anonymised.video_link,
        anonymised.search_key,
    ) == (ANONYMISED_NAME, "", "", "", "", "")
    nomination.refresh_from_db()
    assert nomination.vote_count == 1
    assert Follow.objects.filter(followed_player_id=nomination.player_id).count() == 1
    assert not Notification.objects.filter(message__contains="Mia Jones").exists()
    assert not Activity.objects.filter(metadata__playerName="Mia Jones").exists()
    assert PlayerRetention.objects.get(player_id=nomination.player_id).anonymised_at is not None
    # Members see the anonymised player; the job does nothing the second time.
    seen = other_api.get(f"/api/nominations/{nomination.pk}").json()["player"]
    assert (seen["name"], seen["club"], seen["nationality"]) == (ANONYMISED_NAME, "", "")
    assert players_anonymise() == 0


def test_a_recent_vote_follow_or_edit_or_a_claim_keeps_a_player(
    scout: User, scout_api: ApiClient, other_scout: User, admin_api: ApiClient
) -> None:
    idle = old(make_nomination(scout, status="approved"))
    voted = old(make_nomination(scout, status="approved"))
    vote(other_scout, voted)
    followed = old(make_nomination(scout, status="approved"))
    follow(other_scout, player=followed.player)
    edited = old(make_nomination(scout, status="approved", name="Ana Lima"))
    response = scout_api.put(
        f"/api/players/{edited.player_id}",
        {
            "name": "Ana Lima",
            "age": 15,
            "graduationYear": "",
            "position": "Winger",
            "nationality": "Brazil",
            "club": "Santos",
            "sport": "football",
        },
    )
    assert response.status_code == 200, response.content
    claimed_one = make_nomination(scout, status="approved", age=11)
    claimed(claimed_one, admin_api)
    old(claimed_one)
    # Nominated within the period: kept too.
    recent = old(make_nomination(scout, status="approved"), months=23)

    assert players_anonymise() == 1

    assert player(idle).name == ANONYMISED_NAME
    for kept in (voted, followed, edited, claimed_one, recent):
        assert player(kept).name != ANONYMISED_NAME
    # The edit is what kept it: the same player 25 months after the edit goes.
    later = months_before(timezone.now(), -25) + timedelta(days=1)
    assert players_anonymise(now=later) >= 1
    assert player(edited).name == ANONYMISED_NAME
    assert player(claimed_one).name != ANONYMISED_NAME


def test_months_before_clamps_the_day() -> None:
    moment = timezone.now().replace(year=2026, month=3, day=31)
    assert months_before(moment, 1).date().isoformat() == "2026-02-28"
    assert months_before(moment, 24).date().isoformat() == "2024-03-31"
    assert months_before(moment, -1).date().isoformat() == "2026-04-30"
