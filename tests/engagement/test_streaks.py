"""Streaks: local days (across a DST change, with the clock shifted), two freezes a month
applied on their own, a broken streak earned back within 48 hours."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine

from project.accounts.models import User
from project.engagement.models import Streak
from project.engagement.services.streaks import streak_read, streak_touch
from tests.builders import make_nomination, make_user
from tests.helpers import ApiClient

pytestmark = pytest.mark.django_db


def paris() -> User:
    return make_user(birth_year=1990, time_zone="Europe/Paris")


def at(year: int, month: int, day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def test_days_are_the_members_across_a_dst_change() -> None:
    user = paris()
    # Saturday 28 March 2026, 23:30 in Paris (22:30 UTC, CET).
    streak_touch(user=user, now=at(2026, 3, 28, 22, 30))
    # Sunday 29, 00:30 in Paris (23:30 UTC on the 28th): the next local day, though UTC
    # still reads the 28th.
    streak = streak_touch(user=user, now=at(2026, 3, 28, 23, 30))
    assert streak is not None
    assert (streak.current, streak.last_day) == (2, date(2026, 3, 29))
    # Monday 30, 00:30 in Paris, now CEST (22:30 UTC on the 29th): a third day.
    streak = streak_touch(user=user, now=at(2026, 3, 29, 22, 30))
    assert streak is not None
    assert (streak.current, streak.last_day) == (3, date(2026, 3, 30))
    # Again the same local day: nothing more.
    streak = streak_touch(user=user, now=at(2026, 3, 30, 9, 0))
    assert streak is not None and streak.current == 3


def test_a_vote_with_the_clock_shifted_counts_the_local_day() -> None:
    user = paris()
    client = ApiClient().login(user)
    with time_machine.travel(at(2026, 10, 24, 21, 30), tick=False):  # 23:30 CEST, the 24th
        client.post("/api/votes", {"nominationId": make_nomination().pk})
    # Clocks go back at 03:00 on the 25th; 23:30 UTC on the 25th is 00:30 CET on the 26th.
    with time_machine.travel(at(2026, 10, 25, 23, 30), tick=False):
        client.post("/api/votes", {"nominationId": make_nomination().pk})
        body = client.get("/api/streak").json()
    # The 25th was missed in Paris: a freeze covered it.
    assert (body["current"], body["lastDay"], body["freezesLeft"]) == (2, "2026-10-26", 1)


def test_two_freezes_a_month_then_the_streak_breaks() -> None:
    user = paris()
    for day in range(1, 4):  # 1 to 3 June
        streak_touch(user=user, now=at(2026, 6, day, 10))
    # The 4th and 5th are missed: two freezes keep the streak of 3.
    streak = streak_touch(user=user, now=at(2026, 6, 6, 10))
    assert streak is not None
    assert (streak.current, streak.freezes_used) == (4, 2)
    # The 7th is missed with no freeze left: broken on the 8th.
    read = streak_read(user=user, now=at(2026, 6, 8, 10))
    assert (read.current, read.broken_length, read.freezes_left) == (0, 4, 0)
    assert read.repair_until == datetime(2026, 6, 8, tzinfo=UTC) - timedelta(hours=2) + timedelta(
        hours=48
    )
    # A new month brings two freezes again.
    assert streak_read(user=user, now=at(2026, 7, 1, 10)).freezes_left == 2


def test_a_broken_streak_is_earned_back_within_48_hours() -> None:
    user = paris()
    Streak.objects.create(
        user=user,
        current=10,
        longest=10,
        last_day=date(2026, 6, 1),
        freezes_month=date(2026, 6, 1),
        freezes_used=2,
    )
    # The 2nd is missed (no freeze left): broken at 00:00 on the 3rd in Paris; a vote on the
    # 4th at 20:00 Paris is 44 hours later.
    streak = streak_touch(user=user, now=at(2026, 6, 4, 18))
    assert streak is not None
    assert (streak.current, streak.longest, streak.broken_length) == (11, 11, 0)


def test_past_48_hours_a_broken_streak_starts_again() -> None:
    user = paris()
    Streak.objects.create(
        user=user,
        current=10,
        longest=10,
        last_day=date(2026, 6, 1),
        freezes_month=date(2026, 6, 1),
        freezes_used=2,
    )
    # Broken at 00:00 on the 3rd in Paris (22:00 UTC on the 2nd); 48 hours end at 22:00 UTC on
    # the 4th.
    streak = streak_touch(user=user, now=at(2026, 6, 4, 22, 1))
    assert streak is not None
    assert (streak.current, streak.longest) == (1, 10)


def test_a_streak_is_private_until_shown() -> None:
    user = make_user(birth_year=1990)
    client = ApiClient().login(user)
    assert client.get("/api/streak").json()["shownOnProfile"] is False
