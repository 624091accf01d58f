"""project/common/db.py's rows written and read by hand hold what the ORM would have."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection

from project.accounts.models import User
from project.common.db import insert_row
from project.scouting.models import Activity, ActivityType, Notification, NotificationType
from tests.helpers import make_user

pytestmark = pytest.mark.django_db


def test_insert_row_stores_each_value_as_the_orm_saves_it(scout: User) -> None:
    other = make_user()
    at = datetime(2025, 3, 12, 15, 0, 7, 123456, tzinfo=UTC)
    metadata = {"playerName": 'Zoë O\'Brien "Jr"', "nested": {"ids": [1, 2]}, "none": None}
    inserted = insert_row(
        Activity,
        connection,
        user_id=scout.pk,
        activity_type=ActivityType.FOLLOW,
        sport="hockey",
        related_user_id=other.pk,
        related_player_id=None,
        related_nomination_id=None,
        metadata=metadata,
        created_at=at,
    )
    activity = Activity.objects.get(pk=inserted.pk)
    assert (inserted.metadata, inserted.created_at) == (metadata, at)
    assert (activity.user_id, activity.related_user_id, activity.related_player_id) == (
        scout.pk,
        other.pk,
        None,
    )
    assert (activity.activity_type, activity.sport) == (ActivityType.FOLLOW, "hockey")
    assert activity.metadata == metadata
    assert activity.created_at == at
    # Another model: its own statement.
    again = insert_row(
        Notification,
        connection,
        user_id=scout.pk,
        type=NotificationType.NEW_FOLLOWER,
        message="x",
        read=False,
        related_nomination_id=None,
        created_at=at,
    )
    notification = Notification.objects.get(pk=again.pk)
    assert (notification.read, notification.message, notification.created_at) == (False, "x", at)
