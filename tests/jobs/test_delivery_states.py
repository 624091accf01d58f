"""The delivery engine's state machine (``project/jobs/delivery.py``), the same for every
channel: each test runs once over email (a real SMTP server) and once over push (a local push
service that decrypts what it gets). A key is sent once however often its task runs; a failed
attempt is retried after a doubling delay and parked after the last; an attempt under way owns
its row until its lease ends, then another takes over; an operator sends a parked one again.
What only one channel does (push's dropped devices and Retry-After, email's headers and
Message-ID) is tested beside the channel."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from project.jobs.delivery import backoff, retry_delay
from project.jobs.models import DeliveryBase, DeliveryStatus
from project.jobs.services import email_enqueue
from project.push.models import PushDelivery
from project.push.services import push_enqueue
from tests.builders import make_user
from tests.helpers import run_tasks
from tests.jobs.smtp import SmtpServer
from tests.push.conftest import push_service, vapid
from tests.push.service import PushService
from tests.push.test_push_delivery import subscribe

pytestmark = pytest.mark.django_db

__all__ = ["push_service", "vapid"]


@dataclass
class Channel:
    """A channel as the tests drive it: what enqueues one delivery (in a transaction, as a
    service does), what makes the far side fail and answer again, and what it accepted."""

    model: type[DeliveryBase]
    command: str
    enqueue: Callable[[int], None]
    fail: Callable[[], None]
    answer: Callable[[], None]
    accepted: Callable[[], int]


def _email(request: pytest.FixtureRequest) -> Channel:
    from project.jobs.models import Delivery

    smtp: SmtpServer = request.getfixturevalue("smtp_settings")

    def enqueue(number: int) -> None:
        email_enqueue(key=f"test:{number}", to="a@example.com", subject=f"S{number}", body="B")

    def fail() -> None:
        smtp.handler.refuse_with = "451 4.3.0 Try again later"

    def answer() -> None:
        smtp.handler.refuse_with = None

    return Channel(Delivery, "deliveries", enqueue, fail, answer, lambda: len(smtp.received))


def _push(request: pytest.FixtureRequest) -> Channel:
    request.getfixturevalue("vapid")
    service: PushService = request.getfixturevalue("push_service")
    member = make_user()
    subscribe(member, service, "/device")

    def enqueue(number: int) -> None:
        push_enqueue(
            user_id=member.pk,
            title="T",
            body="B",
            nomination_id=None,
            notification_id=number,
        )

    def fail() -> None:
        service.answers["/device"] = 503

    def answer() -> None:
        service.answers["/device"] = 201

    return Channel(
        PushDelivery, "push_deliveries", enqueue, fail, answer, lambda: len(service.accepted())
    )


@pytest.fixture(params=["email", "push"])
def channel(request: pytest.FixtureRequest) -> Channel:
    return {"email": _email, "push": _push}[request.param](request)


def _enqueued(channel: Channel, number: int = 1) -> None:
    with transaction.atomic():
        channel.enqueue(number)


def _waiting() -> Any:
    return DBTaskResult.objects.filter(status=TaskResultStatus.READY)


def _delay_chosen() -> float:
    """The wait the last attempt chose: from its task's end to its retry's ``run_after`` (a
    loaded machine's slow test run does not shorten it)."""
    done = DBTaskResult.objects.exclude(finished_at=None).latest("finished_at")
    assert done.finished_at is not None
    return round((_waiting().get().run_after - done.finished_at).total_seconds(), 1)


def test_a_key_is_sent_once_however_often_its_task_runs(channel: Channel) -> None:
    with transaction.atomic():
        channel.enqueue(1)
        channel.enqueue(1)
    assert run_tasks() == 2
    # The task run once more (a worker killed after sending): nothing goes twice.
    DBTaskResult.objects.update(status=TaskResultStatus.READY)
    assert run_tasks() == 2
    assert channel.accepted() == 1
    delivery = channel.model._default_manager.get()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.SENT, 1)
    assert delivery.sent_at is not None and delivery.lease_until is None


