"""Pushes go through the worker to a local push service that decrypts each message with the
device's keys (RFC 8291 aes128gcm, http_ece) and checks its VAPID signature (RFC 8292)."""

from __future__ import annotations

import base64
import json
import time
from datetime import timedelta
from typing import Any

import http_ece
import pytest
import time_machine
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from django.db import transaction
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from project.accounts.models import User, UserSettings
from project.push.models import PushDelivery, PushDeliveryStatus, PushSubscription
from project.push.services import push_enqueue
from project.push.vapid import VapidKeys
from project.scouting.services import votes
from tests.builders import make_nomination, make_user
from tests.helpers import run_tasks
from tests.push.conftest import Device, new_device
from tests.push.service import PushService, Received

pytestmark = pytest.mark.django_db


def _b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def subscribe(user: User, service: PushService, path: str = "/push/device") -> Device:
    device = new_device()
    PushSubscription.objects.create(
        user=user, endpoint=service.url(path), p256dh=device.p256dh, auth=device.auth
    )
    return device


def decrypted(message: Received, device: Device) -> dict[str, Any]:
    plain = http_ece.decrypt(
        message.body,
        private_key=device.private_key,
        auth_secret=device.auth_secret,
        version="aes128gcm",
    )
    data: dict[str, Any] = json.loads(plain)
    return data


def vapid_claims(message: Received, keys: VapidKeys) -> dict[str, Any]:
    """The JWT's claims, once its ES256 signature checks out against the server's public key."""
    scheme, _, params = message.headers["Authorization"].partition(" ")
    assert scheme == "vapid"
    fields = dict(part.split("=", 1) for part in params.split(","))
    assert fields["k"] == keys.public_key
    header, claims, signature = fields["t"].split(".")
    assert json.loads(_b64decode(header)) == {"typ": "JWT", "alg": "ES256"}
    raw = _b64decode(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(
        ec.SECP256R1(), _b64decode(keys.public_key)
    )
    public.verify(
        encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
        f"{header}.{claims}".encode(),
        ec.ECDSA(hashes.SHA256()),
    )
    data: dict[str, Any] = json.loads(_b64decode(claims))
    return data


def test_a_vote_is_pushed_encrypted_and_signed(
    scout: User, other_scout: User, vapid: VapidKeys, push_service: PushService
) -> None:
    nomination = make_nomination(other_scout, name="Vera Voted")
    device = subscribe(other_scout, push_service)
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    # Nothing goes out in the request: the push waits for the worker.
    assert push_service.received == []
    run_tasks()  # the email and the push
    [message] = push_service.received
    assert message.path == "/push/device"
    assert decrypted(message, device) == {
        "title": "Your nomination received a vote",
        "body": "Sam Scout voted for Vera Voted. It now has 1 vote.",
        "url": f"/nominations/{nomination.pk}",
        "tag": f"nomination-{nomination.pk}",
    }
    assert message.headers["TTL"] == "3600"
    assert message.headers["Content-Encoding"] == "aes128gcm"
    assert message.headers["Urgency"] == "normal"
    assert message.headers["Topic"] == f"nomination-{nomination.pk}"
    claims = vapid_claims(message, vapid)
    assert claims["aud"] == f"http://127.0.0.1:{push_service.port}"
    assert claims["sub"] == "mailto:ops@scoutvote.example"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    delivery = PushDelivery.objects.get()
    assert delivery.status == PushDeliveryStatus.SENT and delivery.attempts == 1


def test_a_tampered_signature_fails_the_check(
    scout: User, other_scout: User, vapid: VapidKeys, push_service: PushService
) -> None:
    """The check above can fail: another key pair's public key does not verify it."""
    from project.push.vapid import new_key_pair

    nomination = make_nomination(other_scout)
    subscribe(other_scout, push_service)
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    run_tasks()
    [message] = push_service.received
    other = new_key_pair()
    with pytest.raises(AssertionError):
        vapid_claims(message, VapidKeys(other.public_key, other.private_key, ""))


def test_every_device_of_the_member_gets_it_once(
    scout: User, other_scout: User, vapid: VapidKeys, push_service: PushService
) -> None:
    nomination = make_nomination(other_scout)
    phone = subscribe(other_scout, push_service, "/phone")
    laptop = subscribe(other_scout, push_service, "/laptop")
    subscribe(scout, push_service, "/voter")  # the voter's own device hears nothing
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    [task] = DBTaskResult.objects.filter(queue_name="push")
    run_tasks()
    # The same task run again (a worker killed after sending): nothing is sent twice.
    DBTaskResult.objects.filter(pk=task.pk).update(status=TaskResultStatus.READY)
    assert run_tasks() == 1
    by_path = {m.path: m for m in push_service.received}
    assert len(push_service.received) == 2 and set(by_path) == {"/phone", "/laptop"}
    assert decrypted(by_path["/phone"], phone)["tag"] == f"nomination-{nomination.pk}"
    assert decrypted(by_path["/laptop"], laptop)["tag"] == f"nomination-{nomination.pk}"


@pytest.mark.parametrize("status", [404, 410])
def test_a_device_the_push_service_no_longer_knows_is_deleted(
    scout: User, other_scout: User, vapid: VapidKeys, push_service: PushService, status: int
) -> None:
    nomination = make_nomination(other_scout)
    subscribe(other_scout, push_service, "/gone")
    kept = subscribe(other_scout, push_service, "/kept")
    push_service.answers["/gone"] = status
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    run_tasks()
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        push_service.url("/kept")
    ]
    assert {m.path for m in push_service.received} == {"/gone", "/kept"}
    assert decrypted(next(m for m in push_service.received if m.path == "/kept"), kept)
    statuses = dict(PushDelivery.objects.values_list("subscription_id", "status"))
    assert sorted(statuses.values()) == [PushDeliveryStatus.DROPPED, PushDeliveryStatus.SENT]


