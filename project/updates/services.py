"""Player updates: written by the player's claimant or a verified coach, held for an admin
when they carry media (or concern an unclaimed young child), told to the player's followers
and the feed once published, every open page of the player told live."""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone

from project.accounts.models import User
from project.coaches.selectors import is_verified_coach
from project.common.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from project.common.schemas import wire
from project.media.services import (
    image_take,
    stored_image_delete,
    stored_image_delete_now,
    stored_image_write,
)
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import modlog_record
from project.privacy.players import is_young_child, player_age
from project.scouting.hooks import AnonymisedPlayer
from project.scouting.models import (
    LIVE_STATUSES,
    Activity,
    ActivityType,
    Follow,
    Nomination,
    NotificationType,
    Player,
)
from project.scouting.selectors import player_get_visible
from project.scouting.services.activity import activity_create, new_activity, notification_create
from project.updates import selectors
from project.updates.models import PlayerUpdate, UpdateStatus
from project.updates.schemas import PlayerUpdateQueueOut
from project.updates.selectors import UPDATE_NOT_FOUND, update_queryset
from realtime.publish import Event, publish

NOT_AN_AUTHOR = "Only the athlete's family or a verified coach can post updates about this player"
NOT_YOURS_TO_DELETE = (
    "Only the update's author, the athlete's family or an admin can delete this update"
)
ALREADY_DECIDED = "This update was already decided"
ONE_MEDIA = "Add a picture or a video link, not both"
FOLLOWER_MESSAGE = "{author} posted an update on {player}: {title}"
CLAIMANT_MESSAGE = "{author} posted an update on {player}'s profile: {title}"
APPROVED_MESSAGE = "Your update on {player} was approved: everyone can see it now."
REJECTED_MESSAGE = "Your update on {player} was not approved."


def may_write(*, user: User, player: Player) -> bool:
    """The player's claimant and verified coaches (an approved verification: a withdrawn
    badge writes no more)."""
    return player.claimed_by_id == user.pk or is_verified_coach(user)


def needs_review(*, player: Player, has_media: bool) -> bool:
    """An image or a video link waits for an admin before anyone but its author and admins
    sees it. So does every update on an unclaimed player under 13 (or of unknown age): no
    family looks after that page yet."""
    if has_media:
        return True
    return player.claimed_by_id is None and is_young_child(player_age(player))


def _live_nomination(player: Player) -> Nomination | None:
    return (
        Nomination.objects.filter(player=player, status__in=LIVE_STATUSES)
        .order_by("created_at", "pk")
        .first()
    )


def _publish_changed(update: PlayerUpdate, action: str) -> None:
    """Tell every open page of the player that its updates changed: those who see the update
    as it is now (its player's sports once published and the player shown; else its author
    and admins). The event names the update, never its content: each page reads it again."""
    data = {"playerId": update.player_id, "id": update.pk, "action": action}
    published = update.status == UpdateStatus.PUBLISHED
    sports = selectors.player_sports(update.player) if published else []
    publish(Event("player_update.changed", data, user_ids=(update.user_id,), admins=True))
    for sport in sports:
        publish(Event("player_update.changed", data, sport=sport))


def _publish_queue(update: PlayerUpdate, action: str, item: dict[str, Any] | None = None) -> None:
    """Tell every admin's Player updates tab its new count and the update that changed."""
    item = item or selectors.admin_update_data(update_queryset().get(pk=update.pk))
    payload = PlayerUpdateQueueOut.model_validate(
        {"pending": selectors.updates_pending_count(), "item": item, "action": action}
    )
    publish(Event("player_update_queue.changed", wire(payload), admins=True))


def _published(update: PlayerUpdate) -> None:
    """An update everyone who sees the player may see: the feed's activity, the followers'
    notifications (and the claimant's, when someone else wrote it)."""
    player = update.player
    author = update.user
    live = _live_nomination(player)
    if live is None or player.hidden_at is not None:
        return
    activity_create(
        new_activity(
            user=author,
            activity_type=ActivityType.PLAYER_UPDATE,
            sport=live.sport,
            related_player=player,
            related_nomination=live,
            metadata={"playerName": player.name, "title": update.title, "updateId": update.pk},
        )
    )
    told = {author.pk}
    if player.claimed_by_id is not None and player.claimed_by_id not in told:
        told.add(player.claimed_by_id)
        notification_create(
            user=User.objects.get(pk=player.claimed_by_id),
            type=NotificationType.PLAYER_UPDATE,
            message=CLAIMANT_MESSAGE.format(
                author=author.name, player=player.name, title=update.title
            ),
            related_nomination=live,
        )
    followers = (
        Follow.objects.filter(followed_player=player, follower__is_active=True)
        .select_related("follower")
        .order_by("pk")
    )
    message = FOLLOWER_MESSAGE.format(author=author.name, player=player.name, title=update.title)
    for follow in followers:
        if follow.follower_id in told:
            continue
        told.add(follow.follower_id)
        notification_create(
            user=follow.follower,
            type=NotificationType.PLAYER_UPDATE,
            message=message,
            related_nomination=live,
        )


