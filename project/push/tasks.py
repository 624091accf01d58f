"""The push task the worker runs: one event's message to each of a member's devices, once per
device (``PushDelivery``), retried with a doubling delay, parked after the last attempt."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from project.jobs.tasks import retry_delay
from project.push.endpoints import EndpointRefused
from project.push.models import PushDelivery, PushDeliveryStatus, PushSubscription
from project.push.sender import push_send
from project.push.vapid import vapid_keys

logger = logging.getLogger(__name__)

PUSH_QUEUE = "push"
# The push service's answers after which the same message may get through later.
_RETRIED = {408, 425, 429}
# The push service does not know the device any more: its subscription is deleted.
_GONE = {404, 410}


@dataclass(frozen=True)
class _Event:
    """A ``send_push`` task's arguments: the event's key, its member and the message."""

    key: str
    user_id: int
    payload: dict[str, Any]


def _lease() -> timedelta:
    """How long an attempt owns its delivery: resolving, connecting and the answer."""
    return timedelta(seconds=settings.PUSH_TIMEOUT * 3 + 1)


def _claim(key: str, subscription_id: int, *, event: _Event) -> PushDelivery | None:
    """Take the delivery named ``key`` for one attempt, committed before the message goes out;
    None when it is done (sent, dropped, parked) or another attempt owns it."""
    now = timezone.now()
    with transaction.atomic():
        delivery = PushDelivery.objects.select_for_update().filter(key=key).first()
        if delivery is None:
            return PushDelivery.objects.create(
                key=key,
                subscription_id=subscription_id,
                user_id=event.user_id,
                payload=event.payload,
                status=PushDeliveryStatus.SENDING,
                attempts=1,
                lease_until=now + _lease(),
            )
        if delivery.status not in (PushDeliveryStatus.PENDING, PushDeliveryStatus.SENDING):
            return None
        if delivery.next_attempt_at is not None and delivery.next_attempt_at > now:
            return None  # its retry comes at its time
        if (
            delivery.status == PushDeliveryStatus.SENDING
            and delivery.lease_until
            and delivery.lease_until > now
        ):
            _enqueue(event, subscription_id, run_after=delivery.lease_until)
            return None
        delivery.status = PushDeliveryStatus.SENDING
        delivery.attempts += 1
        delivery.lease_until = now + _lease()
        delivery.next_attempt_at = None
        delivery.save(update_fields=["status", "attempts", "lease_until", "next_attempt_at"])
        return delivery


def _enqueue(event: _Event, subscription_id: int, *, run_after: datetime) -> None:
    send_push.using(run_after=run_after).enqueue(
        event.key, event.user_id, event.payload, subscription_id
    )


def _finish(delivery: PushDelivery, status: str, error: str = "") -> None:
    PushDelivery.objects.filter(pk=delivery.pk).update(
        status=status,
        lease_until=None,
        last_error=error[:2000],
        sent_at=timezone.now() if status == PushDeliveryStatus.SENT else None,
    )


def _failed(
    delivery: PushDelivery, error: str, *, event: _Event, retry_after: float | None = None
) -> str:
    """Schedule the next attempt (the doubling delay, or the push service's Retry-After when
    longer), or park the delivery after the last one."""
    with transaction.atomic():
        if delivery.attempts >= settings.JOBS_MAX_ATTEMPTS:
            _finish(delivery, PushDeliveryStatus.PARKED, error)
            logger.error(
                "Push %s parked after %s attempts: %s", delivery.key, delivery.attempts, error
            )
            return "parked"
        delay = max(
            retry_delay(delivery.attempts), min(retry_after or 0.0, settings.JOBS_RETRY_MAX_DELAY)
        )
        next_at = timezone.now() + timedelta(seconds=delay)
        PushDelivery.objects.filter(pk=delivery.pk).update(
            status=PushDeliveryStatus.PENDING,
            lease_until=None,
            next_attempt_at=next_at,
            last_error=error[:2000],
        )
        _enqueue(event, delivery.subscription_id, run_after=next_at)
    logger.warning(
        "Push %s failed (attempt %s), next at %s: %s",
        delivery.key,
        delivery.attempts,
        next_at,
        error,
    )
    return "retry"


def _deliver(subscription: PushSubscription, *, event: _Event) -> str:
    keys = vapid_keys()
    if keys is None:
        return "off"
    delivery = _claim(f"{event.key}:s{subscription.pk}", subscription.pk, event=event)
    if delivery is None:
        return "skipped"
    body = json.dumps(event.payload, separators=(",", ":")).encode()
    try:
        answer = push_send(
            subscription, body, keys=keys, urgency="normal", topic=event.payload.get("tag")
        )
    except EndpointRefused as refused:
        # The endpoint's host moved onto an address the server does not post to.
        PushSubscription.objects.filter(pk=subscription.pk).delete()
        _finish(delivery, PushDeliveryStatus.DROPPED, refused.message)
        logger.warning("Push subscription %s deleted: %s", subscription.pk, refused.message)
        return "dropped"
    except Exception as error:
        return _failed(delivery, f"{type(error).__name__}: {error}", event=event)
    if 200 <= answer.status < 300:
        _finish(delivery, PushDeliveryStatus.SENT)
        return "sent"
    if answer.status in _GONE:
        PushSubscription.objects.filter(pk=subscription.pk).delete()
        _finish(delivery, PushDeliveryStatus.DROPPED, f"push service answered {answer.status}")
        return "dropped"
    if answer.status in _RETRIED or answer.status >= 500:
        return _failed(
            delivery,
            f"push service answered {answer.status}",
            retry_after=answer.retry_after,
            event=event,
        )
    # Any other answer (a redirect, 400, 403: a key the push service refuses, 413) comes
    # back the same on every attempt.
    _finish(delivery, PushDeliveryStatus.PARKED, f"push service answered {answer.status}")
    logger.error("Push %s parked: the push service answered %s", delivery.key, answer.status)
    return "parked"


@task(queue_name=PUSH_QUEUE)
def send_push(
    event: str, user_id: int, payload: dict[str, Any], subscription_id: int | None = None
) -> str:
    """Push ``payload`` (title, body, url, tag) to each of the member's devices (or to the one
    ``subscription_id`` names: a retry), once per device for the event ``event``."""
    devices = PushSubscription.objects.filter(user_id=user_id).order_by("id")
    if subscription_id is not None:
        devices = devices.filter(pk=subscription_id)
    pushed = _Event(key=event, user_id=user_id, payload=payload)
    outcomes = [_deliver(device, event=pushed) for device in devices]
    return ",".join(outcomes) or "no devices"
