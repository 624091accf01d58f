"""What the scouting app holds about a member, for their export of their own data."""

from __future__ import annotations

from typing import Any

from project.accounts.models import User
from project.common.schemas import camel_keys, wire
from project.scouting.models import Activity, Follow, NominationStatus, Notification, Vote
from project.scouting.schemas import NominationEventOut
from project.scouting.selectors import nomination_queryset


def scouting_export(user: User) -> dict[str, Any]:
    """The member's nominations, votes, follows, followers, activity and notifications. The
    nominations of a taken-down player are listed without the player (only admins see it)."""
    nominations = []
    for nomination in nomination_queryset().filter(nominated_by_id=user.pk).order_by("id"):
        if nomination.status == NominationStatus.HIDDEN:
            nominations.append(
                {"id": nomination.pk, "status": "hidden", "createdAt": nomination.created_at}
            )
        else:
            nominations.append(wire(NominationEventOut.from_orm(nomination)))
    votes = (
        Vote.objects.filter(user_id=user.pk).order_by("id").values("nomination_id", "created_at")
    )
    follows = (
        Follow.objects.filter(follower_id=user.pk)
        .order_by("id")
        .values("followed_user_id", "followed_player_id", "followed_club_id", "created_at")
    )
    activity = (
        Activity.objects.filter(user_id=user.pk)
        .order_by("id")
        .values(
            "id",
            "activity_type",
            "sport",
            "related_user_id",
            "related_player_id",
            "related_nomination_id",
            "metadata",
            "created_at",
        )
    )
    notifications = (
        Notification.objects.filter(user_id=user.pk)
        .order_by("id")
        .values("id", "type", "message", "read", "related_nomination_id", "created_at")
    )
    return {
        "nominations": nominations,
        "votes": [camel_keys(row) for row in votes],
        "follows": [camel_keys(row) for row in follows],
        "followers": Follow.objects.filter(followed_user_id=user.pk).count(),
        "activity": [camel_keys(row) for row in activity],
        "notifications": [camel_keys(row) for row in notifications],
    }
