"""What outbound delivery leaves behind, pruned once a day: the idempotency rows of emails and
pushes sent long ago, the push windows of past minutes, and notification emails' records
older than the fold and the daily cap read."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from project.jobs.models import Delivery, DeliveryStatus
from project.notify.models import NotificationEmail
from project.push.models import PushDelivery, PushDeliveryStatus, PushWindow


def outbound_prune(now: datetime | None = None) -> dict[str, int]:
    """Delete, and count by kind: emails and pushes sent (or dropped) more than
    OUTBOUND_RETENTION_DAYS ago (parked ones stay for an operator to see); push windows a day
    old (a window matters for a minute); notification email records two days old (the fold
    reads the last hour, the cap the current UTC day)."""
    now = now or timezone.now()
    kept_from = now - timedelta(days=settings.OUTBOUND_RETENTION_DAYS)
    deleted = {
        "emails": Delivery.objects.filter(
            status=DeliveryStatus.SENT, created_at__lt=kept_from
        ).delete()[0],
        "pushes": PushDelivery.objects.filter(
            status__in=[PushDeliveryStatus.SENT, PushDeliveryStatus.DROPPED],
            created_at__lt=kept_from,
        ).delete()[0],
        "push windows": PushWindow.objects.filter(last_at__lt=now - timedelta(days=1)).delete()[0],
        "email records": NotificationEmail.objects.filter(
            sent_at__lt=now - timedelta(days=2)
        ).delete()[0],
    }
    return deleted
