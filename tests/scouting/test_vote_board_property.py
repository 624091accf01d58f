"""Property: whatever votes enter and leave the counts, by whatever path, in whatever order and
at whatever times (casts, removals, an admin's void and restore, by a flag or between users, an
account's deletion), every counter a vote keeps equals a brute-force recompute from the vote
rows left:

* vote_count (active votes) and counted_votes (active counted ones) of each nomination;
* trend: at several moments ``now``, ``exp(trend - lambda * now)`` equals
  ``sum(exp(-lambda * (now - t)))`` over the nomination's active counted votes, and ordering
  by the column is the brute-force trending order;
* the week counters equal a GROUP BY of the active counted votes over their week, in UTC and
  in a zone far from it (Pacific/Auckland, with daylight saving);
* each member's points: what they had before, plus VOTE_POINTS per active vote of theirs and
  VOTE_RECEIVED_POINTS per active counted vote of another on their nominations; and their
  streaks, as the rule (a first activity on a new day) gives them from the days of their
  casts.

Vote times come from the service's own clock, moved with time-machine (no sleeps)."""

from __future__ import annotations

import contextlib
import itertools
import math
from collections import Counter
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from project.accounts.models import Role, User
from project.accounts.services import user_delete
from project.common.errors import Conflict, NotFound, ValidationFailed
from project.integrity.models import FlagRule, IntegrityFlag
from project.integrity.services.voiding import votes_status_set
from project.scouting.boards.maths import trend_lambda, week_of
from project.scouting.models import Nomination, NominationWeek, Vote, VoteStatus
from project.scouting.points import VOTE_POINTS, VOTE_RECEIVED_POINTS
from project.scouting.services import votes
from tests.builders import make_nomination, make_user

pytestmark = pytest.mark.django_db

HALF_LIFE = 7200.0
# A Sunday morning in UTC: the span below crosses Auckland's Monday (Sunday ~11:00 UTC) and
# then UTC's.
START = datetime(2030, 3, 31, 6, 0, tzinfo=UTC)
SPAN = 20 * HALF_LIFE  # weights down to 2**-20 of the newest

CAST, REMOVE, VOID, RESTORE, DELETE = "cast", "remove", "void", "restore", "delete"
# The members: each nominates one of the three nominations (the fourth member none) and
# votes. Members 0 and 1 joined long before START; member 2 midway (votes before
# MIDWAY + 1 hour do not count), member 3 after the span (none of theirs counts).
MEMBERS = 4
MIDWAY = START + timedelta(seconds=SPAN / 2)
TRUST_HOURS = 1

# A step: what (casts and removals most often, an account's deletion seldom), the nomination
# (a cast's, a removal's, a flag's), the member (a cast's or removal's voter, the one deleted,
# or one of those whose votes between each other are voided or restored), when (seconds after
# START, for casts and removals), and for a void or restore the other members chosen and
# whether a flag of one nomination's votes by them chooses instead.
KINDS = [CAST] * 5 + [REMOVE] * 2 + [VOID] * 2 + [RESTORE] * 2 + [DELETE]
operations = st.lists(
    st.tuples(
        st.sampled_from(KINDS),
        st.integers(0, 2),
        st.integers(0, MEMBERS - 1),
        st.floats(0, SPAN, allow_nan=False),
        st.sets(st.integers(0, MEMBERS - 1), min_size=1, max_size=MEMBERS),
        st.booleans(),
    ),
    min_size=12,
    max_size=40,
)


examples = hypothesis_settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


class Rollback(Exception):
    """Ends an example's transaction so the next starts from the same rows."""


def counted_votes() -> Any:
    return Vote.objects.filter(status=VoteStatus.ACTIVE, counted=True)


def brute_weights(nominations: list[int], now: datetime) -> dict[int, float]:
    rate = trend_lambda()
    weights = dict.fromkeys(nominations, 0.0)
    for nomination_id, voted_at in counted_votes().values_list("nomination_id", "created_at"):
        weights[nomination_id] += math.exp(-rate * (now - voted_at).total_seconds())
    return weights


def check_trend(nominations: list[int], now: datetime, tolerance: float) -> None:
    rate = trend_lambda()
    expected = brute_weights(nominations, now)
    stored = dict(Nomination.objects.values_list("pk", "trend"))
    assert sorted(stored) == sorted(nominations)
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


def check_weeks() -> None:
    expected = Counter(
        (nomination_id, week_of(voted_at))
        for nomination_id, voted_at in counted_votes().values_list("nomination_id", "created_at")
    )
    stored = {
        (nomination_id, week): votes
        for nomination_id, week, votes in NominationWeek.objects.values_list(
            "nomination_id", "week", "votes"
        )
        if votes
    }
    assert stored == dict(expected)


def check_counts() -> None:
    active = Vote.objects.filter(status=VoteStatus.ACTIVE)
    expected = {
        pk: (
            active.filter(nomination_id=pk).count(),
            active.filter(nomination_id=pk, counted=True).count(),
        )
        for pk in Nomination.objects.values_list("pk", flat=True)
    }
    stored = {
        pk: (vote_count, counted)
        for pk, vote_count, counted in Nomination.objects.values_list(
            "pk", "vote_count", "counted_votes"
        )
    }
    assert stored == expected


