"""Members' devices (subscribe, unsubscribe, their export) and the push enqueued for a
notification, in the caller's transaction."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from cryptography.hazmat.primitives.asymmetric import ec
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from project.accounts.ages import quiet_until
from project.accounts.models import User
from project.common.errors import NotFound, ValidationFailed
from project.jobs.delivery import parked_retry
from project.notify.delivery import Delivery
from project.push.endpoints import EndpointRefused, endpoint_addresses, endpoint_parse
from project.push.models import PushDelivery, PushDeliveryStatus, PushSubscription, PushWindow
from project.push.tasks import PUSH, send_push
from project.push.vapid import b64url_decode, vapid_keys

PUSH_DISABLED = "Push notifications are not enabled on this server"
SUBSCRIPTION_NOT_FOUND = "Push subscription not found"
P256DH_INVALID = "Push key p256dh must be an uncompressed P-256 public key in base64url"
AUTH_INVALID = "Push key auth must be 16 bytes in base64url"
# A member's devices at most; a new one beyond makes room by dropping their oldest.
MAX_DEVICES = 10
# The least time between two pushes to a member about one nomination.
PUSH_INTERVAL = timedelta(minutes=1)


@dataclass(frozen=True)
class Subscribed:
    subscription: PushSubscription
    created: bool


def _keys_checked(p256dh: str, auth: str) -> None:
    try:
        point = b64url_decode(p256dh)
        if len(point) != 65 or point[0] != 4:
            raise ValueError("not an uncompressed point")
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError as error:
        raise ValidationFailed(P256DH_INVALID, fields={"keys.p256dh": P256DH_INVALID}) from error
    try:
        secret = b64url_decode(auth)
    except ValueError as error:
        raise ValidationFailed(AUTH_INVALID, fields={"keys.auth": AUTH_INVALID}) from error
    if len(secret) != 16:
        raise ValidationFailed(AUTH_INVALID, fields={"keys.auth": AUTH_INVALID})


def push_subscribe(*, user: User, endpoint: str, p256dh: str, auth: str) -> Subscribed:
    """Add the member's device, or hand an endpoint already known (this browser, another
    member signed in on it before) over to them with its new keys. 404 while push is off;
    400 for an endpoint the server will not post to (``endpoints``) or keys that are not a
    P-256 point and a 16-byte secret. A member's 11th device drops their oldest."""
    if vapid_keys() is None:
        raise NotFound(PUSH_DISABLED, code="push_disabled")
    try:
        endpoint_addresses(endpoint_parse(endpoint))
    except EndpointRefused as refused:
        raise ValidationFailed(refused.message, fields={"endpoint": refused.message}) from None
    _keys_checked(p256dh, auth)
    try:
        return _subscribed(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth)
    except IntegrityError:
        # The same endpoint subscribed at the same moment by another request: it exists now.
        return _subscribed(user=user, endpoint=endpoint, p256dh=p256dh, auth=auth)


@transaction.atomic
def _subscribed(*, user: User, endpoint: str, p256dh: str, auth: str) -> Subscribed:
    # The member's devices change one request at a time, so the cap holds.
    list(User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True))
    values = {"user_id": user.pk, "p256dh": p256dh, "auth": auth}
    existing = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
    if existing is None:
        subscription = PushSubscription.objects.create(endpoint=endpoint, **values)
    else:
        PushSubscription.objects.filter(pk=existing.pk).update(**values)
        existing.refresh_from_db()
        subscription = existing
    _devices_capped(user_id=user.pk)
    return Subscribed(subscription=subscription, created=existing is None)


def _devices_capped(*, user_id: int) -> None:
    """Drop the member's oldest devices beyond MAX_DEVICES."""
    kept = (
        PushSubscription.objects.filter(user_id=user_id)
        .order_by("-created_at", "-id")
        .values_list("pk", flat=True)[:MAX_DEVICES]
    )
    PushSubscription.objects.filter(user_id=user_id).exclude(pk__in=list(kept)).delete()


def push_unsubscribe(*, user: User, subscription_id: int) -> None:
    """Delete one of the member's devices; 404 for another member's or a missing one."""
    deleted, _ = PushSubscription.objects.filter(pk=subscription_id, user_id=user.pk).delete()
    if not deleted:
        raise NotFound(SUBSCRIPTION_NOT_FOUND)


