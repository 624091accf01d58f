"""Background work's reads: the worker's health and the parked deliveries."""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from django.db.models import Max, Min, QuerySet
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from project.jobs.models import Delivery, DeliveryStatus, WorkerHeartbeat


class WorkerHealth(TypedDict):
    last_heartbeat: datetime | None
    heartbeat_age_seconds: float | None
    queue_depth: int
    oldest_ready_age_seconds: float | None
    running: int
    parked: int
    pending_deliveries: int


def worker_health() -> WorkerHealth:
    """What an operator looks at: when a worker last beat, the tasks ready to run now and how
    long the oldest has waited, those running, and the deliveries parked or still pending."""
    now = timezone.now()
    last = WorkerHeartbeat.objects.aggregate(last=Max("last_seen"))["last"]
    ready = DBTaskResult.objects.ready()
    oldest = ready.aggregate(oldest=Min("enqueued_at"))["oldest"]
    return {
        "last_heartbeat": last,
        "heartbeat_age_seconds": (now - last).total_seconds() if last else None,
        "queue_depth": ready.count(),
        "oldest_ready_age_seconds": (now - oldest).total_seconds() if oldest else None,
        "running": DBTaskResult.objects.filter(status=TaskResultStatus.RUNNING).count(),
        "parked": Delivery.objects.filter(status=DeliveryStatus.PARKED).count(),
        "pending_deliveries": Delivery.objects.filter(
            status__in=(DeliveryStatus.PENDING, DeliveryStatus.SENDING)
        ).count(),
    }


def parked_deliveries() -> QuerySet[Delivery]:
    return Delivery.objects.filter(status=DeliveryStatus.PARKED).order_by("created_at", "id")
