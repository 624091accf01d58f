"""``manage.py deliveries``: the parked emails (those that failed every attempt), and another
round of attempts for some or all of them (``push_deliveries`` does the same for pushes)."""

from __future__ import annotations

from django.db.models import QuerySet

from project.jobs.models import Delivery
from project.jobs.parked import ParkedCommand
from project.jobs.selectors import parked_deliveries
from project.jobs.services import deliveries_retry


class Command(ParkedCommand[Delivery]):
    def parked(self) -> QuerySet[Delivery]:
        return parked_deliveries()

    def retry(self, rows: list[Delivery]) -> int:
        return deliveries_retry(rows)

    def line(self, row: Delivery) -> str:
        return (
            f"{row.pk}\t{row.key}\t{','.join(row.recipients)}\t"
            f"attempts={row.attempts}\t{row.created_at:%Y-%m-%d %H:%M}\t{row.last_error}"
        )
