"""Emails and pushes do not wait behind share card redraws: with a backlog of redraws ready,
an email or a push enqueued after them is the worker's next task, and a redraw asked again
while one is queued for the same nomination is that same task."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from django.db import transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from project.jobs.services import email_enqueue
from project.jobs.tasks import run_command, send_email
from project.push.services import push_enqueue
from project.push.tasks import send_push
from project.push.vapid import VapidKeys
from project.sharing.models import ShareCard
from project.sharing.redraws import card_redraw_request
from tests.builders import make_user
from tests.helpers import run_tasks
from tests.push.conftest import push_service, vapid
from tests.push.service import PushService
from tests.push.test_push_delivery import subscribe
from tests.sharing.conftest import nominate

pytestmark = pytest.mark.django_db(transaction=True)

__all__ = ["push_service", "vapid"]


@pytest.fixture(autouse=True)
def _media(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"
    settings.S3_BUCKET = ""


def redraws() -> Any:
    return DBTaskResult.objects.filter(
        task_path=run_command.module_path, args_kwargs__args__0="share_cards"
    )


def test_an_email_enqueued_behind_a_backlog_of_redraws_is_claimed_first() -> None:
    # Each new nomination asks for its card's redraw; the backlog is ready (its delay over)
    # before the email is enqueued.
    nominations = [nominate(f"Backlog Player {number}") for number in range(4)]
    redraws().update(run_after=timezone.now() - timedelta(minutes=5))
    assert redraws().count() == len(nominations)
    with transaction.atomic():
        email_enqueue(
            key="test:takedown-confirmation",
            to="parent@example.com",
            subject="Your takedown request",
            body="Confirm it.",
        )

    # What the worker claims next.
    with transaction.atomic():
        claimed = DBTaskResult.objects.ready().get_locked()
    assert claimed is not None and claimed.task_path == send_email.module_path

    # The worker runs every task: the email before any redraw.
    assert run_tasks() == len(nominations) + 1
    order = list(DBTaskResult.objects.order_by("started_at").values_list("task_path", flat=True))
    assert order[0] == send_email.module_path
    assert [message.subject for message in mail.outbox] == ["Your takedown request"]
    assert ShareCard.objects.count() == len(nominations)


def test_a_push_enqueued_behind_a_backlog_of_redraws_is_claimed_first(
    vapid: VapidKeys, push_service: PushService
) -> None:
    nominations = [nominate(f"Backlog Player {number}") for number in range(4)]
    redraws().update(run_after=timezone.now() - timedelta(minutes=5))
    member = make_user()
    subscribe(member, push_service, "/device")
    with transaction.atomic():
        assert push_enqueue(
            user_id=member.pk, title="Hello", body="B", nomination_id=None, notification_id=1
        )

    with transaction.atomic():
        claimed = DBTaskResult.objects.ready().get_locked()
    assert claimed is not None and claimed.task_path == send_push.module_path
    assert send_push.priority == send_email.priority

    assert run_tasks() == len(nominations) + 1
    order = list(DBTaskResult.objects.order_by("started_at").values_list("task_path", flat=True))
    assert order[0] == send_push.module_path
    assert [message.path for message in push_service.accepted()] == ["/device"]


def test_redraws_asked_while_one_is_queued_for_the_nomination_are_that_one_task() -> None:
    nomination = nominate("Asked Often")
    for _ in range(5):
        with transaction.atomic():
            card_redraw_request(nomination.pk)
    other = nominate("Asked Once")
    assert redraws().filter(args_kwargs__args__1__1=str(nomination.pk)).count() == 1
    assert redraws().filter(args_kwargs__args__1__1=str(other.pk)).count() == 1
    redraws().update(run_after=timezone.now() - timedelta(seconds=1))
    assert run_tasks() == 2
    # Once its task started, the next ask is a new task.
    card_redraw_request(nomination.pk)
    assert redraws().filter(args_kwargs__args__1__1=str(nomination.pk)).count() == 2
