"""The delivery engine: one state machine for every channel that sends something to the
outside world once per key (an email, a push to one device), run by the channel's task.

An attempt claims the channel's row for ``key`` in a short transaction (SENDING, attempts + 1,
leased; the row made at the first attempt), commits, asks the channel's adapter to send it,
then settles the row from the adapter's ``Outcome``: SENT; a ``Failed`` attempt retried after
a doubling delay (longer when the far side asked for it with a Retry-After) and PARKED after
the last attempt; ``Refused`` (the same answer on every attempt) PARKED at once; ``Dropped``
(nothing left to send to) DROPPED. A parked row stays in its channel's table for an operator
(``manage.py deliveries`` / ``push_deliveries``, the Django admin) to send again
(``parked_retry``).

A channel is a table (a ``DeliveryBase``), a ``Channel`` adapter (its lease, how its task is
enqueued again for a row) and a task that calls ``deliver``."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Generic, TypeVar

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from project.jobs.models import DeliveryBase, DeliveryStatus

logger = logging.getLogger(__name__)

# The terminal status of a delivery with nothing left to send to (a push's device the push
# service no longer knows); only a channel whose table offers it reports ``Dropped``.
DROPPED = "dropped"
# Statuses an attempt may still take the row from.
_OPEN = (DeliveryStatus.PENDING, DeliveryStatus.SENDING)

_D = TypeVar("_D", bound=DeliveryBase)


@dataclass(frozen=True)
class Sent:
    """The far side accepted it."""


@dataclass(frozen=True)
class Failed:
    """This attempt failed in a way a later one may not: retried, parked after the last.
    ``retry_after``: the seconds the far side asked to wait (Retry-After), if it did."""

    error: str
    retry_after: float | None = None


@dataclass(frozen=True)
class Refused:
    """The far side answered what it will answer on every attempt: parked at once."""

    error: str


@dataclass(frozen=True)
class Dropped:
    """Nothing is left to send it to (the device is gone): dropped, never sent again."""

    error: str


Outcome = Sent | Failed | Refused | Dropped


def retry_delay(attempts: int) -> float:
    """Seconds before the next attempt after ``attempts`` failed ones: doubling from
    JOBS_RETRY_DELAY, at most JOBS_RETRY_MAX_DELAY."""
    delay = settings.JOBS_RETRY_DELAY * 2 ** max(attempts - 1, 0)
    return float(min(delay, settings.JOBS_RETRY_MAX_DELAY))


def backoff(attempts: int, retry_after: float | None = None) -> float:
    """The wait before the next attempt: the doubling delay, or the far side's Retry-After
    when that is longer (at most JOBS_RETRY_MAX_DELAY)."""
    asked = min(retry_after or 0.0, settings.JOBS_RETRY_MAX_DELAY)
    return max(retry_delay(attempts), asked)


class Channel(Generic[_D]):
    """A channel's adapter on the engine: its table, its name in the log, how long an attempt
    owns a row, and how its task is enqueued again for a row (a parked row sent again, at
    once). Sending is per attempt: the task hands ``deliver`` its ``send``."""

    model: type[_D]
    label: str

    def lease(self) -> timedelta:
        raise NotImplementedError

    def enqueue(self, delivery: _D, *, run_after: datetime | None = None) -> None:
        raise NotImplementedError

    def sendable(self, deliveries: list[_D]) -> list[_D]:
        """The parked rows that can be sent again (all, unless the channel says otherwise)."""
        return deliveries


def claim(
    channel: Channel[_D],
    key: str,
    *,
    fields: dict[str, Any],
    again: Callable[[_D, datetime], None],
) -> _D | None:
    """Take the delivery named ``key`` for one attempt (SENDING, attempts + 1, leased; made
    with ``fields`` on its first), committed before anything goes out; None when it is done
    (sent, parked, dropped), its retry is not due yet (a task run again after its worker
    died: the retry it scheduled comes at its time), or another attempt owns it (then
    ``again`` enqueues this task for when that attempt's lease ends)."""
    model = channel.model
    now = timezone.now()
    with transaction.atomic():
        delivery = model._default_manager.select_for_update().filter(key=key).first()
        if delivery is None:
            return model._default_manager.create(
                key=key,
                status=DeliveryStatus.SENDING,
                attempts=1,
                lease_until=now + channel.lease(),
                **fields,
            )
        if delivery.status not in _OPEN:
            return None
        if delivery.next_attempt_at is not None and delivery.next_attempt_at > now:
            return None
        if (
            delivery.status == DeliveryStatus.SENDING
            and delivery.lease_until is not None
            and delivery.lease_until > now
        ):
            again(delivery, delivery.lease_until)
            return None
        # PENDING (a retry), or SENDING by an attempt whose worker died: this one takes over.
        delivery.status = DeliveryStatus.SENDING
        delivery.attempts += 1
        delivery.lease_until = now + channel.lease()
        delivery.next_attempt_at = None
        delivery.save(update_fields=["status", "attempts", "lease_until", "next_attempt_at"])
        return delivery


def _finish(channel: Channel[_D], delivery: _D, status: str, error: str = "") -> None:
    channel.model._default_manager.filter(pk=delivery.pk).update(
        status=status,
        lease_until=None,
        last_error=error[:2000],
        sent_at=timezone.now() if status == DeliveryStatus.SENT else None,
    )


def settle(
    channel: Channel[_D],
    delivery: _D,
    outcome: Outcome,
    *,
    again: Callable[[_D, datetime], None],
) -> str:
    """Record the attempt's outcome on the row; returns "sent", "retry", "parked" or
    "dropped". A retry's task is enqueued (by ``again``) in the row's transaction."""
    name = f"{channel.label} {delivery.key}"
    if isinstance(outcome, Sent):
        _finish(channel, delivery, DeliveryStatus.SENT)
        return "sent"
    if isinstance(outcome, Dropped):
        _finish(channel, delivery, DROPPED, outcome.error)
        logger.warning("%s dropped: %s", name, outcome.error)
        return "dropped"
    if isinstance(outcome, Refused):
        _finish(channel, delivery, DeliveryStatus.PARKED, outcome.error)
        logger.error("%s parked: %s", name, outcome.error)
        return "parked"
    error = outcome.error[:2000]
    with transaction.atomic():
        if delivery.attempts >= settings.JOBS_MAX_ATTEMPTS:
            _finish(channel, delivery, DeliveryStatus.PARKED, error)
            logger.error("%s parked after %s attempts: %s", name, delivery.attempts, error)
            return "parked"
        next_at = timezone.now() + timedelta(
            seconds=backoff(delivery.attempts, outcome.retry_after)
        )
        channel.model._default_manager.filter(pk=delivery.pk).update(
            status=DeliveryStatus.PENDING,
            lease_until=None,
            next_attempt_at=next_at,
            last_error=error,
        )
        again(delivery, next_at)
    logger.warning(
        "%s failed (attempt %s), next at %s: %s", name, delivery.attempts, next_at, error
    )
    return "retry"


def deliver(
    channel: Channel[_D],
    key: str,
    *,
    fields: dict[str, Any],
    send: Callable[[_D], Outcome],
    again: Callable[[_D, datetime], None] | None = None,
) -> str:
    """One attempt at the delivery named ``key``: claimed (``claim``), sent by ``send`` (an
    exception it raises is a ``Failed`` attempt), settled (``settle``). ``again(row, at)``
    enqueues this task once more at ``at`` (default: the channel's ``enqueue`` for the row).
    Returns "skipped" when the attempt did not claim it, else ``settle``'s word."""
    requeue = again or (lambda row, at: channel.enqueue(row, run_after=at))
    delivery = claim(channel, key, fields=fields, again=requeue)
    if delivery is None:
        return "skipped"
    try:
        outcome = send(delivery)
    except Exception as error:
        outcome = Failed(f"{type(error).__name__}: {error}")
    return settle(channel, delivery, outcome, again=requeue)


def parked_retry(channel: Channel[_D], deliveries: Iterable[_D]) -> int:
    """Give the channel's parked deliveries (those it can send again) a new round of
    attempts, each enqueued at once in the same transaction; returns how many. A row no
    longer parked (sent or retried by another operator meanwhile) is left alone."""
    count = 0
    with transaction.atomic():
        for delivery in channel.sendable(list(deliveries)):
            updated = channel.model._default_manager.filter(
                pk=delivery.pk, status=DeliveryStatus.PARKED
            ).update(
                status=DeliveryStatus.PENDING, attempts=0, next_attempt_at=None, lease_until=None
            )
            if updated:
                channel.enqueue(delivery)
                count += 1
    return count
