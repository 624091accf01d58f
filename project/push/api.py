from __future__ import annotations

from django.http import HttpRequest
from ninja import Status
from ninja.responses import codes_4xx

from project.accounts.auth import current_user
from project.common.router import Router
from project.common.schemas import ErrorOut
from project.push import services
from project.push.schemas import PushKeyOut, PushSubscriptionIn, PushSubscriptionOut
from project.push.vapid import vapid_keys

router = Router(tags=["push"])


@router.get(
    "/key",
    response=PushKeyOut,
    auth=None,
    summary="The server's VAPID public key",
    description=(
        "The applicationServerKey for PushManager.subscribe(): a base64url uncompressed P-256 "
        "point, or null when push notifications are not enabled on this server."
    ),
)
def push_key(request: HttpRequest) -> object:
    keys = vapid_keys()
    return {"public_key": None if keys is None else keys.public_key}


@router.post(
    "/subscriptions",
    response={200: PushSubscriptionOut, 201: PushSubscriptionOut, codes_4xx: ErrorOut},
    summary="Register this device for push notifications",
    description=(
        "The browser's PushSubscription as JSON. 201 with the new device; 200 when the "
        "endpoint is already known (the device is then this member's, with these keys). 400 "
        "when the endpoint is not an https URL on a public address or the keys are not a "
        "P-256 key and a 16-byte secret (fields.endpoint, fields['keys.p256dh'], "
        "fields['keys.auth']); 404 (code push_disabled) when push is not enabled. A member "
        "keeps at most 10 devices: an 11th drops their oldest."
    ),
)
def push_subscribe(request: HttpRequest, payload: PushSubscriptionIn) -> object:
    subscribed = services.push_subscribe(
        user=current_user(request),
        endpoint=payload.endpoint,
        p256dh=payload.keys.p256dh,
        auth=payload.keys.auth,
    )
    return Status(201 if subscribed.created else 200, subscribed.subscription)


@router.delete(
    "/subscriptions/{subscription_id}",
    response={204: None, codes_4xx: ErrorOut},
    summary="Stop push notifications on a device",
    description="204 for one of the member's devices; 404 for another member's or a missing one.",
)
def push_unsubscribe(request: HttpRequest, subscription_id: int) -> object:
    services.push_unsubscribe(user=current_user(request), subscription_id=subscription_id)
    return Status(204, None)
