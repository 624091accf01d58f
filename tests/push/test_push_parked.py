"""A parked push (refused by the push service, or failing every attempt) is sent again by an
operator, as a parked email is: ``manage.py push_deliveries`` and the Django admin's action,
which only those who may change push deliveries get. The retry reaches a local push service
that decrypts it with the device's keys."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import Permission
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django_tasks_db.models import DBTaskResult

from project.accounts.models import User
from project.push.models import PushDelivery, PushDeliveryStatus, PushSubscription
from project.push.tasks import send_push
from project.push.vapid import VapidKeys
from project.scouting.services import votes
from tests.builders import make_nomination, make_user
from tests.helpers import run_tasks
from tests.push.service import PushService
from tests.push.test_push_delivery import decrypted, subscribe

pytestmark = pytest.mark.django_db

TITLE = "Your nomination received a vote"


def _parked_push(scout: User, nominator: User, service: PushService, path: str) -> PushDelivery:
    """A vote's push the push service refuses (400: parked at once), and the vote's email sent."""
    nomination = make_nomination(nominator)
    service.answers[path] = 400
    votes.vote_cast(user=scout, nomination_id=nomination.pk)
    run_tasks()
    delivery = PushDelivery.objects.get()
    assert delivery.status == PushDeliveryStatus.PARKED and delivery.attempts == 1
    assert [m.path for m in service.received] == [path]
    service.answers[path] = 201
    return delivery


def test_the_operator_lists_and_retries_parked_pushes(
    scout: User, other_scout: User, vapid: VapidKeys, push_service: PushService
) -> None:
    device = subscribe(other_scout, push_service, "/phone")
    delivery = _parked_push(scout, other_scout, push_service, "/phone")
    listing = StringIO()
    call_command("push_deliveries", stdout=listing)
    assert delivery.key in listing.getvalue() and "answered 400" in listing.getvalue()

    out = StringIO()
    call_command("push_deliveries", "--retry", str(delivery.pk), stdout=out)
    assert "Queued again: 1" in out.getvalue()
    assert run_tasks() == 1
    assert len(push_service.received) == 2
    assert decrypted(push_service.received[1], device)["title"] == TITLE
    delivery.refresh_from_db()
    assert delivery.status == PushDeliveryStatus.SENT and delivery.attempts == 1
    empty = StringIO()
    call_command("push_deliveries", stdout=empty)
    assert "No parked deliveries." in empty.getvalue()
    # Sent now, so not parked any more: nothing to send again.
    with pytest.raises(CommandError, match=f"Not parked: {delivery.pk}"):
        call_command("push_deliveries", "--retry", str(delivery.pk))


def test_a_parked_push_whose_device_is_gone_or_handed_over_stays_parked(
    scout: User, other_scout: User, vapid: VapidKeys, push_service: PushService
) -> None:
    subscribe(other_scout, push_service, "/shared")
    delivery = _parked_push(scout, other_scout, push_service, "/shared")
    # Another member signs in on the browser: the device is theirs now, not the push's.
    PushSubscription.objects.update(user=make_user())
    out = StringIO()
    call_command("push_deliveries", "--retry-all", stdout=out)
    assert "Queued again: 0" in out.getvalue()
    PushSubscription.objects.all().delete()
    call_command("push_deliveries", "--retry-all", stdout=out)
    assert run_tasks() == 0 and len(push_service.received) == 1
    assert PushDelivery.objects.get(pk=delivery.pk).status == PushDeliveryStatus.PARKED


def test_the_admin_sends_parked_pushes_again(
    scout: User,
    other_scout: User,
    admin_user: User,
    vapid: VapidKeys,
    push_service: PushService,
) -> None:
    device = subscribe(other_scout, push_service, "/laptop")
    delivery = _parked_push(scout, other_scout, push_service, "/laptop")
    admin_user.is_staff = admin_user.is_superuser = True
    admin_user.save()
    client = Client()
    client.force_login(admin_user)
    listing = client.get("/admin-django/push/pushdelivery/?status__exact=parked")
    assert listing.status_code == 200 and delivery.key.encode() in listing.content
    answer = client.post(
        "/admin-django/push/pushdelivery/",
        {"action": "retry_parked", "_selected_action": [delivery.pk]},
    )
    assert answer.status_code == 302
    assert run_tasks() == 1
    assert decrypted(push_service.received[-1], device)["title"] == TITLE
    assert PushDelivery.objects.get().status == PushDeliveryStatus.SENT


@pytest.mark.parametrize("permission", ["view", "change"])
def test_only_staff_who_may_change_push_deliveries_send_them_again(
    scout: User,
    other_scout: User,
    vapid: VapidKeys,
    push_service: PushService,
    permission: str,
) -> None:
    subscribe(other_scout, push_service, "/tablet")
    delivery = _parked_push(scout, other_scout, push_service, "/tablet")
    staff = make_user(is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename=f"{permission}_pushdelivery"))
    client = Client()
    client.force_login(staff)
    listing = client.get("/admin-django/push/pushdelivery/")
    assert listing.status_code == 200
    assert (b'value="retry_parked"' in listing.content) is (permission == "change")
    before = DBTaskResult.objects.count()
    answer = client.post(
        "/admin-django/push/pushdelivery/",
        {"action": "retry_parked", "_selected_action": [delivery.pk]},
    )
    # Without the action on offer the admin only shows its list again.
    assert answer.status_code == (302 if permission == "change" else 200)
    delivery.refresh_from_db()
    if permission == "view":
        assert delivery.status == PushDeliveryStatus.PARKED
        assert DBTaskResult.objects.count() == before
    else:
        assert delivery.status == PushDeliveryStatus.PENDING
        run_tasks()
        assert PushDelivery.objects.get().status == PushDeliveryStatus.SENT


@pytest.mark.django_db(transaction=True)
def test_parked_pushes_from_before_get_their_member_and_message_from_their_task() -> None:
    """The migration that adds the columns fills them for parked rows from the task that
    carried the push, while the worker keeps it; a row whose task is gone stays empty."""
    executor = MigrationExecutor(connection)
    executor.migrate([("push", "0002_delivery_user_and_payload")])
    member = make_user()
    payload = {"title": "T", "body": "B", "url": "/nominations/1", "tag": "nomination-1"}
    send_push.enqueue("notify:7", member.pk, payload)
    kept = PushDelivery.objects.create(
        key="notify:7:s3", subscription_id=3, status=PushDeliveryStatus.PARKED
    )
    sent = PushDelivery.objects.create(
        key="notify:7:s4", subscription_id=4, status=PushDeliveryStatus.SENT
    )
    lost = PushDelivery.objects.create(
        key="notify:8:s3", subscription_id=3, status=PushDeliveryStatus.PARKED
    )
    executor = MigrationExecutor(connection)
    executor.migrate([("push", "0003_parked_deliveries_backfill")])
    kept.refresh_from_db()
    assert (kept.user_id, kept.payload) == (member.pk, payload)
    sent.refresh_from_db()
    lost.refresh_from_db()
    assert (sent.user_id, sent.payload) == (None, {})
    assert (lost.user_id, lost.payload) == (None, {})
