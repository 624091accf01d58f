"""What outbound delivery leaves behind, pruned once a day: the idempotency rows of emails sent
long ago and notification emails' records older than the fold and the daily cap read, then
what each delivery channel registered (``register_outbound_prune``: web push's pushes and
windows)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from project.jobs.models import Delivery, DeliveryStatus
from project.notify.models import NotificationEmail

# A channel's prune: given the time now and the oldest sent row kept, delete and count by kind.
OutboundPrune = Callable[..., dict[str, int]]
_prunes: list[OutboundPrune] = []


def register_outbound_prune(prune: OutboundPrune) -> None:
    """Add a delivery channel's leftovers to the daily prune, called as
    ``prune(now=..., kept_from=...)``; registered in the channel's ``AppConfig.ready()``."""
    if prune not in _prunes:
        _prunes.append(prune)


def outbound_prune(now: datetime | None = None) -> dict[str, int]:
    """Delete, and count by kind: emails sent more than OUTBOUND_RETENTION_DAYS ago (parked
    ones stay for an operator to see); each registered channel's leftovers (web push: pushes
    sent or dropped as long ago, push windows a day old); notification email records two days
    old (the fold reads the last hour, the cap the current UTC day)."""
    now = now or timezone.now()
    kept_from = now - timedelta(days=settings.OUTBOUND_RETENTION_DAYS)
    deleted = {
        "emails": Delivery.objects.filter(
            status=DeliveryStatus.SENT, created_at__lt=kept_from
        ).delete()[0],
    }
    for prune in _prunes:
        deleted.update(prune(now=now, kept_from=kept_from))
    deleted["email records"] = NotificationEmail.objects.filter(
        sent_at__lt=now - timedelta(days=2)
    ).delete()[0]
    return deleted
