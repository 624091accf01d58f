"""The worker as it runs in production: ``manage.py run_worker`` in a process of its own,
sending to a real SMTP server, killed with SIGKILL and started again, and the periodic jobs
enqueued once per period by schedulers racing."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from io import StringIO
from itertools import chain

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from project.accounts.models import User
from project.jobs.models import Delivery, DeliveryStatus, PeriodicRun, WorkerHeartbeat
from project.jobs.schedule import PERIODIC, period_start
from project.jobs.selectors import worker_health
from project.jobs.services import email_enqueue, periodic_enqueue
from tests.builders import make_nomination
from tests.helpers import ApiClient
from tests.jobs.conftest import Worker, worker_env
from tests.jobs.smtp import SmtpServer

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

MakeWorker = Callable[[dict[str, str]], Worker]


def wait_for(condition: Callable[[], bool], timeout: float, what: str, worker: Worker) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} within {timeout} s; worker said:\n{worker.output()}")
        time.sleep(0.05)


def test_the_worker_process_sends_a_vote_s_email_and_beats(
    scout_api: ApiClient, other_scout: User, smtp: SmtpServer, worker_process: MakeWorker
) -> None:
    nomination = make_nomination(other_scout, name="Wanda Worker")
    assert scout_api.post("/api/votes", {"nominationId": nomination.pk}).status_code in (200, 201)
    # The worker's first round of periodic jobs dispatches the vote's event (notify_dispatch).
    worker = worker_process(worker_env(smtp))
    worker.start()
    wait_for(lambda: len(smtp.received) == 1, 30, "the email arrives", worker)
    [received] = smtp.received
    assert received.recipients == [other_scout.email]
    assert "Wanda Worker" in received.body
    wait_for(
        lambda: Delivery.objects.filter(status=DeliveryStatus.SENT).count() == 1,
        10,
        "the delivery is marked sent",
        worker,
    )
    # The periodic jobs it enqueued when it started run too.
    wait_for(lambda: worker_health()["queue_depth"] == 0, 30, "the queue drains", worker)
    status = StringIO()
    call_command("worker_status", stdout=status)
    assert "last_heartbeat: 20" in status.getvalue() and "queue_depth: 0" in status.getvalue()
    assert WorkerHeartbeat.objects.count() == 1


def test_worker_status_fails_when_no_worker_beats() -> None:
    with pytest.raises(CommandError, match="No worker is alive"):
        call_command("worker_status", stdout=StringIO())


def test_a_worker_killed_mid_batch_loses_and_duplicates_nothing(
    smtp: SmtpServer, worker_process: MakeWorker
) -> None:
    count = 12
    with transaction.atomic():
        for number in range(count):
            email_enqueue(
                key=f"test:batch-{number}",
                to=f"r{number}@example.com",
                subject=f"Batch {number}",
                body="B",
            )
    # Each email takes a while (the server waits before taking its recipient): the kill lands
    # in the middle of the batch, while the worker is sending its fourth email.
    smtp.handler.delay = 0.3
    first = worker_process(worker_env(smtp))
    first.start()
    wait_for(
        lambda: len(smtp.received) >= 3 and smtp.sending(),
        30,
        "three emails arrive and a fourth is under way",
        first,
    )
    first.kill()
    sent_before = len(smtp.received)
    assert sent_before < count, "the batch ended before the kill"
    assert DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING).count() == 1

    second = worker_process(worker_env(smtp))
    second.start()
    # The second worker finds the first one dead (no heartbeat for JOBS_WORKER_DEAD_AFTER) and
    # runs its task again; that email's attempt waits for the dead attempt's lease to end.
    wait_for(lambda: len(smtp.received) >= count, 60, "every email arrives", second)
    wait_for(
        lambda: Delivery.objects.filter(status=DeliveryStatus.SENT).count() == count,
        10,
        "every delivery is marked sent",
        second,
    )
    time.sleep(1)  # anything sent twice would arrive by now
    ids = Counter(received.message_id for received in smtp.received)
    assert len(ids) == count and set(ids.values()) == {1}, ids
    assert sorted(r.subject for r in smtp.received) == sorted(f"Batch {n}" for n in range(count))
    assert not DBTaskResult.objects.filter(
        status__in=[TaskResultStatus.READY, TaskResultStatus.RUNNING]
    ).exists()


def _race(schedulers: int, now: datetime) -> list[list[str]]:
    """``schedulers`` threads (each with its own database connection) enqueue the periodic
    jobs for ``now`` at the same moment."""
    barrier = threading.Barrier(schedulers)
    results: list[list[str]] = []
    errors: list[BaseException] = []

    def schedule() -> None:
        try:
            barrier.wait()
            results.append(periodic_enqueue(now))
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=schedule) for _ in range(schedulers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    return results


def test_periodic_jobs_are_enqueued_once_per_period_by_racing_schedulers() -> None:
    now = datetime(2026, 3, 2, 10, 30, tzinfo=UTC)  # a Monday: the weekly period's first day
    results = _race(4, now)
    names = sorted(name for result in results for name in result)
    assert names == [
        "age_transitions",
        "anonymise_players",
        "notify_dispatch",
        "prune_outbound",
        "prune_task_results",
        "purge_uploads",
        "purge_vote_prefixes",
        "referrals_qualify",
        "share_cards",
        "weekly_digest",
    ]
    assert DBTaskResult.objects.filter(queue_name="periodic").count() == 10
    # Later in the same hour: the minute's jobs only; the next hour: the hourly one too; the
    # next day: every job but the weekly one.
    assert sorted(chain(*_race(2, now + timedelta(minutes=20)))) == [
        "notify_dispatch",
        "share_cards",
    ]
    assert sorted(chain(*_race(2, now + timedelta(hours=1)))) == [
        "notify_dispatch",
        "purge_uploads",
        "share_cards",
    ]
    assert sorted(chain(*_race(2, now + timedelta(days=1)))) == [
        "age_transitions",
        "anonymise_players",
        "notify_dispatch",
        "prune_outbound",
        "prune_task_results",
        "purge_uploads",
        "purge_vote_prefixes",
        "referrals_qualify",
        "share_cards",
    ]
    assert PeriodicRun.objects.count() == 24


def test_the_worker_runs_the_periodic_jobs(worker_process: MakeWorker) -> None:
    now = timezone.now()
    # The weekly digest only on its period's first day (``late_after``).
    due = [
        entry.name
        for entry in PERIODIC
        if entry.late_after is None or now - period_start(now, entry.every) <= entry.late_after
    ]
    worker = worker_process(worker_env())
    worker.start()
    wait_for(
        lambda: (
            DBTaskResult.objects.filter(
                queue_name="periodic", status=TaskResultStatus.SUCCESSFUL
            ).count()
            == len(due)
        ),
        30,
        "the periodic jobs run",
        worker,
    )
    assert sorted(PeriodicRun.objects.values_list("name", flat=True)) == sorted(due)
    output = worker.output()
    assert "Purged 0 upload(s)." in output and "Cleared the cluster id of 0 votes." in output


def test_a_weekly_digest_missed_by_more_than_a_day_waits_for_next_monday() -> None:
    wednesday = datetime(2026, 3, 4, 10, 30, tzinfo=UTC)
    assert "weekly_digest" not in periodic_enqueue(wednesday)
    assert "weekly_digest" not in periodic_enqueue(wednesday + timedelta(days=4))  # Sunday
    assert "weekly_digest" in periodic_enqueue(wednesday + timedelta(days=5))  # Monday
