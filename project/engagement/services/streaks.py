"""An adult member's streak: consecutive local days with a vote or a nomination.

- A day is the member's (their time zone, ``clock.local_day``), so a vote at 00:30 counts for
  the day the member lives in, summer time or not.
- Missed days are covered by freezes, two a month (the month of the day missed), spent
  automatically on the first days missed; a frozen day keeps the streak without adding to it.
- A day missed with no freeze left breaks the streak; activity within 48 hours of the end of
  that day earns it back (the old length, plus the day of the activity).
- The streak is private: it shows on the member's profile only when they turn ``showStreak``
  on. Nothing about a streak is ever emailed or pushed, so it never nudges anyone at night.

Teen accounts, accounts with no stated age, claimant athletes and players' accounts keep no
streak here (``gate.engagement_allowed``)."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from project.accounts.models import User
from project.engagement import gate
from project.engagement.clock import day_start, local_day, month_start
from project.engagement.models import Streak
from project.engagement.schemas import StreakOut

FREEZES_PER_MONTH = 2
REPAIR_WINDOW = timedelta(hours=48)


def _settle(streak: Streak, *, user: User, today: date, now: datetime) -> None:
    """Bring the streak up to yesterday: freeze or break on each day missed since its last
    day (idempotent: the days settled move ``last_day`` on), and forget a repair window that
    ended."""
    if streak.repair_until is not None and now > streak.repair_until:
        streak.broken_length = 0
        streak.repair_until = None
    if streak.last_day is None:
        return
    day = streak.last_day + timedelta(days=1)
    while day < today:
        if streak.current > 0:
            month = month_start(day)
            if streak.freezes_month != month:
                streak.freezes_month, streak.freezes_used = month, 0
            if streak.freezes_used < FREEZES_PER_MONTH:
                streak.freezes_used += 1
            else:
                streak.broken_length = streak.current
                streak.current = 0
                streak.repair_until = day_start(user, day + timedelta(days=1)) + REPAIR_WINDOW
                if now > streak.repair_until:
                    streak.broken_length, streak.repair_until = 0, None
        streak.last_day = day
        day += timedelta(days=1)


def _locked(user: User) -> Streak:
    try:
        with transaction.atomic():
            Streak.objects.get_or_create(user_id=user.pk)
    except IntegrityError:
        pass
    return Streak.objects.select_for_update().get(user_id=user.pk)


def streak_touch(*, user: User, now: datetime | None = None) -> Streak | None:
    """Count today (the member's) for ``user``'s streak: the first activity of a day extends
    it, earns a broken one back inside its window, or starts a new one."""
    if not gate.engagement_allowed(user):
        return None
    now = now or timezone.now()
    today = local_day(user, now)
    with transaction.atomic():
        streak = _locked(user)
        _settle(streak, user=user, today=today, now=now)
        if streak.last_day != today:
            if streak.broken_length and streak.repair_until and now <= streak.repair_until:
                streak.current = streak.broken_length + 1
            elif streak.last_day == today - timedelta(days=1):
                streak.current += 1
            else:
                streak.current = 1
            streak.broken_length, streak.repair_until = 0, None
            streak.last_day = today
            streak.longest = max(streak.longest, streak.current)
        streak.save()
    return streak


def streak_read(*, user: User, now: datetime | None = None) -> StreakOut:
    """The member's streak as of now (missed days frozen or broken), saved as settled."""
    now = now or timezone.now()
    today = local_day(user, now)
    with transaction.atomic():
        streak = _locked(user)
        _settle(streak, user=user, today=today, now=now)
        streak.save()
    month = month_start(today)
    used = streak.freezes_used if streak.freezes_month == month else 0
    return StreakOut(
        current=streak.current,
        longest=streak.longest,
        last_day=streak.last_day if streak.current else None,
        freezes_left=FREEZES_PER_MONTH - used,
        broken_length=streak.broken_length,
        repair_until=streak.repair_until,
        shown_on_profile=gate.engagement_settings_of(user).show_streak,
    )
