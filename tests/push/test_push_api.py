"""The push API: the server's key, a member's devices (subscribe, hand over, unsubscribe), and
the endpoints the server refuses to post to."""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest
from django.test import Client

from project.accounts.export import profile_export
from project.accounts.models import User
from project.accounts.services import user_delete
from project.push.endpoints import address_is_public
from project.push.models import PushSubscription
from project.push.services import MAX_DEVICES
from project.push.vapid import VapidKeys
from tests.helpers import ApiClient
from tests.push.conftest import new_device

pytestmark = pytest.mark.django_db

PUBLIC_ENDPOINT = "https://1.1.1.1/push/v1/device"


def test_the_key_is_null_while_push_is_off(api: ApiClient, settings: Any) -> None:
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    response = api.get("/api/push/key")
    assert response.status_code == 200
    assert response.json() == {"publicKey": None}


def test_the_key_is_the_configured_public_key(api: ApiClient, vapid: VapidKeys) -> None:
    response = Client().get("/api/push/key")
    assert response.status_code == 200
    assert response.json() == {"publicKey": vapid.public_key}


def test_subscribing_while_push_is_off_is_a_404(scout_api: ApiClient, settings: Any) -> None:
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    response = scout_api.post("/api/push/subscriptions", new_device().subscription(PUBLIC_ENDPOINT))
    assert response.status_code == 404
    assert response.json() == {
        "message": "Push notifications are not enabled on this server",
        "code": "push_disabled",
    }
    assert PushSubscription.objects.count() == 0


def test_subscribe_again_and_unsubscribe(
    scout_api: ApiClient, other_api: ApiClient, scout: User, other_scout: User, vapid: VapidKeys
) -> None:
    device = new_device()
    created = scout_api.post("/api/push/subscriptions", device.subscription(PUBLIC_ENDPOINT))
    assert created.status_code == 201, created.content
    body = created.json()
    assert set(body) == {"id", "endpoint", "createdAt"}
    assert body["endpoint"] == PUBLIC_ENDPOINT

    # The same browser again (new keys, another member signed in on it): the same row, theirs.
    again = new_device()
    taken = other_api.post("/api/push/subscriptions", again.subscription(PUBLIC_ENDPOINT))
    assert taken.status_code == 200, taken.content
    assert taken.json() == body
    row = PushSubscription.objects.get()
    assert (row.user_id, row.p256dh, row.auth) == (other_scout.pk, again.p256dh, again.auth)

    # It is no longer the first member's: not theirs to delete.
    assert scout_api.request("DELETE", f"/api/push/subscriptions/{row.pk}").status_code == 404
    deleted = other_api.request("DELETE", f"/api/push/subscriptions/{row.pk}")
    assert deleted.status_code == 204 and deleted.content == b""
    assert PushSubscription.objects.count() == 0
    missing = other_api.request("DELETE", f"/api/push/subscriptions/{row.pk}")
    assert missing.status_code == 404
    assert missing.json() == {"message": "Push subscription not found", "code": "not_found"}


def test_the_documented_keys_are_the_browser_s_own_names(api: ApiClient) -> None:
    """The schema (and so the SPA's generated types) names the keys as
    PushSubscription.toJSON() does, ``p256dh`` and ``auth``, which the server takes."""
    schema = api.get("/api/openapi.json").json()
    keys = schema["components"]["schemas"]["PushKeysIn"]
    assert set(keys["properties"]) == {"p256dh", "auth"}
    assert set(keys["required"]) == {"p256dh", "auth"}


def test_anonymous_callers_are_refused(api: ApiClient, scout: User, vapid: VapidKeys) -> None:
    posted = api.post("/api/push/subscriptions", new_device().subscription(PUBLIC_ENDPOINT))
    assert posted.status_code == 401
    assert posted.json()["code"] == "not_authenticated"
    row = PushSubscription.objects.create(
        user=scout, endpoint=PUBLIC_ENDPOINT, p256dh="x", auth="y"
    )
    assert api.request("DELETE", f"/api/push/subscriptions/{row.pk}").status_code == 401
    assert PushSubscription.objects.filter(pk=row.pk).exists()


def test_a_write_without_the_csrf_token_is_refused(scout_api: ApiClient, vapid: VapidKeys) -> None:
    response = scout_api.post(
        "/api/push/subscriptions", new_device().subscription(PUBLIC_ENDPOINT), csrf=False
    )
    assert response.status_code == 403
    assert PushSubscription.objects.count() == 0


