"""``manage.py boards_rebuild`` recomputes from the vote rows exactly what the vote services
keep, so a changed half-life or week zone, or votes from before the columns, can be redone."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from io import StringIO
from typing import Any

import pytest
import time_machine
from django.core.management import CommandError, call_command

from project.scouting.models import Nomination, NominationWeek, Vote, VoteStatus
from project.scouting.services import votes
from tests.builders import make_nomination, make_user

pytestmark = pytest.mark.django_db

MONDAY = datetime(2031, 6, 2, 12, 0, tzinfo=UTC)


def board_columns() -> tuple[dict[int, tuple[float | None, int]], set[tuple[int, str, int]]]:
    nominations = {n.pk: (n.trend, n.counted_votes) for n in Nomination.objects.all()}
    weeks = {(w.nomination_id, w.week.isoformat(), w.votes) for w in NominationWeek.objects.all()}
    return nominations, weeks


def test_rebuild_gives_back_what_the_votes_built(settings: pytest.FixtureRequest) -> None:
    settings.TRUST_ACCOUNT_AGE_HOURS = 0  # type: ignore[attr-defined]
    nominator = make_user()
    first, second, idle = (make_nomination(nominator, name=f"Player {n}") for n in range(3))
    voters = [make_user() for _ in range(4)]
    for day, (voter, nomination) in enumerate(
        [(voters[0], first), (voters[1], first), (voters[2], second), (voters[3], first)]
    ):
        with time_machine.travel(MONDAY + timedelta(days=day * 3), tick=False):
            votes.vote_cast(user=voter, nomination_id=nomination.pk)
    with time_machine.travel(MONDAY + timedelta(days=10), tick=False):
        votes.vote_remove(user=voters[1], nomination_id=first.pk)
    built = board_columns()
    assert built[0][idle.pk] == (None, 0)

    Nomination.objects.update(trend=None, counted_votes=0)
    NominationWeek.objects.all().delete()
    call_command("boards_rebuild", verbosity=0)

    rebuilt = board_columns()
    assert rebuilt[1] == built[1]
    for pk, (trend, counted) in built[0].items():
        assert rebuilt[0][pk][1] == counted
        assert (rebuilt[0][pk][0] is None) == (trend is None)
        if trend is not None:
            assert rebuilt[0][pk][0] == pytest.approx(trend, abs=1e-9)


def test_rebuild_leaves_out_void_and_uncounted_votes() -> None:
    nomination = make_nomination(make_user())
    for status, counted in [
        (VoteStatus.ACTIVE, True),
        (VoteStatus.VOID, True),
        (VoteStatus.ACTIVE, False),
    ]:
        Vote.objects.create(nomination=nomination, user=make_user(), status=status, counted=counted)

    call_command("boards_rebuild", verbosity=0)

    nomination.refresh_from_db()
    assert nomination.counted_votes == 1
    assert nomination.trend is not None
    assert NominationWeek.objects.get(nomination=nomination).votes == 1


def test_check_finds_every_counter_that_differs_from_its_rows(settings: Any) -> None:
    settings.TRUST_ACCOUNT_AGE_HOURS = 0
    nomination, other = make_nomination(make_user()), make_nomination(make_user(), name="Other")
    with time_machine.travel(MONDAY, tick=False):
        for _ in range(3):
            votes.vote_cast(user=make_user(), nomination_id=nomination.pk)
        votes.vote_cast(user=make_user(), nomination_id=other.pk)
    call_command("boards_check", stdout=StringIO())

    Nomination.objects.filter(pk=nomination.pk).update(vote_count=2)
    Nomination.objects.filter(pk=other.pk).update(trend=0.0)
    NominationWeek.objects.filter(nomination=other).update(votes=5)
    errors = StringIO()
    with pytest.raises(CommandError, match="3 counters differ"):
        call_command("boards_check", stdout=StringIO(), stderr=errors)
    lines = errors.getvalue().splitlines()
    assert lines[0] == f"nomination {nomination.pk}: votes 2, counted 3; its rows make 3, 3"
    assert lines[1].startswith(f"nomination {other.pk}: trend 0.0; its rows make ")
    assert lines[2] == f"nomination {other.pk}, week of 2031-06-02: 5 votes; its rows make 1"
