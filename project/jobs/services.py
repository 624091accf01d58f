"""Background work's writes: an email enqueued in the caller's transaction, a parked delivery
given another round, the periodic jobs enqueued once per period, dead workers' tasks freed."""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connections, transaction
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks.utils import normalize_json
from django_tasks_db.models import DBTaskResult

from project.jobs.delivery import parked_retry
from project.jobs.models import Delivery, PeriodicRun, WorkerHeartbeat
from project.jobs.schedule import PERIODIC, Periodic, period_start
from project.jobs.tasks import (
    EMAIL,
    header_text,
    header_values,
    run_command,
    run_periodic,
    send_email,
)

logger = logging.getLogger(__name__)


def email_enqueue(
    *,
    key: str,
    to: str | Iterable[str],
    subject: str,
    body: str,
    html: str = "",
    headers: dict[str, str] | None = None,
    run_after: datetime | None = None,
) -> None:
    """Enqueue an email in the current transaction (one row: its task): a rolled-back write
    sends nothing, a committed one is sent by the worker (``tasks.send_email``). ``key`` names
    what is delivered (a notification, a takedown's confirmation): the worker sends one
    email per key, whatever runs its task again (``Delivery``). ``html`` is the HTML part
    (empty: plain text only), ``headers`` extra headers (List-Unsubscribe). The subject and
    the headers are made one line (``header_text``): a name written with a line break
    before names refused them never makes the email unsendable. ``run_after``: not before
    then (a teen account's quiet hours, ``project.accounts.ages.quiet_until``)."""
    recipients = [to] if isinstance(to, str) else list(to)
    task = send_email.using(run_after=run_after) if run_after else send_email
    task.enqueue(key, recipients, header_text(subject), body, html, header_values(headers or {}))


def command_task_row(
    command: str, arguments: list[str], *, run_after: datetime, connection: Any
) -> tuple[str, list[tuple[str, str]], list[Any]]:
    """The table, the columns (with their database types) and the values of the task row
    that ``run_command.enqueue(command, arguments)`` would insert, run at ``run_after``: for
    a caller that writes the row inside a statement of its own (an INSERT ... SELECT that
    enqueues only when a marker of its is new), each value prepared as the ORM prepares it
    for saving."""
    row: DBTaskResult[Any, Any] = DBTaskResult(
        id=uuid.uuid4(),
        args_kwargs=normalize_json({"args": [command, list(arguments)], "kwargs": {}}),
        priority=run_command.priority,
        task_path=run_command.module_path,
        queue_name=run_command.queue_name,
        run_after=run_after,
        backend_name=run_command.get_backend().alias,
    )
    values = [
        field.get_db_prep_save(field.pre_save(row, add=True), connection)
        for field in DBTaskResult._meta.concrete_fields
    ]
    return DBTaskResult._meta.db_table, list(task_columns(connection.alias)), values


@lru_cache(maxsize=8)
def task_columns(alias: str) -> tuple[tuple[str, str], ...]:
    """The task table's columns and their database types on the connection ``alias``: the
    same for the process's life, and asked for on every vote (its card's redraw)."""
    connection = connections[alias]
    return tuple(
        (str(field.column), str(field.db_type(connection)))
        for field in DBTaskResult._meta.concrete_fields
    )


def deliveries_retry(deliveries: Iterable[Delivery]) -> int:
    """Give parked emails a new round of attempts, sent at once; returns how many."""
    return parked_retry(EMAIL, deliveries)


def periodic_enqueue(
    now: datetime | None = None, entries: Iterable[Periodic] = PERIODIC
) -> list[str]:
    """Enqueue each periodic job whose current period has no run yet (and, for a job with
    ``late_after``, began no longer ago than that); returns their names. The run row is
    unique per job and period, so schedulers racing enqueue each job once."""
    now = now or timezone.now()
    enqueued = []
    for entry in entries:
        start = period_start(now, entry.every)
        if entry.late_after is not None and now - start > entry.late_after:
            continue
        try:
            with transaction.atomic():
                PeriodicRun.objects.create(name=entry.name, period_start=start)
                run_periodic.enqueue(entry.command, list(entry.arguments))
        except IntegrityError:
            continue
        enqueued.append(entry.name)
    return enqueued


def heartbeat(worker_id: str, started_at: datetime) -> None:
    """Record that the worker is alive now."""
    WorkerHeartbeat.objects.update_or_create(
        worker_id=worker_id,
        defaults={
            "hostname": socket.gethostname()[:255],
            "pid": os.getpid(),
            "started_at": started_at,
            "last_seen": timezone.now(),
        },
    )


def orphans_requeue(now: datetime | None = None) -> int:
    """Put back in the queue the tasks claimed by workers that stopped beating (killed, or
    their machine gone); a task is idempotent (``send_delivery`` checks its delivery), so
    running one again loses and duplicates nothing. Returns how many."""
    now = now or timezone.now()
    dead_after = timedelta(seconds=settings.JOBS_WORKER_DEAD_AFTER)
    alive = set(
        WorkerHeartbeat.objects.filter(last_seen__gte=now - dead_after).values_list(
            "worker_id", flat=True
        )
    )
    count = 0
    running = DBTaskResult.objects.filter(
        status=TaskResultStatus.RUNNING, started_at__lt=now - dead_after
    ).only("id", "worker_ids")
    for result in running:
        owner = result.worker_ids[-1] if result.worker_ids else None
        if owner in alive:
            continue
        count += DBTaskResult.objects.filter(pk=result.pk, status=TaskResultStatus.RUNNING).update(
            status=TaskResultStatus.READY, started_at=None
        )
        logger.warning("Task %s of dead worker %s queued again", result.pk, owner)
    # Workers silent for a day are forgotten.
    WorkerHeartbeat.objects.filter(last_seen__lt=now - timedelta(days=1)).delete()
    return count
