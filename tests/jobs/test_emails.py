"""Emails go through the worker: enqueued in the transaction that causes them, sent to a real
SMTP server. What every channel shares (once per key, retries, leases, parking, the
operator's retry) is in tests/jobs/test_delivery_states.py; here is what is email's."""

from __future__ import annotations

import time
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.core import mail
from django.db import transaction
from django.test import Client
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from project.accounts.models import User
from project.jobs.models import Delivery, DeliveryStatus
from project.jobs.selectors import worker_health
from project.jobs.services import email_enqueue
from project.jobs.tasks import delivery_enqueue
from project.notify.models import NotificationEmail, OutboundEvent
from project.notify.services import events_dispatch
from project.scouting.services import votes
from project.sharing.models import CardRedraw
from tests.builders import make_nomination, make_user
from tests.helpers import ApiClient, run_tasks
from tests.jobs.smtp import SmtpServer

pytestmark = pytest.mark.django_db


def test_a_vote_s_email_reaches_the_smtp_server_through_the_worker(
    scout_api: ApiClient, other_scout: User, smtp_settings: SmtpServer
) -> None:
    nomination = make_nomination(other_scout, name="Vera Voted")
    response = scout_api.post("/api/votes", {"nominationId": nomination.pk})
    assert response.status_code in (200, 201), response.content
    # The request sent nothing: the email waits for the worker.
    assert smtp_settings.received == []
    assert Delivery.objects.count() == 0
    # The minute's dispatch folds the vote's event into an email; the worker sends it.
    assert events_dispatch().emails == 1
    assert run_tasks() == 1
    [received] = smtp_settings.received
    assert received.recipients == [other_scout.email]
    assert received.subject == "Your nomination received a vote"
    assert received.body.splitlines()[0] == "Sam Scout voted for Vera Voted. It now has 1 vote."
    delivery = Delivery.objects.get()
    assert delivery.status == DeliveryStatus.SENT and delivery.attempts == 1
    assert received.message_id == delivery.message_id


def test_a_rolled_back_vote_enqueues_and_sends_nothing(
    scout: User, other_scout: User, smtp_settings: SmtpServer
) -> None:
    nomination = make_nomination(other_scout)
    # The new nomination's first card drawn: the vote then asks for a redraw of its own.
    DBTaskResult.objects.all().delete()
    CardRedraw.objects.all().delete()
    with pytest.raises(RuntimeError), transaction.atomic():
        votes.vote_cast(user=scout, nomination_id=nomination.pk)
        # Recorded inside the vote's transaction (beside the share card's redraw task).
        assert OutboundEvent.objects.count() == 1
        assert DBTaskResult.objects.count() == 1
        raise RuntimeError("the vote fails after its notification")
    assert OutboundEvent.objects.count() == 0
    assert events_dispatch().emails == 0
    assert DBTaskResult.objects.count() == 0  # the redraw's task rolled back as well
    assert run_tasks() == 0
    assert smtp_settings.received == [] and Delivery.objects.count() == 0


def _attempt_until_parked(smtp: SmtpServer) -> list[float]:
    """Run the email's attempts as their time comes; returns the delays the worker chose."""
    delays: list[float] = []
    for _ in range(10):
        run_tasks()
        delivery = Delivery.objects.get()
        if delivery.status == DeliveryStatus.PARKED:
            return delays
        assert delivery.status == DeliveryStatus.PENDING and delivery.next_attempt_at
        waiting = DBTaskResult.objects.get(status=TaskResultStatus.READY)
        # From the attempt's task's end: a slow test run does not shorten it.
        done = DBTaskResult.objects.exclude(finished_at=None).latest("finished_at")
        assert done.finished_at is not None
        delays.append(round((waiting.run_after - done.finished_at).total_seconds(), 1))
        # Not before its time: the worker finds nothing ready yet.
        assert run_tasks() == 0
        time.sleep(max((delivery.next_attempt_at - timezone.now()).total_seconds(), 0) + 0.05)
    raise AssertionError("never parked")


def test_a_permanent_smtp_refusal_is_retried_with_backoff_then_parked(
    smtp_settings: SmtpServer,
) -> None:
    # A 5xx is retried like a 4xx (tests/jobs/test_delivery_states.py): the server's mailbox
    # may be back by the next attempt, and the operator sees it parked either way.
    failure = "550 5.1.1 No such user"
    smtp_settings.handler.refuse_with = failure
    with transaction.atomic():
        email_enqueue(key="test:refused", to="a@example.com", subject="S", body="B")
    delays = _attempt_until_parked(smtp_settings)
    # JOBS_RETRY_DELAY 0.2 s doubling, three attempts: two waits.
    assert delays == [pytest.approx(0.2, abs=0.1), pytest.approx(0.4, abs=0.1)]
    delivery = Delivery.objects.get()
    assert delivery.attempts == 3 and failure.split()[0] in delivery.last_error
    assert smtp_settings.received == []
    assert worker_health()["parked"] == 1