def test_a_busy_push_service_is_tried_again_later(
    scout: User, other_scout: User, vapid: VapidKeys, push_service: PushService
) -> None:
    nomination = make_nomination(other_scout)
    device = subscribe(other_scout, push_service, "/busy")
    push_service.answers["/busy"] = 429
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    run_tasks()
    delivery = PushDelivery.objects.get()
    assert delivery.status == PushDeliveryStatus.PENDING and delivery.attempts == 1
    assert delivery.next_attempt_at is not None and delivery.next_attempt_at > timezone.now()
    assert "429" in delivery.last_error
    push_service.answers["/busy"] = 201
    time.sleep(0.3)  # the first retry waits JOBS_RETRY_DELAY (0.2 s here)
    run_tasks()
    delivery.refresh_from_db()
    assert delivery.status == PushDeliveryStatus.SENT and delivery.attempts == 2
    assert len(push_service.received) == 2
    assert decrypted(push_service.received[1], device)["title"] == "Your nomination received a vote"


@pytest.mark.parametrize(
    ("retry_after", "max_delay", "waited"),
    [
        ("3", 3600, 3.0),
        ("0", 3600, 0.2),
        ("600", 2, 2.0),
        ("Wed, 21 Oct 2037 07:28:00 GMT", 3600, 0.2),
    ],
)
def test_a_push_service_s_retry_after_is_honoured_up_to_the_cap(
    scout: User,
    other_scout: User,
    vapid: VapidKeys,
    push_service: PushService,
    settings: Any,
    retry_after: str,
    max_delay: int,
    waited: float,
) -> None:
    # Retry-After longer than the doubling delay (0.2 s here) is waited, at most
    # JOBS_RETRY_MAX_DELAY; a shorter one, or an HTTP date, leaves the doubling delay.
    settings.JOBS_RETRY_MAX_DELAY = max_delay
    nomination = make_nomination(other_scout)
    subscribe(other_scout, push_service, "/slow")
    push_service.answers["/slow"] = 503
    push_service.answer_headers["/slow"] = {"Retry-After": retry_after}
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    run_tasks()
    delivery = PushDelivery.objects.get()
    assert delivery.status == PushDeliveryStatus.PENDING and delivery.next_attempt_at
    [waiting] = DBTaskResult.objects.filter(queue_name="push", status=TaskResultStatus.READY)
    assert waiting.run_after == delivery.next_attempt_at
    # From the attempt's end (its task's), so a slow test run does not shorten the wait.
    [attempt] = DBTaskResult.objects.filter(queue_name="push", status=TaskResultStatus.SUCCESSFUL)
    assert attempt.finished_at is not None
    waits = (delivery.next_attempt_at - attempt.finished_at).total_seconds()
    assert waits == pytest.approx(waited, abs=0.1)


def test_a_push_service_failing_every_time_is_parked(
    scout: User, other_scout: User, vapid: VapidKeys, push_service: PushService
) -> None:
    nomination = make_nomination(other_scout)
    subscribe(other_scout, push_service, "/down")
    push_service.answers["/down"] = 503
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    for _ in range(10):
        run_tasks()
        if PushDelivery.objects.get().status == PushDeliveryStatus.PARKED:
            break
        time.sleep(0.25)
    delivery = PushDelivery.objects.get()
    assert delivery.status == PushDeliveryStatus.PARKED and delivery.attempts == 3
    assert len(push_service.received) == 3
    assert PushSubscription.objects.count() == 1  # a failing push service keeps the device


def test_a_redirect_is_not_followed(
    scout: User, other_scout: User, vapid: VapidKeys, push_service: PushService
) -> None:
    nomination = make_nomination(other_scout)
    subscribe(other_scout, push_service, "/moved")
    push_service.answers["/moved"] = 307
    push_service.answer_headers["/moved"] = {"Location": push_service.url("/elsewhere")}
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    run_tasks()
    assert [m.path for m in push_service.received] == ["/moved"]
    assert PushDelivery.objects.get().status == PushDeliveryStatus.PARKED