@transaction.atomic
def update_create(
    *,
    user: User,
    player_id: int,
    title: str,
    content: str,
    video_url: str,
    image_url: str | None,
    milestone: bool,
) -> PlayerUpdate:
    """Post an update: 404 for a player the writer cannot see, 403 for anyone but its
    claimant or a verified coach. An image is checked and re-encoded by the upload pipeline
    (project/media) and kept under ``updates/<playerId>/``. Published at once, or pending
    (``needs_review``)."""
    player = player_get_visible(user=user, player_id=player_id)
    if not may_write(user=user, player=player):
        raise PermissionDenied(NOT_AN_AUTHOR, code="not_update_author")
    if image_url and video_url:
        raise ValidationFailed(ONE_MEDIA, code="one_media")
    image_key = image_type = ""
    if image_url:
        image = image_take(user=user, object_url=image_url, field="imageURL")
        image_key = f"updates/{player.pk}/{secrets.token_urlsafe(24)}"
        image_type = image.content_type
        stored_image_write(key=image_key, image=image)
    try:
        return _update_insert(
            user=user,
            player=player,
            title=title,
            content=content,
            video_url=video_url,
            image_key=image_key,
            image_type=image_type,
            milestone=milestone,
        )
    except BaseException:
        if image_key:  # nothing refers to it: the post failed
            stored_image_delete_now(key=image_key)
        raise


def _update_insert(
    *,
    user: User,
    player: Player,
    title: str,
    content: str,
    video_url: str,
    image_key: str,
    image_type: str,
    milestone: bool,
) -> PlayerUpdate:
    pending = needs_review(player=player, has_media=bool(image_key or video_url))
    update = PlayerUpdate.objects.create(
        player=player,
        user=user,
        title=title,
        content=content,
        media_url=video_url,
        image_key=image_key,
        image_type=image_type,
        milestone=milestone,
        status=UpdateStatus.PENDING if pending else UpdateStatus.PUBLISHED,
    )
    update = update_queryset().get(pk=update.pk)
    if pending:
        _publish_queue(update, "created")
    else:
        _published(update)
    _publish_changed(update, "created")
    return update


def _lock_pending(update_id: int) -> PlayerUpdate:
    update = PlayerUpdate.objects.select_for_update().filter(pk=update_id).first()
    if update is None:
        raise NotFound(UPDATE_NOT_FOUND)
    if update.status != UpdateStatus.PENDING:
        raise Conflict(ALREADY_DECIDED, code="already_decided")
    return update


def _decided(update: PlayerUpdate, *, admin: User, status: str, reason: str) -> PlayerUpdate:
    update.status = status
    update.decided_by = admin
    update.decided_at = timezone.now()
    update.decision_reason = reason
    update.save(update_fields=["status", "decided_by", "decided_at", "decision_reason"])
    return update_queryset().get(pk=update.pk)


def _log(update: PlayerUpdate, *, admin: User, action: str, reason: str) -> None:
    modlog_record(
        actor=admin,
        action=action,
        target_type=ModlogTarget.PLAYER,
        target_id=update.player_id,
        target_label=update.player.name,
        reason=reason,
        changes={"update": [update.pk, update.status]},
    )


@transaction.atomic
def update_approve(*, admin: User, update_id: int, reason: str = "") -> PlayerUpdate:
    """Publish a pending update: the feed, the followers, every open page of the player."""
    update = _decided(
        _lock_pending(update_id), admin=admin, status=UpdateStatus.PUBLISHED, reason=reason
    )
    _log(update, admin=admin, action=ModlogAction.PLAYER_UPDATE_APPROVE, reason=reason)
    notification_create(
        user=update.user,
        type=NotificationType.PLAYER_UPDATE,
        message=APPROVED_MESSAGE.format(player=update.player.name),
        related_nomination=_live_nomination(update.player),
    )
    _published(update)
    _publish_changed(update, "approved")
    _publish_queue(update, "approved")
    return update


