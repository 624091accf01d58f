"""The tasks the worker runs (Django's tasks API, database backend): sending one email, and
running one periodic job."""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from project.common.text import one_line
from project.jobs.models import Delivery, DeliveryStatus

logger = logging.getLogger(__name__)

# The queues: emails, the domain apps' commands (a share card's redraw), and the periodic
# jobs (a slow purge never holds an email back when more than one worker runs; the one
# worker of the product takes them all).
EMAIL_QUEUE = "email"
PERIODIC_QUEUE = "periodic"
COMMAND_QUEUE = "default"
# The worker claims the ready task of the highest priority first, then the earliest
# ``run_after``, where a task enqueued to run at once sorts after every dated one: without
# priorities an email waits behind every share card redraw (dated: a vote asks for it
# SHARE_CARD_REDRAW_DELAY seconds later) that is ready. An email goes first, then the
# periodic jobs (the minute's notification dispatch makes emails), then the domain apps'
# commands; at most one periodic run a minute per job keeps the commands from starving.
EMAIL_PRIORITY = 50
PERIODIC_PRIORITY = 10
COMMAND_PRIORITY = 0


def header_text(value: str) -> str:
    """``value`` as one header line: each run of line breaks, tabs and other control
    characters a space (Django refuses a header with CR or LF, and a retry would not
    change that)."""
    return one_line(value)


def header_values(headers: dict[str, str]) -> dict[str, str]:
    return {name: header_text(value) for name, value in headers.items()}


def retry_delay(attempts: int) -> float:
    """Seconds before the next attempt after ``attempts`` failed ones: doubling from
    JOBS_RETRY_DELAY, at most JOBS_RETRY_MAX_DELAY."""
    delay = settings.JOBS_RETRY_DELAY * 2 ** max(attempts - 1, 0)
    return float(min(delay, settings.JOBS_RETRY_MAX_DELAY))


def _lease() -> timedelta:
    """How long an attempt owns its delivery: connecting, sending and quitting may each take
    up to the SMTP timeout."""
    return timedelta(seconds=settings.EMAIL_TIMEOUT * 3 + 1)


def _claim(
    key: str,
    recipients: list[str],
    subject: str,
    body: str,
    html: str = "",
    headers: dict[str, str] | None = None,
) -> Delivery | None:
    """Take the delivery named ``key`` for one attempt (SENDING, attempts + 1, leased; made on
    its first), committed before the email goes out; None when it is sent or parked, or
    another attempt owns it (then this task comes back when that attempt's lease ends)."""
    now = timezone.now()
    with transaction.atomic():
        delivery = Delivery.objects.select_for_update().filter(key=key).first()
        if delivery is None:
            return Delivery.objects.create(
                key=key,
                recipients=recipients,
                subject=subject,
                body=body,
                html=html,
                headers=headers or {},
                status=DeliveryStatus.SENDING,
                attempts=1,
                lease_until=now + _lease(),
            )
        if delivery.status in (DeliveryStatus.SENT, DeliveryStatus.PARKED):
            return None
        if delivery.next_attempt_at is not None and delivery.next_attempt_at > now:
            # An attempt's task run again after its worker died: the retry it scheduled
            # comes at its time.
            return None
        leased = delivery.lease_until is not None and delivery.lease_until > now
        if delivery.status == DeliveryStatus.SENDING and leased:
            delivery_enqueue(delivery, run_after=delivery.lease_until)
            return None
        # PENDING (a retry), or SENDING by an attempt whose worker died: this one takes over.
        delivery.status = DeliveryStatus.SENDING
        delivery.attempts += 1
        delivery.lease_until = now + _lease()
        delivery.next_attempt_at = None
        delivery.save(update_fields=["status", "attempts", "lease_until", "next_attempt_at"])
        return delivery


def delivery_enqueue(delivery: Delivery, *, run_after: datetime | None = None) -> None:
    """Enqueue the email's task again from its row: a retry, at ``run_after`` or at once."""
    task = send_email.using(run_after=run_after) if run_after else send_email
    task.enqueue(
        delivery.key,
        delivery.recipients,
        delivery.subject,
        delivery.body,
        delivery.html,
        delivery.headers,
    )


def _failed(delivery: Delivery, error: Exception) -> str:
    """Schedule the next attempt after a backoff, or park the delivery after the last one."""
    message = f"{type(error).__name__}: {error}"[:2000]
    with transaction.atomic():
        if delivery.attempts >= settings.JOBS_MAX_ATTEMPTS:
            Delivery.objects.filter(pk=delivery.pk).update(
                status=DeliveryStatus.PARKED, lease_until=None, last_error=message
            )
            logger.error(
                "Delivery %s parked after %s attempts: %s", delivery.key, delivery.attempts, message
            )
            return "parked"
        next_at = timezone.now() + timedelta(seconds=retry_delay(delivery.attempts))
        Delivery.objects.filter(pk=delivery.pk).update(
            status=DeliveryStatus.PENDING,
            lease_until=None,
            next_attempt_at=next_at,
            last_error=message,
        )
        delivery_enqueue(delivery, run_after=next_at)
    logger.warning(
        "Delivery %s failed (attempt %s), next at %s: %s",
        delivery.key,
        delivery.attempts,
        next_at,
        message,
    )
    return "retry"


@task(queue_name=EMAIL_QUEUE, priority=EMAIL_PRIORITY)
def send_email(
    key: str,
    recipients: list[str],
    subject: str,
    body: str,
    html: str = "",
    headers: dict[str, str] | None = None,
) -> str:
    """Send one email (plain text, and HTML when given), once per ``key`` (its ``Delivery``
    row). A failure (the SMTP server down, slow or answering an error) is retried with a
    doubling delay, then parked."""
    delivery = _claim(key, recipients, subject, body, html, headers)
    if delivery is None:
        return "skipped"
    # Made one line here too: a delivery enqueued before ``email_enqueue`` cleaned them.
    message = EmailMultiAlternatives(
        subject=header_text(delivery.subject),
        body=delivery.body,
        to=list(delivery.recipients),
        headers={**header_values(delivery.headers), "Message-ID": delivery.message_id},
    )
    if delivery.html:
        message.attach_alternative(delivery.html, "text/html")
    try:
        with get_connection(timeout=settings.EMAIL_TIMEOUT) as connection:
            connection.send_messages([message])
    except Exception as error:
        return _failed(delivery, error)
    Delivery.objects.filter(pk=delivery.pk).update(
        status=DeliveryStatus.SENT, sent_at=timezone.now(), lease_until=None, last_error=""
    )
    return "sent"


@task(queue_name=PERIODIC_QUEUE, priority=PERIODIC_PRIORITY)
def run_periodic(command: str, arguments: list[str]) -> str:
    """Run one periodic job: a management command (project/jobs/schedule.py lists them)."""
    call_command(command, *arguments)
    return "done"


@task(queue_name=COMMAND_QUEUE, priority=COMMAND_PRIORITY)
def run_command(command: str, arguments: list[str]) -> str:
    """Run one management command a domain app enqueued (``services.task_insert_statement``):
    background work of an app this package does not import, named as a command."""
    call_command(command, *arguments)
    return "done"