def test_an_unreachable_server_is_retried_and_the_email_goes_once_it_answers(
    settings: Any, smtp_settings: SmtpServer
) -> None:
    settings.EMAIL_PORT = 1  # nothing listens there
    with transaction.atomic():
        email_enqueue(key="test:later", to="a@example.com", subject="Later", body="B")
    run_tasks()
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.PENDING, 1)
    assert "Connection" in delivery.last_error or "refused" in delivery.last_error.lower()
    settings.EMAIL_PORT = smtp_settings.port
    time.sleep(settings.JOBS_RETRY_DELAY + 0.05)
    run_tasks()
    assert [r.subject for r in smtp_settings.received] == ["Later"]
    assert Delivery.objects.get().status == DeliveryStatus.SENT


def test_the_admin_sees_parked_emails_and_sends_them_again(
    smtp_settings: SmtpServer, admin_user: User
) -> None:
    smtp_settings.handler.refuse_with = "554 5.7.1 Rejected"
    with transaction.atomic():
        email_enqueue(key="test:admin", to="p@example.com", subject="Admin", body="B")
    _attempt_until_parked(smtp_settings)
    admin_user.is_staff = admin_user.is_superuser = True
    admin_user.save()
    client = Client()
    client.force_login(admin_user)
    listing = client.get("/admin-django/jobs/delivery/?status__exact=parked")
    assert listing.status_code == 200 and b"test:admin" in listing.content
    smtp_settings.handler.refuse_with = None
    delivery = Delivery.objects.get()
    answer = client.post(
        "/admin-django/jobs/delivery/",
        {"action": "retry_parked", "_selected_action": [delivery.pk]},
    )
    assert answer.status_code == 302
    run_tasks()
    assert [r.subject for r in smtp_settings.received] == ["Admin"]


def test_staff_who_may_only_view_deliveries_do_not_send_them_again(
    smtp_settings: SmtpServer,
) -> None:
    smtp_settings.handler.refuse_with = "554 5.7.1 Rejected"
    with transaction.atomic():
        email_enqueue(key="test:viewer", to="p@example.com", subject="Viewer", body="B")
    _attempt_until_parked(smtp_settings)
    smtp_settings.handler.refuse_with = None
    staff = make_user(is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_delivery"))
    client = Client()
    client.force_login(staff)
    listing = client.get("/admin-django/jobs/delivery/")
    assert listing.status_code == 200 and b"test:viewer" in listing.content
    assert b'value="retry_parked"' not in listing.content
    delivery = Delivery.objects.get()
    client.post(
        "/admin-django/jobs/delivery/",
        {"action": "retry_parked", "_selected_action": [delivery.pk]},
    )
    assert run_tasks() == 0 and smtp_settings.received == []
    assert Delivery.objects.get().status == DeliveryStatus.PARKED


def test_health_shows_queue_depth_and_the_oldest_task_s_age(settings: Any) -> None:
    with transaction.atomic():
        email_enqueue(key="test:waiting", to="a@example.com", subject="S", body="B")
    DBTaskResult.objects.update(enqueued_at=timezone.now() - timedelta(minutes=5))
    health = worker_health()
    assert health["queue_depth"] == 1 and health["last_heartbeat"] is None
    assert health["oldest_ready_age_seconds"] == pytest.approx(300, abs=5)
    assert mail.outbox == []


def test_a_name_with_line_breaks_written_before_they_were_refused_is_sent_on_one_line(
    smtp_settings: SmtpServer, scout: User, other_scout: User
) -> None:
    # Written straight to the table, as names were before the API refused control characters.
    nomination = make_nomination(other_scout, name="Kai\r\nBcc: all@example.com\tTanaka")
    voters = [make_user(username=f"fan{n}", name=f"Fan {n}") for n in range(3)]
    start = timezone.now()
    votes.vote_cast(user=voters[0], nomination_id=nomination.pk)
    assert events_dispatch(start).emails == 1
    for voter in voters[1:]:
        votes.vote_cast(user=voter, nomination_id=nomination.pk)
    sent_at = NotificationEmail.objects.get().sent_at
    # The folded email's subject names the player.
    assert events_dispatch(sent_at + timedelta(hours=1, seconds=1)).emails == 1
    assert run_tasks() == 2
    subjects = [received.subject for received in smtp_settings.received]
    assert subjects == [
        "Your nomination received a vote",
        "2 new votes on Kai Bcc: all@example.com Tanaka in the last hour",
    ]
    assert [str(r.message["Bcc"]) for r in smtp_settings.received] == ["None", "None"]
    assert all(d.status == DeliveryStatus.SENT for d in Delivery.objects.all())


def test_a_delivery_stored_with_a_broken_subject_is_sent_on_one_line(
    smtp_settings: SmtpServer,
) -> None:
    with transaction.atomic():
        email_enqueue(key="test:clean", to="a@example.com", subject="Clean\r\nsubject", body="B")
    # A row (and its task) from before subjects were cleaned: the send cleans it.
    Delivery.objects.create(
        key="test:old",
        recipients=["b@example.com"],
        subject="Old\nsubject\x0b",
        body="B",
        status=DeliveryStatus.PENDING,
    )
    with transaction.atomic():
        delivery_enqueue(Delivery.objects.get(key="test:old"))
    assert run_tasks() == 2
    assert sorted(r.subject for r in smtp_settings.received) == ["Clean subject", "Old subject"]
    assert Delivery.objects.get(key="test:clean").subject == "Clean subject"
