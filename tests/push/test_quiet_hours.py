"""A teen account's quiet hours: no email or push from 21:00 to 08:00 in the member's time
zone. What falls in them is deferred to 08:00 there, not dropped; an adult's goes at once."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.core import mail
from django_tasks_db.models import DBTaskResult

from project.accounts.ages import quiet_until
from project.accounts.models import User
from project.notify.services import events_dispatch
from project.push.vapid import VapidKeys
from project.scouting.services import votes
from tests.builders import make_nomination, make_user
from tests.helpers import run_tasks
from tests.push.service import PushService
from tests.push.test_push_delivery import subscribe

pytestmark = pytest.mark.django_db

PARIS = ZoneInfo("Europe/Paris")
TOKYO = ZoneInfo("Asia/Tokyo")


def at(text: str, zone: ZoneInfo = PARIS) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=zone)


def teen(**fields: Any) -> User:
    return make_user(birth_year=2011, **fields)


@pytest.mark.parametrize(
    ("local", "until"),
    [
        ("2026-06-15T07:59:59", "2026-06-15T08:00:00"),
        ("2026-06-15T08:00:00", None),
        ("2026-06-15T20:59:59", None),
        ("2026-06-15T21:00:00", "2026-06-16T08:00:00"),
        ("2026-06-15T23:30:00", "2026-06-16T08:00:00"),
        # Summer time ends overnight: 08:00 is still 08:00 on the wall clock.
        ("2026-10-24T22:00:00", "2026-10-25T08:00:00"),
    ],
)
def test_quiet_hours_of_a_teen_in_their_time_zone(local: str, until: str | None) -> None:
    member = teen(time_zone="Europe/Paris")
    result = quiet_until(member, at(local))
    if until is None:
        assert result is None
    else:
        assert result == at(until)
        assert result.utcoffset() == at(until).utcoffset()


def test_an_adult_and_an_unknown_age_have_no_quiet_hours() -> None:
    night = at("2026-06-15T23:00:00")
    assert quiet_until(make_user(time_zone="Europe/Paris"), night) is None
    assert quiet_until(make_user(birth_year=None, time_zone="Europe/Paris"), night) is None


def test_without_a_time_zone_the_boards_is_used(settings: Any) -> None:
    settings.BOARD_WEEK_TIME_ZONE = "Asia/Tokyo"
    member = teen()
    assert quiet_until(member, at("2026-06-15T22:00:00", TOKYO)) == at("2026-06-16T08:00:00", TOKYO)
    assert quiet_until(member, at("2026-06-15T12:00:00", TOKYO)) is None


def _tasks(name: str) -> list[DBTaskResult]:
    return [row for row in DBTaskResult.objects.all() if row.task_path.endswith(name)]


def test_a_teens_email_and_push_in_quiet_hours_wait_for_8_in_their_zone(
    scout: User, vapid: VapidKeys, push_service: PushService
) -> None:
    member = teen(time_zone="Europe/Paris", name="Tia Teen")
    nomination = make_nomination(member, name="Vera Voted")
    subscribe(member, push_service)
    morning = at("2026-06-16T08:00:00")
    with time_machine.travel(at("2026-06-15T22:15:00"), tick=True):
        votes.vote_cast(user=scout, nomination_id=nomination.pk)
        assert events_dispatch().emails == 1
        [email_task] = _tasks("send_email")
        [push_task] = _tasks("send_push")
        assert email_task.run_after == morning
        assert push_task.run_after == morning
        # Nothing goes during the night.
        assert run_tasks() == 0
        assert mail.outbox == [] and push_service.received == []
    with time_machine.travel(at("2026-06-16T08:00:01"), tick=True):
        run_tasks()
        [email] = mail.outbox
        assert email.to == [member.email]
        assert len(push_service.received) == 1


def test_an_adults_email_and_push_go_at_once_at_night(
    scout: User, vapid: VapidKeys, push_service: PushService
) -> None:
    member = make_user(time_zone="Europe/Paris")
    nomination = make_nomination(member)
    subscribe(member, push_service)
    with time_machine.travel(at("2026-06-15T22:15:00"), tick=True):
        votes.vote_cast(user=scout, nomination_id=nomination.pk)
        assert events_dispatch().emails == 1
        run_tasks()
        assert len(mail.outbox) == 1
        assert len(push_service.received) == 1