def test_a_failing_send_is_retried_with_a_doubling_delay_then_parked(channel: Channel) -> None:
    channel.fail()
    _enqueued(channel)
    delays: list[float] = []
    for _ in range(10):
        run_tasks()
        delivery = channel.model._default_manager.get()
        if delivery.status == DeliveryStatus.PARKED:
            break
        assert delivery.status == DeliveryStatus.PENDING and delivery.next_attempt_at
        delays.append(_delay_chosen())
        # Not before its time: nothing is ready yet.
        assert run_tasks() == 0
        time.sleep(max((delivery.next_attempt_at - timezone.now()).total_seconds(), 0) + 0.05)
    # JOBS_RETRY_DELAY 0.2 s doubling, three attempts: two waits, then parked.
    assert delays == [pytest.approx(0.2, abs=0.1), pytest.approx(0.4, abs=0.1)]
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.PARKED, 3)
    assert delivery.last_error and delivery.lease_until is None and delivery.sent_at is None
    assert _waiting().count() == 0 and channel.accepted() == 0
    # Its task run once more leaves it parked.
    channel.answer()
    DBTaskResult.objects.update(status=TaskResultStatus.READY)
    run_tasks()
    assert channel.model._default_manager.get().status == DeliveryStatus.PARKED
    assert channel.accepted() == 0


def test_a_failed_attempt_is_retried_and_goes_once_the_far_side_answers(
    channel: Channel, settings: Any
) -> None:
    # A retry a second later: not due before the first attempt's run is over.
    settings.JOBS_RETRY_DELAY = 1
    channel.fail()
    _enqueued(channel)
    run_tasks()
    delivery = channel.model._default_manager.get()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.PENDING, 1)
    assert delivery.last_error and delivery.next_attempt_at is not None
    channel.answer()
    time.sleep(max((delivery.next_attempt_at - timezone.now()).total_seconds(), 0) + 0.05)
    assert run_tasks() == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_error) == (
        DeliveryStatus.SENT,
        2,
        "",
    )
    assert channel.accepted() == 1


def test_an_attempt_under_way_owns_the_delivery_until_its_lease_ends(
    channel: Channel, settings: Any
) -> None:
    settings.JOBS_RETRY_DELAY = 1
    channel.fail()
    _enqueued(channel)
    run_tasks()
    channel.answer()
    rows = channel.model._default_manager
    # Another worker claims the retry and is sending it for 30 seconds more.
    lease = timezone.now() + timedelta(seconds=30)
    rows.update(status=DeliveryStatus.SENDING, lease_until=lease, next_attempt_at=None)
    _waiting().update(run_after=timezone.now())
    assert run_tasks() == 1
    # This task left it alone and comes back when the lease ends.
    delivery = rows.get()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.SENDING, 1)
    assert _waiting().get().run_after == lease
    assert channel.accepted() == 0
    # That worker died: its lease ends, and this attempt takes over.
    rows.update(lease_until=timezone.now() - timedelta(seconds=1))
    _waiting().update(run_after=timezone.now())
    assert run_tasks() == 1
    delivery = rows.get()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.SENT, 2)
    assert channel.accepted() == 1


def test_the_operator_lists_and_sends_parked_deliveries_again(channel: Channel) -> None:
    channel.fail()
    _enqueued(channel)
    for _ in range(10):
        run_tasks()
        if channel.model._default_manager.get().status == DeliveryStatus.PARKED:
            break
        time.sleep(0.25)
    delivery = channel.model._default_manager.get()
    listing = StringIO()
    call_command(channel.command, stdout=listing)
    assert delivery.key in listing.getvalue()
    channel.answer()
    out = StringIO()
    call_command(channel.command, "--retry-all", stdout=out)
    assert "Queued again: 1" in out.getvalue()
    assert run_tasks() == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.SENT, 1)
    assert channel.accepted() == 1
    empty = StringIO()
    call_command(channel.command, stdout=empty)
    assert "No parked deliveries." in empty.getvalue()


def test_retry_delays_double_up_to_the_cap(settings: Any) -> None:
    settings.JOBS_RETRY_DELAY, settings.JOBS_RETRY_MAX_DELAY = 30, 3600
    assert [retry_delay(n) for n in range(1, 9)] == [30, 60, 120, 240, 480, 960, 1920, 3600]
    # A Retry-After longer than the doubling delay is waited, at most the cap.
    assert [backoff(2, asked) for asked in (None, 0, 10, 600, 86400)] == [60, 60, 60, 600, 3600]