def test_an_endpoint_on_a_private_address_is_refused_at_send_time(
    scout: User, other_scout: User, vapid: VapidKeys, push_service: PushService, settings: Any
) -> None:
    """A device stored while its host was public and resolving to a local address now (as
    DNS rebinding would have it) is dropped without a connection."""
    nomination = make_nomination(other_scout)
    subscribe(other_scout, push_service)
    settings.PUSH_ALLOW_PRIVATE_ENDPOINTS = False
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    run_tasks()
    assert push_service.received == []
    assert PushSubscription.objects.count() == 0
    delivery = PushDelivery.objects.get()
    assert delivery.status == PushDeliveryStatus.DROPPED
    assert delivery.last_error == "Push endpoint must use https"


def test_a_rolled_back_vote_enqueues_and_pushes_nothing(
    scout: User, other_scout: User, vapid: VapidKeys, push_service: PushService, settings: Any
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    UserSettings.objects.update_or_create(user=other_scout, defaults={"email_notifications": False})
    nomination = make_nomination(other_scout)
    DBTaskResult.objects.all().delete()  # the new nomination's card: not what is measured
    subscribe(other_scout, push_service)
    with pytest.raises(RuntimeError), transaction.atomic():
        votes.vote_cast(user=scout, nomination_id=nomination.pk)
        assert DBTaskResult.objects.filter(queue_name="push").count() == 1
        raise RuntimeError("the vote fails after its notification")
    assert DBTaskResult.objects.count() == 0
    assert run_tasks() == 0
    assert push_service.received == []
    # Nor does the rolled-back vote hold the next one back for a minute.
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    run_tasks()
    assert len(push_service.received) == 1


def test_one_push_per_nomination_a_minute(
    other_scout: User, vapid: VapidKeys, push_service: PushService
) -> None:
    nomination = make_nomination(other_scout)
    second = make_nomination(other_scout)
    device = subscribe(other_scout, push_service)
    voters = [make_user() for _ in range(5)]
    start = timezone.now()
    with time_machine.travel(start, tick=False) as clock:
        votes.vote_cast(user=voters[0], nomination_id=nomination.pk)
        clock.shift(timedelta(seconds=30))
        votes.vote_cast(user=voters[1], nomination_id=nomination.pk)
        # Another nomination has a minute of its own.
        votes.vote_cast(user=voters[1], nomination_id=second.pk)
        clock.shift(timedelta(seconds=29))
        votes.vote_cast(user=voters[2], nomination_id=nomination.pk)
        assert DBTaskResult.objects.filter(queue_name="push").count() == 2
        clock.shift(timedelta(seconds=1))  # a minute after the first push
        votes.vote_cast(user=voters[3], nomination_id=nomination.pk)
        votes.vote_cast(user=voters[4], nomination_id=nomination.pk)
        assert DBTaskResult.objects.filter(queue_name="push").count() == 3
    run_tasks()
    pushed = sorted(
        (m["tag"], m["body"].rsplit(". ", 1)[1])
        for m in (decrypted(m, device) for m in push_service.received)
    )
    assert pushed == sorted(
        [
            (f"nomination-{nomination.pk}", "It now has 1 vote."),
            (f"nomination-{second.pk}", "It now has 1 vote."),
            (f"nomination-{nomination.pk}", "It now has 4 votes."),
        ]
    )


def test_vote_notifications_off_pushes_nothing(
    scout: User, other_scout: User, vapid: VapidKeys, push_service: PushService
) -> None:
    UserSettings.objects.update_or_create(user=other_scout, defaults={"vote_notifications": False})
    nomination = make_nomination(other_scout)
    subscribe(other_scout, push_service)
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    assert not DBTaskResult.objects.filter(queue_name="push").exists()


def test_push_off_or_no_device_costs_no_task(
    scout: User, other_scout: User, vapid: VapidKeys, settings: Any
) -> None:
    nomination = make_nomination(other_scout)
    assert not push_enqueue(
        user_id=other_scout.pk, title="t", body="b", nomination_id=nomination.pk, notification_id=1
    )
    assert not push_enqueue(
        user_id=other_scout.pk, title="t", body="b", nomination_id=None, notification_id=1
    )
    settings.VAPID_PUBLIC_KEY = ""
    PushSubscription.objects.create(
        user=other_scout, endpoint="https://1.1.1.1/x", p256dh="x", auth="y"
    )
    assert not push_enqueue(
        user_id=other_scout.pk, title="t", body="b", nomination_id=nomination.pk, notification_id=1
    )
    assert not DBTaskResult.objects.filter(queue_name="push").exists()


def test_a_notification_without_a_nomination_opens_the_home_page(
    other_scout: User, vapid: VapidKeys, push_service: PushService
) -> None:
    device = subscribe(other_scout, push_service)
    with transaction.atomic():
        assert push_enqueue(
            user_id=other_scout.pk,
            title="You have a new follower",
            body="Sam Scout started following you",
            nomination_id=None,
            notification_id=77,
        )
    run_tasks()
    [message] = push_service.received
    assert decrypted(message, device) == {
        "title": "You have a new follower",
        "body": "Sam Scout started following you",
        "url": "/",
        "tag": "notification-77",
    }
