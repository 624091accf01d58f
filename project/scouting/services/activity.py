"""The feed's activity and members' notifications (in-app and live; the apps that carry a
notification further, email and push, hang off ``hooks.register_notification_created``)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.utils import timezone

from project.accounts.models import User, UserSettings
from project.common.db import insert_row, loaded
from project.common.errors import ValidationFailed
from project.scouting import hooks, selectors
from project.scouting.models import (
    Activity,
    Nomination,
    Notification,
    NotificationType,
    Player,
)
from realtime.publish import Event, publish, publish_activity, publish_summaries

logger = logging.getLogger(__name__)

READ_TARGET_REQUIRED = "Give ids or all: true"
# Kinds folded into one unread notification per nomination.
FOLDED_TYPES = frozenset({NotificationType.VOTE_RECEIVED, NotificationType.COMMENT_RECEIVED})
NOTIFICATION_PREFERENCES = {
    NotificationType.VOTE_RECEIVED: "vote_notifications",
    NotificationType.NOMINATION_APPROVED: "nomination_notifications",
    NotificationType.NOMINATION_REJECTED: "nomination_notifications",
}


def summaries_changed(*sports: str) -> None:
    """Tell the live layer the leaderboards and stats of these sports may have changed."""
    for sport in dict.fromkeys(sports):
        publish_summaries(sport)


@dataclass(frozen=True)
class NewActivity:
    """An activity to insert: its columns (by attname) and its user (whom its feed item
    names)."""

    user: User
    columns: dict[str, Any]


def new_activity(
    *,
    user: User,
    activity_type: str,
    sport: str,
    related_user: User | None = None,
    related_player: Player | None = None,
    related_nomination: Nomination | None = None,
    metadata: dict[str, Any] | None = None,
) -> NewActivity:
    """An activity of ``user``, for ``activity_create`` (or a vote's statements sent together:
    ``insert_statement`` with its columns, then ``activity_published``)."""
    return NewActivity(
        user=user,
        columns={
            "user_id": user.pk,
            "activity_type": activity_type,
            "sport": sport,
            "related_user_id": None if related_user is None else related_user.pk,
            "related_player_id": None if related_player is None else related_player.pk,
            "related_nomination_id": None if related_nomination is None else related_nomination.pk,
            "metadata": metadata or {},
            "created_at": timezone.now(),
        },
    )


def activity_published(new: NewActivity, *, pk: int) -> Activity:
    """The activity inserted as id ``pk``, pushed to its sport's feed (activity.created)."""
    activity = loaded(Activity, id=pk, **new.columns)
    activity.user = new.user
    publish_activity(sport=new.columns["sport"], data=selectors.activity_data(activity))
    return activity


def activity_create(new: NewActivity) -> Activity:
    """Record an activity (``new_activity``) and push it to its sport's feed, inserted by
    hand (``insert_row``). A vote sends its activity's INSERT with its other statements
    (``votes.vote_cast``)."""
    return activity_published(new, pk=insert_row(Activity, connection, **new.columns).pk)


def notification_wanted(settings: UserSettings | None, type: str) -> bool:
    """Whether the user's settings let this type through (voteNotifications for
    vote_received, nominationNotifications for nomination_approved/rejected; others always;
    no settings row: everything)."""
    preference = NOTIFICATION_PREFERENCES.get(NotificationType(type))
    return settings is None or preference is None or bool(getattr(settings, preference))


def _unread_rewritten(notification_id: int, *, message: str, now: datetime) -> bool:
    """The notification's new message and time, if it is still unread (written by hand, as
    ``insert_row``: a vote on a nomination coalesces into its unread one)."""
    ops = connection.ops
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {ops.quote_name(Notification._meta.db_table)} SET message = %s, "  # noqa: S608  (the model's table; values bound)
            "created_at = %s WHERE id = %s AND read = %s",
            [message, ops.adapt_datetimefield_value(now), notification_id, False],
        )
        return bool(cursor.rowcount)


def notification_put(
    *,
    user: User,
    settings: UserSettings | None,
    type: str,
    message: str,
    related_nomination_id: int | None,
    unread_id: int | None = None,
    in_vote: bool = False,
) -> Notification:
    """Write a notification and publish notification.created. With ``unread_id`` (a row to
    coalesce into) that row gets the new message and time, if it is still unread; otherwise
    a new row is made. Either way the notification hooks run in this transaction
    (``hooks.register_notification_created``: project/notify records the outbound event the
    worker emails, unless the vote's round trip carried it (``in_vote``), and its delivery
    hooks enqueue the push)."""
    now = timezone.now()
    values: dict[str, Any] = {
        "user_id": user.pk,
        "type": type,
        "message": message,
        "read": False,
        "related_nomination_id": related_nomination_id,
        "created_at": now,
    }
    if unread_id is not None and _unread_rewritten(unread_id, message=message, now=now):
        notification = loaded(Notification, id=unread_id, **values)
    else:
        notification = insert_row(Notification, connection, **values)
    hooks.notification_created(
        hooks.NewNotification(
            user=user,
            type=type,
            message=message,
            related_nomination_id=related_nomination_id,
            settings=settings,
            notification=notification,
            in_vote=in_vote,
        )
    )
    publish(
        Event(
            "notification.created",
            selectors.notification_data(notification),
            user_ids=(user.pk,),
        )
    )
    return notification


def notification_create(
    *,
    user: User,
    type: str,
    message: str,
    related_nomination: Nomination | None = None,
) -> Notification | None:
    """Notify ``user`` unless their settings turn this type off (``notification_wanted``).

    vote_received and comment_received are coalesced: while the user has an unread one of
    the kind for the nomination, that row gets the new message and time instead of a second
    row (callers hold the nomination's lock, so this is race-free; votes find that row in
    their nomination update instead, see ``vote_cast``). Publishes notification.created (the
    same id again when coalesced) after the notification hooks ran (``notification_put``).
    Returns None when the settings turned it off in the app; the hooks still run, without a
    row, since its email has switches of its
    own (project/notify).
    """
    settings = UserSettings.objects.filter(user_id=user.pk).first()
    if not notification_wanted(settings, type):
        # The bell is off for this type, its emails need not be: they have switches of their
        # own, which the notification hooks read (project/notify).
        hooks.notification_created(
            hooks.NewNotification(
                user=user,
                type=type,
                message=message,
                related_nomination_id=None if related_nomination is None else related_nomination.pk,
                settings=settings,
                notification=None,
                in_vote=False,
            )
        )
        return None
    unread_id = None
    if type in FOLDED_TYPES and related_nomination is not None:
        unread_id = (
            Notification.objects.filter(
                user_id=user.pk, type=type, related_nomination=related_nomination, read=False
            )
            .order_by("-created_at", "-id")
            .values_list("pk", flat=True)
            .first()
        )
    return notification_put(
        user=user,
        settings=settings,
        type=type,
        message=message,
        related_nomination_id=None if related_nomination is None else related_nomination.pk,
        unread_id=unread_id,
    )


def notifications_mark_read(
    *,
    user: User,
    ids: list[int] | None = None,
    all_unread: bool = False,
) -> int:
    """Mark the given notifications (or all) of ``user`` read; returns the unread count.
    Ids of other users' notifications are ignored."""
    unread = Notification.objects.filter(user_id=user.pk, read=False)
    if all_unread:
        unread.update(read=True)
    elif ids is not None:
        unread.filter(pk__in=ids).update(read=True)
    else:
        raise ValidationFailed(READ_TARGET_REQUIRED, code="read_target_required")
    return selectors.notification_unread_count(user=user)
