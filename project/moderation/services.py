"""Admin writes: deciding nominations, verifying players, managing users."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from project.accounts.models import Role, User
from project.accounts.services import user_delete
from project.common.errors import Conflict, NotFound, ValidationFailed
from project.moderation.selectors import moderation_counts
from project.scouting.models import (
    LIVE_STATUSES,
    Nomination,
    NominationStatus,
    NotificationType,
    Player,
)
from project.scouting.selectors import (
    NOMINATION_NOT_FOUND,
    PLAYER_NOT_FOUND,
    nomination_data,
    nomination_queryset,
)
from project.scouting.services import APPROVAL_POINTS, notification_create, user_points_add
from realtime.publish import Event, close_user_sockets, publish, publish_summaries

USER_NOT_FOUND = "User not found"
CANNOT_DELETE_SELF = "You cannot delete your own account here"
CANNOT_CHANGE_OWN_ROLE = "You cannot change your own role"


def _user_ref(user: User | None) -> dict[str, object] | None:
    if user is None:
        return None
    return {"id": user.pk, "name": user.name, "username": user.username}


def _publish_updated(nomination: Nomination) -> None:
    """nomination.updated to admins, and to the sport while it is live (else only to its
    nominator: the community no longer sees a rejected nomination)."""
    live = nomination.status in LIVE_STATUSES
    publish(
        Event(
            "nomination.updated",
            nomination_data(nomination),
            sport=nomination.sport if live else None,
            user_ids=() if live else (nomination.nominated_by_id,),
            admins=True,
        )
    )


def _lock_pending(nomination_id: int) -> Nomination:
    """Lock the nomination row; a decided one answers 409 naming who decided it."""
    nomination = Nomination.objects.select_for_update().filter(pk=nomination_id).first()
    if nomination is None:
        raise NotFound(NOMINATION_NOT_FOUND)
    if nomination.status != NominationStatus.PENDING:
        decider = nomination.reviewed_by
        message = f"Already {nomination.status}"
        if decider is not None:
            message += f" by {decider.name}"
        raise Conflict(
            message,
            code="already_decided",
            extra={"status": nomination.status, "decidedBy": _user_ref(decider)},
        )
    return nomination


def _decide(*, admin: User, nomination: Nomination, status: str, reason: str = "") -> Nomination:
    nomination.status = status
    nomination.reviewed_by = admin
    nomination.reviewed_at = timezone.now()
    nomination.rejection_reason = reason
    nomination.save(update_fields=["status", "reviewed_by", "reviewed_at", "rejection_reason"])
    decided = nomination_queryset(user=admin).get(pk=nomination.pk)
    item = nomination_data(decided)
    action = "approved" if status == NominationStatus.APPROVED else "rejected"
    publish(
        Event(
            "moderation.changed",
            {**moderation_counts(), "item": item, "action": action, "by": _user_ref(admin)},
            admins=True,
        )
    )
    return decided


@transaction.atomic
def nomination_approve(*, admin: User, nomination_id: int) -> Nomination:
    """Approve a pending nomination: +25 points and a notification to the nominator."""
    nomination = _lock_pending(nomination_id)
    decided = _decide(admin=admin, nomination=nomination, status=NominationStatus.APPROVED)
    user_points_add(user_id=nomination.nominated_by_id, delta=APPROVAL_POINTS)
    notification_create(
        user=decided.nominated_by,
        type=NotificationType.NOMINATION_APPROVED,
        message=f"Your nomination of {decided.player.name} has been approved.",
        related_nomination=decided,
    )
    _publish_updated(decided)
    return decided


@transaction.atomic
def nomination_reject(*, admin: User, nomination_id: int, reason: str = "") -> Nomination:
    """Reject a pending nomination with an optional reason, told to the nominator. It leaves
    the community lists (and so may change the sport's leaderboards and stats); admins and
    the nominator still see it."""
    nomination = _lock_pending(nomination_id)
    decided = _decide(
        admin=admin, nomination=nomination, status=NominationStatus.REJECTED, reason=reason
    )
    message = f"Your nomination of {decided.player.name} was rejected."
    if reason:
        message += f" Reason: {reason}"
    notification_create(
        user=decided.nominated_by,
        type=NotificationType.NOMINATION_REJECTED,
        message=message,
        related_nomination=decided,
    )
    publish(Event("nomination.removed", {"id": decided.pk}, sport=decided.sport))
    _publish_updated(decided)
    publish_summaries(decided.sport)
    return decided


@transaction.atomic
def player_verified_set(*, player_id: int, verified: bool) -> Player:
    """Verify a player or remove the verification; every view of its nominations updates."""
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        raise NotFound(PLAYER_NOT_FOUND)
    if player.verified != verified:
        player.verified = verified
        player.save(update_fields=["verified"])
        nominations = list(nomination_queryset().filter(player_id=player.pk))
        for nomination in nominations:
            _publish_updated(nomination)
        # Leaderboards carry the player's verified flag.
        for sport in sorted({n.sport for n in nominations if n.status in LIVE_STATUSES}):
            publish_summaries(sport)
    return player


def _other_user(*, admin: User, user_id: int, self_message: str) -> User:
    if user_id == admin.pk:
        raise ValidationFailed(self_message, code="own_account")
    user = User.objects.filter(pk=user_id).first()
    if user is None:
        raise NotFound(USER_NOT_FOUND)
    return user


@transaction.atomic
def user_role_change(*, admin: User, user_id: int, role: str) -> User:
    """Make a user a scout or an admin (never oneself). Their sockets close, so they
    reconnect with the rights of the new role."""
    user = _other_user(admin=admin, user_id=user_id, self_message=CANNOT_CHANGE_OWN_ROLE)
    if user.role != role:
        user.role = role
        user.is_staff = role == Role.ADMIN
        user.save(update_fields=["role", "is_staff"])
        close_user_sockets(user.pk, reason="role_changed")
    return user


@transaction.atomic
def admin_user_delete(*, admin: User, user_id: int) -> None:
    """Delete another user with everything that is theirs (see ``user_delete``)."""
    user = _other_user(admin=admin, user_id=user_id, self_message=CANNOT_DELETE_SELF)
    user_delete(user=user)
