"""The daily prune of what outbound delivery leaves behind (project/notify/prune.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from project.jobs.models import Delivery, DeliveryStatus
from project.notify.models import NotificationEmail
from project.notify.prune import outbound_prune
from project.push.models import PushDelivery, PushDeliveryStatus, PushWindow
from tests.builders import make_user

pytestmark = pytest.mark.django_db


def _delivery(key: str, status: str, days_ago: float) -> Delivery:
    delivery = Delivery.objects.create(
        key=key, recipients=["a@example.com"], subject="s", body="b", status=status
    )
    Delivery.objects.filter(pk=delivery.pk).update(
        created_at=timezone.now() - timedelta(days=days_ago)
    )
    return delivery


def _push(key: str, status: str, days_ago: float) -> PushDelivery:
    push = PushDelivery.objects.create(key=key, subscription_id=1, status=status)
    PushDelivery.objects.filter(pk=push.pk).update(
        created_at=timezone.now() - timedelta(days=days_ago)
    )
    return push


def test_old_sent_rows_go_and_parked_and_recent_ones_stay() -> None:
    member = make_user()
    now = timezone.now()
    old_sent = _delivery("old-sent", DeliveryStatus.SENT, 31)
    old_parked = _delivery("old-parked", DeliveryStatus.PARKED, 31)
    new_sent = _delivery("new-sent", DeliveryStatus.SENT, 29)
    old_push = _push("old-push", PushDeliveryStatus.SENT, 31)
    old_dropped = _push("old-dropped", PushDeliveryStatus.DROPPED, 31)
    old_parked_push = _push("old-parked-push", PushDeliveryStatus.PARKED, 31)
    PushWindow.objects.create(user=member, nomination_id=1, last_at=now - timedelta(days=2))
    fresh_window = PushWindow.objects.create(
        user=member, nomination_id=2, last_at=now - timedelta(minutes=5)
    )
    NotificationEmail.objects.create(
        user=member, kind="vote_received", nomination_id=1, events=3, sent_at=now - timedelta(3)
    )
    today = NotificationEmail.objects.create(
        user=member, kind="vote_received", nomination_id=2, events=1, sent_at=now
    )

    assert outbound_prune(now) == {
        "emails": 1,
        "pushes": 2,
        "push windows": 1,
        "email records": 1,
    }
    assert set(Delivery.objects.values_list("pk", flat=True)) == {old_parked.pk, new_sent.pk}
    assert set(PushDelivery.objects.values_list("pk", flat=True)) == {old_parked_push.pk}
    assert list(PushWindow.objects.values_list("pk", flat=True)) == [fresh_window.pk]
    assert list(NotificationEmail.objects.values_list("pk", flat=True)) == [today.pk]
    assert old_sent.pk not in Delivery.objects.values_list("pk", flat=True)
    assert not PushDelivery.objects.filter(pk__in=[old_push.pk, old_dropped.pk]).exists()


def test_the_command_says_what_went(capsys: pytest.CaptureFixture[str]) -> None:
    _delivery("gone", DeliveryStatus.SENT, 40)
    call_command("prune_outbound")
    assert capsys.readouterr().out.strip() == (
        "emails 1, pushes 0, push windows 0, email records 0"
    )
