"""A member's own age: the band their year of birth puts them in, and the quiet hours of a teen
account.

Only the year of birth is asked, so a member's age is known to within a year. Every rule reads
the youngest age the year allows (the age before this year's birthday): a member born in 2013
counts as 12 all through 2026, so no one under 13 gets an account and no one under 18 loses a
teen account's protections because of a birthday the product cannot know."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

if TYPE_CHECKING:
    from project.accounts.models import User

MINIMUM_AGE = 13
ADULT_AGE = 18
OLDEST_BIRTH_YEAR = 1900
UNDER_MINIMUM_AGE = "ScoutVote accounts are for people aged 13 and over."
# A teen account receives no email or push from 21:00 to 08:00 in its time zone.
QUIET_FROM = time(21, 0)
QUIET_UNTIL = time(8, 0)


class AgeBand(StrEnum):
    UNDER_13 = "under_13"
    TEEN = "teen"
    ADULT = "adult"
    UNKNOWN = "unknown"


def youngest_age(birth_year: int, *, year: int) -> int:
    """The youngest a member born in ``birth_year`` can be during ``year``."""
    return year - birth_year - 1


def age_band_of(birth_year: int | None, *, now: datetime | None = None) -> AgeBand:
    if birth_year is None:
        return AgeBand.UNKNOWN
    age = youngest_age(birth_year, year=timezone.localdate(now or timezone.now()).year)
    if age < MINIMUM_AGE:
        return AgeBand.UNDER_13
    if age < ADULT_AGE:
        return AgeBand.TEEN
    return AgeBand.ADULT


def teen_birth_years(*, now: datetime | None = None) -> Q:
    """The condition on users' ``birth_year`` that picks teen accounts (and any under 13 the
    product still holds), for queries: everyone whose youngest age is under 18."""
    year = timezone.localdate(now or timezone.now()).year
    return Q(birth_year__gt=year - ADULT_AGE - 1)


@cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones())


def is_time_zone(name: str) -> bool:
    """Whether ``name`` is an IANA time zone this server knows ("Europe/Paris")."""
    return name in _zones()


def zone_of(user: User) -> ZoneInfo:
    """The member's time zone: theirs when set (the browser's, sent at registration or sign-in,
    or chosen in Settings), else the board's (``BOARD_WEEK_TIME_ZONE``)."""
    for name in (user.time_zone, settings.BOARD_WEEK_TIME_ZONE):
        if name:
            try:
                return ZoneInfo(name)
            except (ZoneInfoNotFoundError, ValueError):
                continue
    return ZoneInfo("UTC")


def quiet_until(user: User, now: datetime | None = None) -> datetime | None:
    """When an email or a push to ``user`` may go: None for at once, or the end of a teen
    account's quiet hours (08:00 in their time zone) while they last. Every place that
    enqueues an email or a push to a member sets its run-after time from this."""
    now = now or timezone.now()
    if age_band_of(user.birth_year, now=now) not in (AgeBand.TEEN, AgeBand.UNDER_13):
        return None
    local = now.astimezone(zone_of(user))
    if QUIET_UNTIL <= local.time() < QUIET_FROM:
        return None
    day = local.date() if local.time() < QUIET_UNTIL else local.date() + timedelta(days=1)
    # Built from the wall-clock time so a change of offset overnight (summer time) is kept.
    return datetime.combine(day, QUIET_UNTIL, tzinfo=local.tzinfo)
