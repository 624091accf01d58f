"""``manage.py push_deliveries``: the parked pushes (those that failed every attempt, or that
the push service refused outright), and another round of attempts for some or all of them,
as ``deliveries`` does for emails."""

from __future__ import annotations

from django.db.models import QuerySet

from project.jobs.parked import ParkedCommand
from project.push.models import PushDelivery
from project.push.selectors import parked_push_deliveries
from project.push.services import push_deliveries_retry


class Command(ParkedCommand[PushDelivery]):
    def parked(self) -> QuerySet[PushDelivery]:
        return parked_push_deliveries()

    def retry(self, rows: list[PushDelivery]) -> int:
        return push_deliveries_retry(rows)

    def line(self, row: PushDelivery) -> str:
        return (
            f"{row.pk}\t{row.key}\tmember={row.user_id}\tdevice={row.subscription_id}\t"
            f"attempts={row.attempts}\t{row.created_at:%Y-%m-%d %H:%M}\t{row.last_error}"
        )
