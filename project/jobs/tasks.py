"""The tasks the worker runs (Django's tasks API, database backend): sending one email (the
email channel on the delivery engine, ``project/jobs/delivery.py``), running one periodic
job, and running one command a domain app enqueued."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.management import call_command
from django_tasks import task

from project.common.text import one_line
from project.jobs.delivery import Channel, Outcome, Sent, deliver
from project.jobs.models import Delivery

# The queues: emails, the domain apps' commands (a share card's redraw), and the periodic
# jobs (a slow purge never holds an email back when more than one worker runs; the one
# worker of the product takes them all).
EMAIL_QUEUE = "email"
PERIODIC_QUEUE = "periodic"
COMMAND_QUEUE = "default"
# The worker claims the ready task of the highest priority first, then the earliest
# ``run_after``, where a task enqueued to run at once sorts after every dated one: without
# priorities an email or a push waits behind every share card redraw (dated: a vote asks
# for it SHARE_CARD_REDRAW_DELAY seconds later) that is ready. A delivery (an email, a
# push) goes first, then the periodic jobs (the minute's notification dispatch makes
# emails), then the domain apps' commands; at most one periodic run a minute per job keeps
# the commands from starving.
DELIVERY_PRIORITY = 50
EMAIL_PRIORITY = DELIVERY_PRIORITY
PERIODIC_PRIORITY = 10
COMMAND_PRIORITY = 0


def header_text(value: str) -> str:
    """``value`` as one header line: each run of line breaks, tabs and other control
    characters a space (Django refuses a header with CR or LF, and a retry would not
    change that)."""
    return one_line(value)


def header_values(headers: dict[str, str]) -> dict[str, str]:
    return {name: header_text(value) for name, value in headers.items()}


class EmailChannel(Channel[Delivery]):
    """Email on the delivery engine: a ``Delivery`` row per key, sent over SMTP."""

    model = Delivery
    label = "Delivery"

    def lease(self) -> timedelta:
        """How long an attempt owns its delivery: connecting, sending and quitting may each
        take up to the SMTP timeout."""
        return timedelta(seconds=settings.EMAIL_TIMEOUT * 3 + 1)

    def enqueue(self, delivery: Delivery, *, run_after: datetime | None = None) -> None:
        delivery_enqueue(delivery, run_after=run_after)


EMAIL = EmailChannel()


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


def _email_send(delivery: Delivery) -> Outcome:
    """One attempt over SMTP. Any failure (the server down, slow or answering an error,
    permanent or not) raises: the engine retries it, then parks it."""
    # Made one line here too: a delivery enqueued before ``email_enqueue`` cleaned them.
    message = EmailMultiAlternatives(
        subject=header_text(delivery.subject),
        body=delivery.body,
        to=list(delivery.recipients),
        headers={**header_values(delivery.headers), "Message-ID": delivery.message_id},
    )
    if delivery.html:
        message.attach_alternative(delivery.html, "text/html")
    with get_connection(timeout=settings.EMAIL_TIMEOUT) as connection:
        connection.send_messages([message])
    return Sent()


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
    row, made from these arguments at the first attempt). A failure (the SMTP server down,
    slow or answering an error) is retried with a doubling delay, then parked."""
    fields = {
        "recipients": recipients,
        "subject": subject,
        "body": body,
        "html": html,
        "headers": headers or {},
    }
    return deliver(EMAIL, key, fields=fields, send=_email_send)


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
