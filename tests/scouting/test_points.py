from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from project.accounts import progress
from project.accounts.models import User
from project.scouting.services import votes
from tests.builders import make_nomination
from tests.helpers import EventRecorder

pytestmark = pytest.mark.django_db

DAY = date(2030, 5, 10)


def state(user: User) -> tuple[int, int, int, date | None]:
    user.refresh_from_db()
    return user.points, user.current_streak, user.longest_streak, user.last_activity_date


def test_points_add_and_floor(scout: User) -> None:
    progress.user_points_add(user_id=scout.pk, delta=25)
    assert state(scout)[0] == 25
    progress.user_points_add(user_id=scout.pk, delta=-3)
    assert state(scout)[0] == 22
    progress.user_points_add(user_id=scout.pk, delta=-100)
    assert state(scout)[0] == 0


def test_streak_rules(scout: User) -> None:
    progress.user_streak_touch(user_id=scout.pk, today=DAY)
    assert state(scout)[1:] == (1, 1, DAY)
    progress.user_streak_touch(user_id=scout.pk, today=DAY)
    assert state(scout)[1:] == (1, 1, DAY), "a second action the same day changes nothing"
    progress.user_streak_touch(user_id=scout.pk, today=DAY + timedelta(days=1))
    progress.user_streak_touch(user_id=scout.pk, today=DAY + timedelta(days=2))
    assert state(scout)[1:] == (3, 3, DAY + timedelta(days=2))
    progress.user_streak_touch(user_id=scout.pk, today=DAY + timedelta(days=4))
    assert state(scout)[1:] == (1, 3, DAY + timedelta(days=4)), "a missed day resets"
    progress.user_streak_touch(user_id=scout.pk, today=DAY + timedelta(days=5))
    assert state(scout)[1:] == (2, 3, DAY + timedelta(days=5))


def test_an_earlier_date_never_rewinds_the_streak(scout: User) -> None:
    progress.user_streak_touch(user_id=scout.pk, today=DAY)
    progress.user_streak_touch(user_id=scout.pk, today=DAY - timedelta(days=3))
    assert state(scout)[1:] == (1, 1, DAY)


def test_nominations_and_votes_advance_the_streak(scout: User, other_scout: User) -> None:
    make_nomination(scout, today=DAY)
    assert state(scout) == (10, 1, 1, DAY)
    nomination = make_nomination(other_scout)
    votes.vote_cast(user=scout, nomination_id=nomination.pk, today=DAY + timedelta(days=1))
    assert state(scout) == (11, 2, 2, DAY + timedelta(days=1))
    votes.vote_remove(user=scout, nomination_id=nomination.pk)
    assert state(scout) == (10, 2, 2, DAY + timedelta(days=1)), "removing keeps the streak"


def test_profile_changed_is_published_per_change(
    scout: User, events: EventRecorder, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        progress.user_points_add(user_id=scout.pk, delta=25)
    event = events.one("profile.changed")
    assert event.user_ids == (scout.pk,) and event.sport is None and not event.admins
    assert event.data == {"points": 25, "currentStreak": 0, "longestStreak": 0}
