"""project/common/db.py's rows written and read by hand hold what the ORM would have."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import connection, transaction

from project.accounts.models import User
from project.common.db import Pending, insert_row
from project.scouting.models import Activity, ActivityType, Notification, NotificationType
from tests.builders import make_user

pytestmark = pytest.mark.django_db

USERS = User._meta.db_table


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


def test_pending_statements_answer_in_order_together(scout: User) -> None:
    """Statements added to ``Pending`` are answered each with its own rows, a statement
    without rows with none; on PostgreSQL they go out in psycopg's pipeline mode."""
    with transaction.atomic(), Pending(connection) as pending:
        first = pending.add(f"UPDATE {USERS} SET points = points + %s WHERE id = %s", [3, scout.pk])
        second = pending.add(
            f"UPDATE {USERS} SET points = points + %s WHERE id = %s RETURNING points",
            [4, scout.pk],
        )
        if connection.vendor == "postgresql":
            from psycopg import pq

            assert connection.connection.pgconn.pipeline_status == pq.PipelineStatus.ON
        assert pending.rows(second) == [(7,)]
        assert pending.rows(first) == []
    scout.refresh_from_db()
    assert scout.points == 7


def test_pending_statements_roll_back_with_their_transaction(scout: User) -> None:
    with pytest.raises(RuntimeError), transaction.atomic(), Pending(connection) as pending:
        pending.add(f"UPDATE {USERS} SET points = points + %s WHERE id = %s", [5, scout.pk])
        assert pending.rows(0) == []
        raise RuntimeError("the caller gives up: nothing it sent stays")
    scout.refresh_from_db()
    assert scout.points == 0
    # The connection is out of pipeline mode and usable.
    assert User.objects.filter(pk=scout.pk).values_list("points", flat=True).get() == 0