@transaction.atomic
def update_reject(*, admin: User, update_id: int, reason: str = "") -> PlayerUpdate:
    """Refuse a pending update: nobody but its author and admins ever sees it; its image is
    deleted at once (a child's picture is not kept for nothing)."""
    update = _lock_pending(update_id)
    if update.image_key:
        stored_image_delete(key=update.image_key)
        update.image_key = update.image_type = ""
        update.save(update_fields=["image_key", "image_type"])
    update = _decided(update, admin=admin, status=UpdateStatus.REJECTED, reason=reason)
    _log(update, admin=admin, action=ModlogAction.PLAYER_UPDATE_REJECT, reason=reason)
    message = REJECTED_MESSAGE.format(player=update.player.name)
    if reason:
        message += f" Reason: {reason}"
    notification_create(user=update.user, type=NotificationType.PLAYER_UPDATE, message=message)
    _publish_changed(update, "rejected")
    _publish_queue(update, "rejected")
    return update


@transaction.atomic
def update_delete(*, user: User, player_id: int, update_id: int) -> None:
    """Delete an update: its author, the player's claimant or an admin (403 for others who
    see it, 404 for those who do not). Its image and its feed activity go with it."""
    update = selectors.update_get_visible(user=user, update_id=update_id)
    if update is None or update.player_id != player_id:
        raise NotFound(UPDATE_NOT_FOUND)
    allowed = user.is_admin or user.pk in (update.user_id, update.player.claimed_by_id)
    if not allowed:
        raise PermissionDenied(NOT_YOURS_TO_DELETE, code="not_update_owner")
    item = selectors.admin_update_data(update)
    if update.image_key:
        stored_image_delete(key=update.image_key)
    Activity.objects.filter(
        related_player_id=update.player_id,
        activity_type=ActivityType.PLAYER_UPDATE,
        metadata__updateId=update.pk,
    ).delete()
    _publish_changed(update, "deleted")
    PlayerUpdate.objects.filter(pk=update.pk).delete()
    if update.status == UpdateStatus.PENDING:
        _publish_queue(update, "deleted", item)


def admin_update(update: PlayerUpdate) -> dict[str, Any]:
    return selectors.admin_update_data(update)


def user_updates_delete(user: User) -> None:
    """An account is being deleted (in this transaction): its updates go with it (the rows by
    cascade), their images from storage once it commits."""
    keys = PlayerUpdate.objects.filter(user=user).exclude(image_key="")
    for key in keys.values_list("image_key", flat=True):
        stored_image_delete(key=key)


def player_updates_erase(player: AnonymisedPlayer) -> None:
    """A player is anonymised (in this transaction): its updates go, their images from
    storage once it commits."""
    updates = PlayerUpdate.objects.filter(player_id=player.player_id)
    for key in updates.exclude(image_key="").values_list("image_key", flat=True):
        stored_image_delete(key=key)
    updates.delete()


def player_updates_export(player: Player) -> dict[str, Any]:
    """A player's updates, every status, for its claimant's export of the player: who wrote
    each is told by their standing (the family or a coach), never by name."""
    rows = PlayerUpdate.objects.filter(player=player).select_related("user").order_by("id")
    return {
        "player_updates": [
            {
                "id": update.pk,
                "by": "family" if update.user_id == player.claimed_by_id else "coach",
                "title": update.title,
                "content": update.content,
                "media_url": update.media_url,
                "has_image": bool(update.image_key),
                "milestone": update.milestone,
                "status": update.status,
                "created_at": update.created_at,
            }
            for update in rows
        ]
    }


def updates_export(user: User) -> dict[str, Any]:
    """The member's updates, for their export (without the images' bytes)."""
    rows = PlayerUpdate.objects.filter(user=user).order_by("id")
    return {
        "player_updates": [
            {
                "id": update.pk,
                "playerId": update.player_id,
                "title": update.title,
                "content": update.content,
                "videoUrl": update.media_url,
                "hasImage": bool(update.image_key),
                "milestone": update.milestone,
                "status": update.status,
                "createdAt": update.created_at,
            }
            for update in rows
        ]
    }
