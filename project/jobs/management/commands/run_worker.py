"""``manage.py run_worker``: the background worker (emails, periodic jobs). Run exactly one."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from project.jobs.worker import Housekeeper, housekeeping, make_worker, new_worker_id


class Command(BaseCommand):
    help = (
        "Run the background worker: sends emails, runs the periodic jobs, beats its heartbeat. "
        "SIGTERM or Ctrl-C stops it after the task under way."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--batch", action="store_true", help="Run the tasks ready now, then exit."
        )
        parser.add_argument(
            "--no-schedule",
            action="store_true",
            help="Do not enqueue the periodic jobs (another process schedules them).",
        )
        parser.add_argument("--worker-id", default="", help="Default: a random id.")

    def handle(
        self, *args: Any, batch: bool, no_schedule: bool, worker_id: str, **options: Any
    ) -> None:
        worker_id = worker_id or new_worker_id()
        worker = make_worker(worker_id=worker_id, batch=batch)
        if batch:
            worker.run()
            return
        keeper = Housekeeper(worker_id, schedule=not no_schedule)
        housekeeping(worker_id, keeper.started_at, schedule=not no_schedule)
        keeper.start()
        self.stdout.write(f"Worker {worker_id} running")
        worker.configure_signals()
        try:
            worker.run()
        finally:
            keeper.stopping.set()
