"""The push task the worker runs: one event's message to each of a member's devices, once per
device (``PushDelivery``): the push channel on the delivery engine (``project/jobs/delivery.py``),
retried with a doubling delay (or the push service's Retry-After), parked after the last
attempt, dropped when the device is gone. It has an email's priority: a push never waits
behind the share card redraws."""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, cast

from django.conf import settings
from django_tasks import task

from project.jobs.delivery import Channel, Dropped, Failed, Outcome, Refused, Sent, deliver
from project.jobs.tasks import DELIVERY_PRIORITY
from project.push.endpoints import EndpointRefused
from project.push.models import PushDelivery, PushSubscription
from project.push.sender import push_send
from project.push.vapid import VapidKeys, vapid_keys

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


class PushChannel(Channel[PushDelivery]):
    """Web push on the delivery engine: a ``PushDelivery`` row per event and device."""

    model = PushDelivery
    label = "Push"

    def lease(self) -> timedelta:
        """How long an attempt owns its delivery: resolving, connecting and the answer."""
        return timedelta(seconds=settings.PUSH_TIMEOUT * 3 + 1)

    def enqueue(self, delivery: PushDelivery, *, run_after: datetime | None = None) -> None:
        """The push's task again for its one device, from its row (a parked push sent again:
        only rows that kept their member, ``sendable``)."""
        # The delivery's key is the event's and the device's (``_deliver``).
        event = delivery.key.removesuffix(f":s{delivery.subscription_id}")
        user_id = cast(int, delivery.user_id)
        task = send_push.using(run_after=run_after) if run_after else send_push
        task.enqueue(event, user_id, delivery.payload, delivery.subscription_id)

    def sendable(self, deliveries: list[PushDelivery]) -> list[PushDelivery]:
        """A push whose device is gone or now belongs to another member, or whose row kept no
        member and message, cannot go again."""
        devices = set(
            PushSubscription.objects.filter(
                pk__in=[row.subscription_id for row in deliveries]
            ).values_list("pk", "user_id")
        )
        return [
            row
            for row in deliveries
            if row.payload and (row.subscription_id, row.user_id) in devices
        ]


PUSH = PushChannel()


def _enqueue(event: _Event, subscription_id: int, *, run_after: datetime) -> None:
    send_push.using(run_after=run_after).enqueue(
        event.key, event.user_id, event.payload, subscription_id
    )


def _push(subscription: PushSubscription, payload: dict[str, Any], keys: VapidKeys) -> Outcome:
    """One attempt at the push service, and what its answer means for the delivery. A device
    the push service no longer knows (404/410), or whose endpoint stopped being a public
    address, is deleted and the push dropped."""
    body = json.dumps(payload, separators=(",", ":")).encode()
    try:
        answer = push_send(
            subscription, body, keys=keys, urgency="normal", topic=payload.get("tag")
        )
    except EndpointRefused as refused:
        # The endpoint's host moved onto an address the server does not post to.
        PushSubscription.objects.filter(pk=subscription.pk).delete()
        logger.warning("Push subscription %s deleted: %s", subscription.pk, refused.message)
        return Dropped(refused.message)
    if 200 <= answer.status < 300:
        return Sent()
    said = f"push service answered {answer.status}"
    if answer.status in _GONE:
        PushSubscription.objects.filter(pk=subscription.pk).delete()
        return Dropped(said)
    if answer.status in _RETRIED or answer.status >= 500:
        return Failed(said, retry_after=answer.retry_after)
    # Any other answer (a redirect, 400, 403: a key the push service refuses, 413) comes
    # back the same on every attempt.
    return Refused(said)


def _deliver(subscription: PushSubscription, *, event: _Event) -> str:
    keys = vapid_keys()
    if keys is None:
        return "off"

    def again(delivery: PushDelivery, run_after: datetime) -> None:
        _enqueue(event, subscription.pk, run_after=run_after)

    return deliver(
        PUSH,
        f"{event.key}:s{subscription.pk}",
        fields={
            "subscription_id": subscription.pk,
            "user_id": event.user_id,
            "payload": event.payload,
        },
        send=lambda delivery: _push(subscription, event.payload, keys),
        again=again,
    )


@task(queue_name=PUSH_QUEUE, priority=DELIVERY_PRIORITY)
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
