from __future__ import annotations

from typing import Any

import pytest
from django.core import mail

from project.accounts.models import User
from project.notify.services import events_dispatch
from project.scouting import selectors
from project.scouting.models import Notification
from project.scouting.services import activity
from tests.builders import make_nomination, make_user
from tests.helpers import ApiClient, EventRecorder, assert_error, run_tasks

pytestmark = pytest.mark.django_db


def notify(user: User, message: str = "Hello", kind: str = "new_follower") -> Notification:
    notification = activity.notification_create(user=user, type=kind, message=message)
    assert notification is not None
    return notification


def test_list_newest_first_with_unread_count(scout_api: ApiClient, scout: User) -> None:
    first = notify(scout, "first")
    second = notify(scout, "second")
    notify(make_user(), "someone else's")
    response = scout_api.get("/api/notifications")
    assert response.status_code == 200
    body = response.json()
    assert body["unreadCount"] == 2
    assert [item["id"] for item in body["items"]] == [second.pk, first.pk]
    assert body["items"][0] == {
        "id": second.pk,
        "message": "second",
        "type": "new_follower",
        "read": False,
        "createdAt": body["items"][0]["createdAt"],
        "relatedNominationId": None,
    }
    paged = scout_api.get("/api/notifications?limit=1")
    assert [item["id"] for item in paged.json()["items"]] == [second.pk]
    assert paged.json()["unreadCount"] == 2
    assert 'rel="next"' in paged.headers["Link"]


def test_the_live_notification_is_what_the_list_answers(scout_api: ApiClient, scout: User) -> None:
    """notification.created's data is written out by hand (``notification_data``): it must
    be the list's item as the REST schema encodes it, read or not, with or without a
    nomination."""
    other = make_user()
    nomination = make_nomination(other)
    read = notify(scout, "read one")
    Notification.objects.filter(pk=read.pk).update(read=True)
    Notification.objects.create(
        user=scout, type="vote_received", message="about", related_nomination=nomination
    )
    items = scout_api.get("/api/notifications").json()["items"]
    assert len(items) == 2
    rows = Notification.objects.in_bulk([item["id"] for item in items])
    assert [selectors.notification_data(rows[item["id"]]) for item in items] == items


def test_mark_read(scout_api: ApiClient, scout: User) -> None:
    first = notify(scout)
    notify(scout)
    notify(scout)
    others = notify(make_user())
    response = scout_api.post("/api/notifications/read", {"ids": [first.pk, others.pk]})
    assert response.status_code == 200 and response.json() == {"unreadCount": 2}
    others.refresh_from_db()
    assert others.read is False
    assert scout_api.post("/api/notifications/read", {"all": True}).json() == {"unreadCount": 0}
    assert not Notification.objects.filter(user=scout, read=False).exists()
    assert_error(scout_api.post("/api/notifications/read", {}), 400, "Give ids or all: true")


def test_notification_calls_require_sign_in(api: ApiClient) -> None:
    assert_error(api.get("/api/notifications"), 401)
    assert_error(api.post("/api/notifications/read", {"all": True}), 401)


@pytest.mark.parametrize(
    ("kind", "setting"),
    [
        ("vote_received", "vote_notifications"),
        ("nomination_approved", "nomination_notifications"),
        ("nomination_rejected", "nomination_notifications"),
    ],
)
def test_preferences_gate_their_types(scout: User, kind: str, setting: str) -> None:
    setattr(scout.settings, setting, False)
    scout.settings.save()
    assert activity.notification_create(user=scout, type=kind, message="x") is None
    assert not Notification.objects.exists()
    setattr(scout.settings, setting, True)
    scout.settings.save()
    assert activity.notification_create(user=scout, type=kind, message="x") is not None


def test_create_publishes_and_emails_after_commit(
    scout: User, events: EventRecorder, django_capture_on_commit_callbacks: Any
) -> None:
    nomination = make_nomination(scout)
    events.clear()
    with django_capture_on_commit_callbacks(execute=True):
        notification = activity.notification_create(
            user=scout,
            type="nomination_approved",
            message="Your nomination was approved",
            related_nomination=nomination,
        )
        assert mail.outbox == []
    assert notification is not None
    event = events.one("notification.created")
    assert event.user_ids == (scout.pk,) and event.sport is None and not event.admins
    assert event.data["relatedNominationId"] == nomination.pk
    assert event.data["type"] == "nomination_approved"
    assert mail.outbox == []  # the worker's dispatch and then its email task send it
    events_dispatch()
    run_tasks()
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Your nomination was approved"
    assert mail.outbox[0].to == [scout.email]
