"""Deciding pending nominations (approve, reject) and verifying players."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from project.accounts.models import User
from project.accounts.progress import user_points_add
from project.common.errors import Conflict, NotFound
from project.moderation.selectors import moderation_counts
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import modlog_record
from project.scouting import hooks
from project.scouting.models import (
    LIVE_STATUSES,
    Nomination,
    NominationStatus,
    NotificationType,
    Player,
)
from project.scouting.points import APPROVAL_POINTS
from project.scouting.selectors import (
    NOMINATION_NOT_FOUND,
    PLAYER_NOT_FOUND,
    nomination_data,
    nomination_queryset,
)
from project.scouting.services.activity import notification_create
from project.scouting.services.audience import (
    nomination_event,
    nomination_publish,
    nomination_removed,
)
from project.sharing.cache import previews_changed
from project.sharing.redraws import card_redraw_request
from project.sharing.services import share_cards_drop
from realtime.publish import Event, publish, publish_summaries


def _user_ref(user: User | None) -> dict[str, object] | None:
    if user is None:
        return None
    return {"id": user.pk, "name": user.name, "username": user.username}


def _publish_updated(nomination: Nomination) -> None:
    nomination_publish(
        nomination_event("nomination.updated", nomination, nomination_data(nomination))
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
    approved = status == NominationStatus.APPROVED
    action = "approved" if approved else "rejected"
    modlog_record(
        actor=admin,
        action=ModlogAction.NOMINATION_APPROVE if approved else ModlogAction.NOMINATION_REJECT,
        target_type=ModlogTarget.NOMINATION,
        target_id=decided.pk,
        target_label=decided.player.name,
        reason=reason,
        changes={"status": [NominationStatus.PENDING.value, str(status)]},
    )
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
    # Approved, it is shared for the first time: its preview names the player from the commit
    # on (no longer the cached generic one), and its card is drawn by the worker.
    previews_changed(nomination_ids=[decided.pk])
    card_redraw_request(decided.pk)
    _publish_updated(decided)
    # What other apps do about an approval (clubs: the club's followers hear of it).
    hooks.nomination_approved(decided)
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
    share_cards_drop(nomination_ids=[decided.pk])
    message = f"Your nomination of {decided.player.name} was rejected."
    if reason:
        message += f" Reason: {reason}"
    notification_create(
        user=decided.nominated_by,
        type=NotificationType.NOMINATION_REJECTED,
        message=message,
        related_nomination=decided,
    )
    # A pending nomination (``_lock_pending``) leaves the community; its nominator and admins
    # still see it.
    nomination_publish(nomination_removed(decided, status_was=NominationStatus.PENDING))
    _publish_updated(decided)
    publish_summaries(decided.sport)
    return decided


@transaction.atomic
def player_verified_set(*, admin: User, player_id: int, verified: bool) -> Player:
    """Verify a player or remove the verification; every view of its nominations updates."""
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        raise NotFound(PLAYER_NOT_FOUND)
    if player.verified != verified:
        player.verified = verified
        player.save(update_fields=["verified"])
        modlog_record(
            actor=admin,
            action=ModlogAction.PLAYER_VERIFY if verified else ModlogAction.PLAYER_UNVERIFY,
            target_type=ModlogTarget.PLAYER,
            target_id=player.pk,
            target_label=player.name,
            changes={"verified": [not verified, verified]},
        )
        nominations = list(nomination_queryset().filter(player_id=player.pk))
        for nomination in nominations:
            _publish_updated(nomination)
        # Leaderboards carry the player's verified flag.
        for sport in sorted({n.sport for n in nominations if n.status in LIVE_STATUSES}):
            publish_summaries(sport)
    return player
