"""Property: whatever votes and removals happen at whatever times, the columns the vote
services keep equal a brute-force recompute from the vote rows.

* trend: at several moments ``now``, ``exp(trend - lambda * now)`` equals
  ``sum(exp(-lambda * (now - t)))`` over the nomination's votes, and ordering by the column
  is the brute-force trending order;
* the week counters equal a GROUP BY of the votes over their week, in UTC and in a zone far
  from it (Pacific/Auckland, with daylight saving).

Vote times come from the service's own clock, moved with time-machine (no sleeps)."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.db import transaction
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from project.accounts.models import User
from project.common.errors import Conflict, NotFound
from project.scouting.boards import trend_lambda, week_of
from project.scouting.models import Nomination, NominationWeek, Vote
from project.scouting.services import votes
from tests.helpers import make_user
from tests.scouting.conftest import make_nomination

pytestmark = pytest.mark.django_db

HALF_LIFE = 7200.0
# A Sunday morning in UTC: the span below crosses Auckland's Monday (Sunday ~11:00 UTC) and
# then UTC's.
START = datetime(2030, 3, 31, 6, 0, tzinfo=UTC)
SPAN = 20 * HALF_LIFE  # weights down to 2**-20 of the newest

operations = st.lists(
    st.tuples(
        st.integers(0, 2),  # nomination
        st.integers(0, 3),  # voter
        st.floats(0, SPAN, allow_nan=False),  # seconds after START
        st.booleans(),  # cast (True) or remove
    ),
    min_size=1,
    max_size=25,
)


examples = hypothesis_settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


class Rollback(Exception):
    """Ends an example's transaction so the next starts from the same rows."""


def brute_weights(nominations: list[Nomination], now: datetime) -> dict[int, float]:
    rate = trend_lambda()
    weights = dict.fromkeys((n.pk for n in nominations), 0.0)
    for nomination_id, voted_at in Vote.objects.values_list("nomination_id", "created_at"):
        weights[nomination_id] += math.exp(-rate * (now - voted_at).total_seconds())
    return weights


def check_trend(nominations: list[Nomination], now: datetime, tolerance: float) -> None:
    rate = trend_lambda()
    expected = brute_weights(nominations, now)
    stored = dict(Nomination.objects.values_list("pk", "trend"))
    column = {
        pk: 0.0 if trend is None else math.exp(trend - rate * now.timestamp())
        for pk, trend in stored.items()
    }
    for pk, weight in expected.items():
        assert math.isclose(column[pk], weight, rel_tol=1e-6, abs_tol=tolerance), (pk, stored)
        assert (stored[pk] is None) == (weight == 0.0)
    # The column's order (NULL last) is the brute-force order wherever that order is clear.
    ranked = [
        pk
        for pk in Nomination.objects.order_by("-trend", "pk")
        .exclude(trend=None)
        .values_list("pk", flat=True)
    ]
    ranked += [pk for pk, trend in sorted(stored.items()) if trend is None]
    for higher, lower in itertools.pairwise(ranked):
        assert expected[higher] >= expected[lower] - 2 * tolerance, (ranked, expected)


def check_weeks(nominations: list[Nomination]) -> None:
    expected = Counter(
        (nomination_id, week_of(voted_at))
        for nomination_id, voted_at in Vote.objects.values_list("nomination_id", "created_at")
    )
    stored = {
        (nomination_id, week): votes
        for nomination_id, week, votes in NominationWeek.objects.values_list(
            "nomination_id", "week", "votes"
        )
        if votes
    }
    assert stored == dict(expected)


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Auckland"])
def test_trend_and_week_columns_equal_a_recompute_from_the_votes(
    zone: str, settings: Any, other_scout: User
) -> None:
    settings.BOARD_TRENDING_HALF_LIFE = HALF_LIFE
    settings.BOARD_WEEK_TIME_ZONE = zone
    voters = [make_user(name=f"Voter {n}") for n in range(4)]

    @examples
    @given(operations)
    def example(steps: list[tuple[int, int, float, bool]]) -> None:
        try:
            with transaction.atomic():
                nominations = [make_nomination(other_scout) for _ in range(3)]
                for nomination_index, voter_index, offset, cast in steps:
                    nomination, voter = nominations[nomination_index], voters[voter_index]
                    with time_machine.travel(START + timedelta(seconds=offset), tick=False):
                        try:
                            if cast:
                                votes.vote_cast(user=voter, nomination_id=nomination.pk)
                            else:
                                votes.vote_remove(user=voter, nomination_id=nomination.pk)
                        except (Conflict, NotFound):
                            pass
                newest = START + timedelta(seconds=max(step[2] for step in steps))
                # Cancellation when a dominant vote leaves costs absolute precision in
                # proportion to the largest weight the column has held (at most 1 at
                # ``newest``, decaying alike for every nomination afterwards).
                for later in (0.0, HALF_LIFE, 5 * HALF_LIFE):
                    now = newest + timedelta(seconds=later)
                    check_trend(nominations, now, tolerance=1e-7 * 2 ** (-later / HALF_LIFE))
                check_weeks(nominations)
                raise Rollback
        except Rollback:
            pass

    example()
