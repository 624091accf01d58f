"""Following and unfollowing players and scouts, and unfollowing clubs (project/clubs
follows them)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import IntegrityError, transaction

from project.accounts.models import User
from project.accounts.selectors import scout_followable
from project.common.choices import Sport
from project.common.errors import NotFound, ValidationFailed
from project.scouting import hooks, selectors
from project.scouting.models import (
    Activity,
    ActivityType,
    Follow,
    NotificationType,
)
from project.scouting.services.activity import (
    activity_create,
    new_activity,
    notification_create,
)
from realtime.publish import Event, publish

logger = logging.getLogger(__name__)

CANNOT_FOLLOW_SELF = "You cannot follow yourself"
NOT_FOLLOWING_PLAYER = "You are not following this player"
NOT_FOLLOWING_SCOUT = "You are not following this scout"
NOT_FOLLOWING_CLUB = "You are not following this club"


def follow_insert(**target: Any) -> bool:
    """Insert a follow; False when it already exists (idempotent under races too)."""
    try:
        with transaction.atomic():
            Follow.objects.create(**target)
    except IntegrityError:
        return False
    return True


@transaction.atomic
def follow_player_create(*, user: User, player_id: int) -> bool:
    """Follow a visible player; True when newly followed, False when already following.
    The first follow of a player records a follow activity."""
    player = selectors.player_get_visible(user=user, player_id=player_id)
    created = follow_insert(follower=user, followed_player=player)
    first_time = not Activity.objects.filter(
        user_id=user.pk, activity_type=ActivityType.FOLLOW, related_player_id=player.pk
    ).exists()
    if created and first_time:
        activity_create(
            new_activity(
                user=user,
                activity_type=ActivityType.FOLLOW,
                sport=player.sport,
                related_player=player,
                metadata={"playerName": player.name},
            )
        )
    if created:
        follow_own(user=user, player_id=player.pk, following=True)
        hooks.follow_created(hooks.NewFollow(follower=user, followed_player_id=player.pk))
    return created


@transaction.atomic
def follow_user_create(*, user: User, target_id: int) -> bool:
    """Follow a scout; True when newly followed, False when already following. The first
    follow of a scout records a follow activity (in the followed scout's favourite sport)
    and notifies them (new_follower); unfollowing and following again adds neither, so
    toggling cannot flood a feed or a bell."""
    if target_id == user.pk:
        raise ValidationFailed(CANNOT_FOLLOW_SELF, code="cannot_follow_self")
    target = scout_followable(viewer=user, user_id=target_id)
    created = follow_insert(follower=user, followed_user=target)
    first_time = not Activity.objects.filter(
        user_id=user.pk, activity_type=ActivityType.FOLLOW, related_user_id=target.pk
    ).exists()
    if created and first_time:
        sport = target.favorite_sport if target.favorite_sport in Sport.values else Sport.FOOTBALL
        activity_create(
            new_activity(
                user=user,
                activity_type=ActivityType.FOLLOW,
                sport=sport,
                related_user=target,
                metadata={"userName": target.name},
            )
        )
        notification_create(
            user=target,
            type=NotificationType.NEW_FOLLOWER,
            message=f"{user.name} started following you.",
        )
    if created:
        follow_own(user=user, target_id=target.pk, following=True)
        hooks.follow_created(hooks.NewFollow(follower=user, followed_user_id=target.pk))
    return created


@transaction.atomic
def follow_delete(
    *,
    user: User,
    player_id: int | None = None,
    user_id: int | None = None,
    club_id: int | None = None,
) -> None:
    """Unfollow a player, a scout or a club (exactly one); 404 when not following."""
    selectors.follow_target_check(player_id=player_id, user_id=user_id, club_id=club_id)
    follows = Follow.objects.filter(follower_id=user.pk)
    if player_id is not None:
        deleted, _ = follows.filter(followed_player_id=player_id).delete()
        message = NOT_FOLLOWING_PLAYER
    elif club_id is not None:
        deleted, _ = follows.filter(followed_club_id=club_id).delete()
        message = NOT_FOLLOWING_CLUB
    else:
        deleted, _ = follows.filter(followed_user_id=user_id).delete()
        message = NOT_FOLLOWING_SCOUT
    if not deleted:
        raise NotFound(message, code="not_following")
    follow_own(user=user, player_id=player_id, target_id=user_id, club_id=club_id, following=False)


def follow_own(
    *,
    user: User,
    following: bool,
    player_id: int | None = None,
    target_id: int | None = None,
    club_id: int | None = None,
) -> None:
    """Tells the user's other tabs (their own group only) that they now follow or no longer
    follow a player, a scout or a club."""
    data = {"playerId": player_id, "userId": target_id, "clubId": club_id, "following": following}
    publish(Event("follow.own", data, user_ids=(user.pk,)))
