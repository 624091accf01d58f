"""Trust: a vote from an account younger than TRUST_ACCOUNT_AGE_HOURS moves the raw
voteCount only, not the ranked boards nor its nominator's points; what a vote did is stored on
it, so its removal undoes exactly that even after the account has aged."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
import time_machine
from django.utils import timezone

from project.accounts.models import User
from project.accounts.services import user_delete
from project.common.addresses import prefix_key
from project.scouting.models import Nomination, NominationStatus, NominationWeek, Vote
from tests.builders import aged_user, make_nomination, make_user
from tests.helpers import ApiClient

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _trust_a_day(settings: Any) -> None:
    settings.TRUST_ACCOUNT_AGE_HOURS = 24


def week_votes(nomination: Nomination) -> int:
    return sum(NominationWeek.objects.filter(nomination=nomination).values_list("votes", flat=True))


def board_ids(api: ApiClient, board: str) -> list[int]:
    response = api.get(f"/api/leaderboard/players?board={board}&sport=football")
    assert response.status_code == 200, response.content
    return [entry["id"] for entry in response.json()]


def points(user: User) -> int:
    user.refresh_from_db()
    return user.points


def test_a_new_accounts_vote_moves_vote_count_only() -> None:
    nominator = aged_user(hours=100)
    nomination = make_nomination(nominator, status=NominationStatus.APPROVED)
    before = points(nominator)
    newcomer = ApiClient().login(make_user())
    response = newcomer.post(
        "/api/votes", {"nominationId": nomination.pk}, REMOTE_ADDR="198.51.100.23"
    )
    assert response.status_code == 201
    assert response.json()["voteCount"] == 1

    nomination.refresh_from_db()
    assert (nomination.vote_count, nomination.counted_votes, nomination.trend) == (1, 0, None)
    assert week_votes(nomination) == 0
    assert points(nominator) == before
    assert nomination.pk in board_ids(newcomer, "all")
    assert nomination.pk not in board_ids(newcomer, "trending")
    assert nomination.pk not in board_ids(newcomer, "weekly")
    vote = Vote.objects.get(nomination=nomination)
    assert vote.counted is False
    # The IP-cluster id is a keyed hash, never the address.
    assert len(vote.ip_prefix) == 16 and "198" not in vote.ip_prefix
    assert vote.ip_prefix == prefix_key("198.51.100.1")


def test_loopback_is_no_network() -> None:
    assert prefix_key("127.0.0.1") == prefix_key("::1") == ""
    assert prefix_key("::ffff:198.51.100.9") == prefix_key("198.51.100.1")
    assert prefix_key("2001:db8:1:2::1") == prefix_key("2001:db8:1:ffff::9")
    assert prefix_key("2001:db8:1:2::1") != prefix_key("2001:db8:2::1")


def test_an_aged_accounts_vote_counts_everywhere() -> None:
    nominator = aged_user(hours=100)
    nomination = make_nomination(nominator, status=NominationStatus.APPROVED)
    before = points(nominator)
    veteran = ApiClient().login(aged_user(hours=25))
    assert veteran.post("/api/votes", {"nominationId": nomination.pk}).status_code == 201

    nomination.refresh_from_db()
    assert (nomination.vote_count, nomination.counted_votes) == (1, 1)
    assert nomination.trend is not None
    assert week_votes(nomination) == 1
    assert points(nominator) == before + 2
    assert nomination.pk in board_ids(veteran, "trending")
    assert nomination.pk in board_ids(veteran, "weekly")
    assert Vote.objects.get(nomination=nomination).counted is True


def test_zero_trusts_every_account(settings: Any) -> None:
    settings.TRUST_ACCOUNT_AGE_HOURS = 0
    nomination = make_nomination(make_user(), status=NominationStatus.APPROVED)
    ApiClient().login(make_user()).post("/api/votes", {"nominationId": nomination.pk})
    nomination.refresh_from_db()
    assert (nomination.vote_count, nomination.counted_votes) == (1, 1)


def test_removal_undoes_what_the_cast_did_after_the_account_aged() -> None:
    nominator = aged_user(hours=100)
    nomination = make_nomination(nominator, status=NominationStatus.APPROVED)
    veteran = ApiClient().login(aged_user(hours=48))
    assert veteran.post("/api/votes", {"nominationId": nomination.pk}).status_code == 201
    newcomer_user = make_user()
    newcomer = ApiClient().login(newcomer_user)
    assert newcomer.post("/api/votes", {"nominationId": nomination.pk}).status_code == 201
    nomination.refresh_from_db()
    trend, nominator_points = nomination.trend, points(nominator)

    with time_machine.travel(timezone.now() + timedelta(days=2)):
        # The newcomer's account is old enough now; its vote still did not count.
        assert newcomer.delete(f"/api/votes/{nomination.pk}").status_code == 200
    nomination.refresh_from_db()
    assert (nomination.vote_count, nomination.counted_votes) == (1, 1)
    assert nomination.trend == trend
    assert week_votes(nomination) == 1
    assert points(nominator) == nominator_points

    assert veteran.delete(f"/api/votes/{nomination.pk}").status_code == 200
    nomination.refresh_from_db()
    assert (nomination.vote_count, nomination.counted_votes, nomination.trend) == (0, 0, None)
    assert week_votes(nomination) == 0
    assert points(nominator) == nominator_points - 2


def test_deleting_an_account_takes_back_exactly_what_its_votes_gave() -> None:
    nominator = aged_user(hours=100)
    nomination = make_nomination(nominator, status=NominationStatus.APPROVED)
    veteran = ApiClient().login(aged_user(hours=48))
    veteran.post("/api/votes", {"nominationId": nomination.pk})
    before = points(nominator)
    newcomer = make_user()
    ApiClient().login(newcomer).post("/api/votes", {"nominationId": nomination.pk})
    user_delete(user=newcomer)
    nomination.refresh_from_db()
    assert (nomination.vote_count, nomination.counted_votes) == (1, 1)
    assert points(nominator) == before
