"""The worker process: django-tasks-db's worker (claims one ready task at a time, on PostgreSQL
with SELECT ... FOR UPDATE SKIP LOCKED, on SQLite in an exclusive transaction) and, beside it
in a thread, the housekeeping that library leaves out: the heartbeat, the periodic jobs'
schedule, and putting back the tasks of workers that died."""

from __future__ import annotations

import logging
import threading
from datetime import datetime

from django.conf import settings
from django.db import close_old_connections, connection
from django.utils import timezone
from django.utils.crypto import get_random_string
from django_tasks_db.management.commands.db_worker import Worker

from project.jobs import services

logger = logging.getLogger(__name__)


def housekeeping(worker_id: str, started_at: datetime, *, schedule: bool) -> None:
    """One round: beat, free dead workers' tasks, enqueue the periodic jobs that are due."""
    services.heartbeat(worker_id, started_at)
    services.orphans_requeue()
    if schedule:
        for name in services.periodic_enqueue():
            logger.info("Periodic job %s enqueued", name)


class Housekeeper(threading.Thread):
    def __init__(self, worker_id: str, *, schedule: bool) -> None:
        super().__init__(name="jobs-housekeeping", daemon=True)
        self.worker_id, self.schedule = worker_id, schedule
        self.started_at = timezone.now()
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.is_set():
            try:
                housekeeping(self.worker_id, self.started_at, schedule=self.schedule)
            except Exception:
                # A database outage: the next round tries again.
                logger.exception("Worker housekeeping failed")
            finally:
                close_old_connections()
            self.stopping.wait(settings.JOBS_HEARTBEAT)
        connection.close()


def new_worker_id() -> str:
    return get_random_string(32)


def make_worker(*, worker_id: str, batch: bool, interval: float | None = None) -> Worker:
    return Worker(
        queue_names=["*"],
        interval=settings.JOBS_POLL_INTERVAL if interval is None else interval,
        batch=batch,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id=worker_id,
        excluded_queue_names=[],
    )
