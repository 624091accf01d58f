"""Days and weeks in the member's time zone (``project.accounts.ages.zone_of``): a quest's
period, a streak's day. Built from wall-clock dates, so a change of offset (summer time) moves
the instant a period ends, never the day it ends on."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.utils import timezone

from project.accounts.ages import zone_of
from project.accounts.models import User


def local_now(user: User, now: datetime | None = None) -> datetime:
    return (now or timezone.now()).astimezone(zone_of(user))


def local_day(user: User, now: datetime | None = None) -> date:
    return local_now(user, now).date()


def day_start(user: User, day: date) -> datetime:
    """Midnight starting ``day`` in the member's zone, as an aware datetime."""
    return datetime.combine(day, time(0), tzinfo=zone_of(user))


def week_start(day: date) -> date:
    """The Monday of ``day``'s week."""
    return day - timedelta(days=day.weekday())


def month_start(day: date) -> date:
    return day.replace(day=1)