# The member's window for the nomination opened (or moved to now) if the last push about it
# is a minute old or more, and only if the member has a device at all; a row back means push.
_WINDOW_TAKE = (
    "INSERT INTO {window} (user_id, nomination_id, last_at) "
    "SELECT %s, %s, %s WHERE EXISTS (SELECT 1 FROM {subscriptions} WHERE user_id = %s) "
    "ON CONFLICT (user_id, nomination_id) DO UPDATE SET last_at = excluded.last_at "
    "WHERE {window}.last_at <= %s RETURNING id"
)


def _window_taken(*, user_id: int, nomination_id: int, now: datetime) -> bool:
    quote, adapt = connection.ops.quote_name, connection.ops.adapt_datetimefield_value
    sql = _WINDOW_TAKE.format(
        window=quote(PushWindow._meta.db_table),
        subscriptions=quote(PushSubscription._meta.db_table),
    )
    with connection.cursor() as cursor:
        cursor.execute(
            sql, [user_id, nomination_id, adapt(now), user_id, adapt(now - PUSH_INTERVAL)]
        )
        return cursor.fetchone() is not None


def push_delivered(delivery: Delivery) -> None:
    """Notify's delivery channel (``register_delivery_channel``): a notification's push to the
    member's devices, a coalesced vote included, at most one a minute about one nomination
    (sent by the worker once the notification's transaction commits)."""
    push_enqueue(
        user_id=delivery.user_id,
        title=delivery.title,
        body=delivery.body,
        nomination_id=delivery.nomination_id,
        notification_id=delivery.notification_id,
        member=delivery.member,
    )


def push_prune(*, now: datetime, kept_from: datetime) -> dict[str, int]:
    """Notify's daily prune of outbound leftovers (``register_outbound_prune``): pushes sent
    (or dropped) before ``kept_from`` (parked ones stay for an operator to see) and push
    windows a day old (a window matters for a minute)."""
    return {
        "pushes": PushDelivery.objects.filter(
            status__in=[PushDeliveryStatus.SENT, PushDeliveryStatus.DROPPED],
            created_at__lt=kept_from,
        ).delete()[0],
        "push windows": PushWindow.objects.filter(last_at__lt=now - timedelta(days=1)).delete()[0],
    }


def push_enqueue(
    *,
    user_id: int,
    title: str,
    body: str,
    nomination_id: int | None,
    notification_id: int,
    member: User | None = None,
) -> bool:
    """Enqueue, in the caller's transaction, a push of a notification to the member's devices
    (sent by the worker after the commit; nothing if it rolls back). One statement when push
    is on, none when it is off; nothing for a member without devices. About a nomination: at
    most one a minute per member (a vote in that minute is in the in-app notification, not
    pushed). A teen account's push waits for the end of its quiet hours (``quiet_until``:
    ``member``, the recipient as the caller holds it, is read for it, else looked up).
    Returns whether one was enqueued."""
    if vapid_keys() is None:
        return False
    now = timezone.now()
    if nomination_id is not None:
        if not _window_taken(user_id=user_id, nomination_id=nomination_id, now=now):
            return False
        event = f"push:{user_id}:n{nomination_id}:{int(now.timestamp() * 1000)}"
        url, tag = f"/nominations/{nomination_id}", f"nomination-{nomination_id}"
    else:
        if not PushSubscription.objects.filter(user_id=user_id).exists():
            return False
        event = f"push:{user_id}:notification{notification_id}"
        url, tag = "/", f"notification-{notification_id}"
    payload = {"title": title, "body": body, "url": url, "tag": tag}
    if member is None:
        member = User.objects.only("birth_year", "time_zone").filter(pk=user_id).first()
    run_after = quiet_until(member, now) if member is not None else None
    task = send_push.using(run_after=run_after) if run_after else send_push
    task.enqueue(event, user_id, payload)
    return True


def push_export(user: User) -> dict[str, Any]:
    """The member's devices, for their export of their own data (the keys left out)."""
    devices = PushSubscription.objects.filter(user_id=user.pk).order_by("id")
    return {
        "pushSubscriptions": [
            {"id": d.pk, "endpoint": d.endpoint, "createdAt": d.created_at} for d in devices
        ]
    }


def push_deliveries_retry(deliveries: Iterable[PushDelivery]) -> int:
    """Give parked pushes a new round of attempts, sent at once; returns how many. A push
    whose device is gone or now belongs to another member, or whose row kept no member and
    message, cannot go again and stays parked (``PushChannel.sendable``)."""
    return parked_retry(PUSH, deliveries)
