"""``manage.py deliveries``: the parked emails (those that failed every attempt), and another
round of attempts for some or all of them."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from project.jobs.selectors import parked_deliveries
from project.jobs.services import deliveries_retry


class Command(BaseCommand):
    help = "List parked deliveries; --retry ID [ID ...] or --retry-all sends them again."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--retry", nargs="+", type=int, default=[], metavar="ID")
        parser.add_argument("--retry-all", action="store_true")

    def handle(self, *args: Any, retry: list[int], retry_all: bool, **options: Any) -> None:
        parked = parked_deliveries()
        if retry or retry_all:
            chosen = parked if retry_all else parked.filter(pk__in=retry)
            missing = set(retry) - set(chosen.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"Not parked: {', '.join(map(str, sorted(missing)))}")
            count = deliveries_retry(list(chosen))
            self.stdout.write(f"Queued again: {count} delivery(ies).")
            return
        rows = list(parked)
        if not rows:
            self.stdout.write("No parked deliveries.")
        for delivery in rows:
            self.stdout.write(
                f"{delivery.pk}\t{delivery.key}\t{','.join(delivery.recipients)}\t"
                f"attempts={delivery.attempts}\t{delivery.created_at:%Y-%m-%d %H:%M}\t"
                f"{delivery.last_error}"
            )
