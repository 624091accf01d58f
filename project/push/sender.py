"""One push message to one device: encrypted to the device's keys (RFC 8291 aes128gcm, by
pywebpush), signed with the server's VAPID key, and posted to the address the endpoint's
host resolves to now, checked public again (a name that moved onto a private address since
the subscription is refused); a redirect is an answer, never followed."""

from __future__ import annotations

from dataclasses import dataclass

import urllib3
from django.conf import settings
from pywebpush import WebPusher

from project.push.endpoints import Endpoint, endpoint_addresses, endpoint_parse
from project.push.models import PushSubscription
from project.push.vapid import VapidKeys, vapid_headers


@dataclass(frozen=True)
class PushAnswer:
    status: int
    retry_after: float | None


def _retry_after(value: str | None) -> float | None:
    try:
        return max(float(value), 0.0) if value else None
    except ValueError:
        return None  # an HTTP date: the doubling delay is used instead


def _pool(endpoint: Endpoint, address: str) -> urllib3.HTTPConnectionPool:
    timeout = urllib3.Timeout(connect=settings.PUSH_TIMEOUT, read=settings.PUSH_TIMEOUT)
    if endpoint.scheme == "https":
        # Connected to the checked address; the certificate is checked against the host name.
        return urllib3.HTTPSConnectionPool(
            address,
            endpoint.port,
            timeout=timeout,
            retries=False,
            cert_reqs="CERT_REQUIRED",
            server_hostname=endpoint.host,
            assert_hostname=endpoint.host,
        )
    return urllib3.HTTPConnectionPool(address, endpoint.port, timeout=timeout, retries=False)


def push_send(
    subscription: PushSubscription,
    payload: bytes,
    *,
    keys: VapidKeys,
    urgency: str = "normal",
    topic: str | None = None,
) -> PushAnswer:
    """Send ``payload`` to the device; the push service's status (and Retry-After). Raises
    EndpointRefused when the endpoint no longer passes, urllib3's errors when the push
    service cannot be reached."""
    endpoint = endpoint_parse(subscription.endpoint)
    address = endpoint_addresses(endpoint)[0]
    encrypted = WebPusher(
        {
            "endpoint": subscription.endpoint,
            "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
        }
    ).encode(payload, content_encoding="aes128gcm")["body"]
    headers = {
        "Host": endpoint.origin.split("://", 1)[1],
        "TTL": str(settings.PUSH_TTL),
        "Urgency": urgency,
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        **vapid_headers(keys, audience=endpoint.origin),
    }
    if topic:
        # A newer message with the same topic replaces one the device has not fetched yet.
        headers["Topic"] = topic
    with _pool(endpoint, str(address)) as pool:
        response = pool.urlopen(
            "POST",
            endpoint.target,
            body=encrypted,
            headers=headers,
            redirect=False,
            retries=False,
            preload_content=True,
            assert_same_host=False,
        )
    return PushAnswer(
        status=response.status, retry_after=_retry_after(response.headers.get("Retry-After"))
    )