REFUSED = [
    ("not a url", "Push endpoint must be a valid URL"),
    ("ftp://push.example.com/x", "Push endpoint must be a valid URL"),
    ("https://user:secret@1.1.1.1/x", "Push endpoint must be a valid URL"),
    ("http://1.1.1.1/push", "Push endpoint must use https"),
    ("https://1.1.1.1:8443/push", "Push endpoint must use the default https port"),
    ("https://127.0.0.1/push", "Push endpoint must be on a public address"),
    ("https://localhost/push", "Push endpoint must be on a public address"),
    ("https://10.1.2.3/push", "Push endpoint must be on a public address"),
    ("https://192.168.1.1/push", "Push endpoint must be on a public address"),
    ("https://172.16.0.1/push", "Push endpoint must be on a public address"),
    ("https://169.254.169.254/latest/meta-data", "Push endpoint must be on a public address"),
    ("https://100.64.0.1/push", "Push endpoint must be on a public address"),
    ("https://224.0.0.1/push", "Push endpoint must be on a public address"),
    ("https://0.0.0.0/push", "Push endpoint must be on a public address"),
    ("https://[::1]/push", "Push endpoint must be on a public address"),
    ("https://[fd00:ec2::254]/push", "Push endpoint must be on a public address"),
    ("https://[fe80::1]/push", "Push endpoint must be on a public address"),
    ("https://[::ffff:127.0.0.1]/push", "Push endpoint must be on a public address"),
    ("https://[2002:a00:1::]/push", "Push endpoint must be on a public address"),
    ("https://[64:ff9b::a9fe:a9fe]/push", "Push endpoint must be on a public address"),
    ("https://[ff02::1]/push", "Push endpoint must be on a public address"),
    ("https://no-such-host.invalid/push", "Push endpoint's host could not be resolved"),
]


@pytest.mark.parametrize(("endpoint", "message"), REFUSED)
def test_endpoints_the_server_will_not_post_to_are_a_400(
    scout_api: ApiClient, vapid: VapidKeys, settings: Any, endpoint: str, message: str
) -> None:
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = False
    response = scout_api.post("/api/push/subscriptions", new_device().subscription(endpoint))
    assert response.status_code == 400, response.content
    assert response.json() == {
        "message": message,
        "code": "validation_error",
        "fields": {"endpoint": message},
    }
    assert PushSubscription.objects.count() == 0


def test_the_test_setting_lets_a_local_endpoint_through(
    scout_api: ApiClient, vapid: VapidKeys
) -> None:
    response = scout_api.post(
        "/api/push/subscriptions", new_device().subscription("http://127.0.0.1:9/push")
    )
    assert response.status_code == 201, response.content


def test_keys_that_are_not_a_p256_point_and_a_16_byte_secret_are_a_400(
    scout_api: ApiClient, vapid: VapidKeys
) -> None:
    device = new_device()
    p256dh_message = "Push key p256dh must be an uncompressed P-256 public key in base64url"
    auth_message = "Push key auth must be 16 bytes in base64url"
    cases: list[tuple[dict[str, str], str, str]] = [
        ({"p256dh": "not base64!", "auth": device.auth}, "keys.p256dh", p256dh_message),
        ({"p256dh": device.p256dh[:-4], "auth": device.auth}, "keys.p256dh", p256dh_message),
        # 65 bytes starting 0x04 that are not a point on the curve.
        ({"p256dh": "BA" + "A" * 85, "auth": device.auth}, "keys.p256dh", p256dh_message),
        ({"p256dh": device.p256dh, "auth": "c2hvcnQ"}, "keys.auth", auth_message),
        ({"p256dh": device.p256dh, "auth": "***"}, "keys.auth", auth_message),
    ]
    for keys, field, message in cases:
        body = {"endpoint": PUBLIC_ENDPOINT, "keys": keys}
        response = scout_api.post("/api/push/subscriptions", body)
        assert response.status_code == 400, (keys, response.content)
        assert response.json()["message"] == message
        assert response.json()["fields"] == {field: message}
    missing = scout_api.post("/api/push/subscriptions", {"endpoint": PUBLIC_ENDPOINT})
    assert missing.status_code == 400
    assert missing.json()["code"] == "validation_error"
    assert PushSubscription.objects.count() == 0


def test_an_eleventh_device_drops_the_oldest(
    scout_api: ApiClient, scout: User, vapid: VapidKeys
) -> None:
    ids = []
    for n in range(MAX_DEVICES + 1):
        endpoint = f"https://1.1.1.1/push/{n}"
        response = scout_api.post("/api/push/subscriptions", new_device().subscription(endpoint))
        assert response.status_code == 201
        ids.append(response.json()["id"])
    kept = set(PushSubscription.objects.filter(user=scout).values_list("pk", flat=True))
    assert kept == set(ids[1:])


def test_devices_are_in_the_export_and_go_with_the_account(
    scout_api: ApiClient, scout: User, other_scout: User, vapid: VapidKeys
) -> None:
    device = new_device()
    created = scout_api.post("/api/push/subscriptions", device.subscription(PUBLIC_ENDPOINT))
    PushSubscription.objects.create(
        user=other_scout, endpoint="https://1.1.1.1/other", p256dh="x", auth="y"
    )
    [exported] = profile_export(user=scout)["pushSubscriptions"]
    assert exported["id"] == created.json()["id"]
    assert exported["endpoint"] == PUBLIC_ENDPOINT
    assert "p256dh" not in exported and "auth" not in exported
    user_delete(user=scout)
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        "https://1.1.1.1/other"
    ]


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("1.1.1.1", True),
        ("142.250.74.110", True),
        ("2606:4700:4700::1111", True),
        ("100.64.0.1", False),
        ("169.254.169.254", False),
        ("198.18.0.1", False),
        ("239.255.255.250", False),
        ("fd00:ec2::254", False),
        ("::ffff:10.0.0.1", False),
        ("::ffff:1.1.1.1", True),
    ],
)
def test_public_addresses(address: str, public: bool) -> None:
    assert address_is_public(ipaddress.ip_address(address)) is public