Progress = tuple[int, int, int, date | None]  # points, current and longest streak, last day


def progress_of(user_ids: list[int]) -> dict[int, Progress]:
    return {
        pk: (points, current, longest, last)
        for pk, points, current, longest, last in User.objects.filter(pk__in=user_ids).values_list(
            "pk", "points", "current_streak", "longest_streak", "last_activity_date"
        )
    }


def streak_after(progress: Progress, today: date) -> Progress:
    """The streak rule (project/accounts/progress.py) for one more activity on ``today``."""
    points, current, longest, last = progress
    if last is not None and last >= today:
        return progress
    current = current + 1 if last == today - timedelta(days=1) else 1
    return points, current, max(longest, current), today


def check_progress(before: dict[int, Progress], cast_days: dict[int, list[date]]) -> None:
    """Points: before, plus each active vote's points from the rows left; streaks: before,
    advanced by the day of each cast in turn."""
    alive = list(User.objects.filter(pk__in=before).values_list("pk", flat=True))
    expected = {}
    for pk in alive:
        progress = before[pk]
        for day in cast_days[pk]:
            progress = streak_after(progress, day)
        given = Vote.objects.filter(user_id=pk, status=VoteStatus.ACTIVE).count()
        received = (
            counted_votes().filter(nomination__nominated_by_id=pk).exclude(user_id=pk).count()
        )
        points = before[pk][0] + given * VOTE_POINTS + received * VOTE_RECEIVED_POINTS
        expected[pk] = (points, *progress[1:])
    assert progress_of(alive) == expected


def vote(kind: str, *, voter: User, nomination_id: int) -> bool:
    """Cast or take back a vote; whether a vote was cast."""
    try:
        if kind == CAST:
            votes.vote_cast(user=voter, nomination_id=nomination_id)
            return True
        votes.vote_remove(user=voter, nomination_id=nomination_id)
    except (Conflict, NotFound):
        pass
    return False


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Auckland"])
def test_every_counter_equals_a_recompute_from_the_votes_whatever_path_moved_them(
    zone: str, settings: Any
) -> None:
    settings.BOARD_TRENDING_HALF_LIFE = HALF_LIFE
    settings.BOARD_WEEK_TIME_ZONE = zone
    settings.TRUST_ACCOUNT_AGE_HOURS = TRUST_HOURS
    member_ids = [make_user(name=f"Member {n}").pk for n in range(MEMBERS)]
    joined = {2: MIDWAY, 3: START + timedelta(seconds=SPAN + 1)}
    for index, moment in joined.items():
        User.objects.filter(pk=member_ids[index]).update(date_joined=moment)
    admin = make_user(role=Role.ADMIN)

    @examples
    @given(operations)
    def example(steps: list[tuple[Any, ...]]) -> None:
        try:
            with transaction.atomic():
                run(steps)
                raise Rollback
        except Rollback:
            pass

    def run(steps: list[tuple[Any, ...]]) -> None:
        members = list(User.objects.filter(pk__in=member_ids).order_by("pk"))
        nominations = [make_nomination(members[n]).pk for n in range(3)]
        before = progress_of(member_ids)
        cast_days: dict[int, list[date]] = {pk: [] for pk in member_ids}
        deleted: set[int] = set()
        newest = START
        for number, (kind, nomination_index, member, offset, chosen, by_flag) in enumerate(steps):
            nomination_id = nominations[nomination_index]
            if kind in (CAST, REMOVE):
                if member in deleted:
                    continue
                moment = START + timedelta(seconds=offset)
                newest = max(newest, moment)
                with time_machine.travel(moment, tick=False):
                    voter = members[member]
                    if vote(kind, voter=voter, nomination_id=nomination_id):
                        cast_days[voter.pk].append(timezone.localdate())
            elif kind in (VOID, RESTORE):
                accounts = [member_ids[n] for n in sorted(chosen) if n not in deleted]
                with contextlib.suppress(NotFound, ValidationFailed):
                    if by_flag:
                        flag = IntegrityFlag.objects.create(
                            rule=FlagRule.SHARED_PREFIX,
                            subject=f"property {number}",
                            nomination_id=nomination_id,
                            accounts=accounts,
                        )
                        votes_status_set(
                            admin=admin, reason="Ring", void=kind == VOID, flag_id=flag.pk
                        )
                    else:
                        user_ids = sorted({member_ids[member], *accounts})
                        votes_status_set(
                            admin=admin, reason="Ring", void=kind == VOID, user_ids=user_ids
                        )
            elif member not in deleted:
                deleted.add(member)
                user_delete(user=members[member])
        alive = list(Nomination.objects.filter(pk__in=nominations).values_list("pk", flat=True))
        # Cancellation when a dominant vote leaves costs absolute precision in proportion to
        # the largest weight the column has held (at most 1 at ``newest``, decaying alike for
        # every nomination afterwards).
        for later in (0.0, HALF_LIFE, 5 * HALF_LIFE):
            now = newest + timedelta(seconds=later)
            check_trend(alive, now, tolerance=1e-7 * 2 ** (-later / HALF_LIFE))
        check_weeks()
        check_counts()
        check_progress(before, cast_days)

    example()
