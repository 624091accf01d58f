"""``manage.py worker_status``: the background worker's health; exits 1 when no worker beat
within JOBS_WORKER_DEAD_AFTER (usable as a health check)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from project.jobs.selectors import worker_health


class Command(BaseCommand):
    help = "Show the worker's last heartbeat, queue depth, oldest ready task's age, parked count."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--json", action="store_true", help="One JSON object.")

    def handle(self, *args: Any, json: bool = False, **options: Any) -> None:
        health = worker_health()
        if json:
            self.stdout.write(_dumps(health))
        else:
            for name, value in health.items():
                self.stdout.write(f"{name}: {'-' if value is None else value}")
        age = health["heartbeat_age_seconds"]
        if age is None or age > settings.JOBS_WORKER_DEAD_AFTER:
            raise CommandError("No worker is alive: start one with `manage.py run_worker`")


def _dumps(health: Any) -> str:
    return json.dumps(health, default=str)
