"""Push's reads for an operator: the parked deliveries."""

from __future__ import annotations

from django.db.models import QuerySet

from project.push.models import PushDelivery, PushDeliveryStatus


def parked_push_deliveries() -> QuerySet[PushDelivery]:
    return PushDelivery.objects.filter(status=PushDeliveryStatus.PARKED).order_by(
        "created_at", "id"
    )
