"""Admin writes: deciding nominations, verifying players, managing users."""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache import cache
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.utils import timezone

from project.accounts.models import Role, User
from project.accounts.progress import user_points_add
from project.accounts.selectors import scout_get
from project.accounts.services import admins_lock, refuse_last_admin, user_delete
from project.common.addresses import address_key
from project.common.budgets import budget_spend
from project.common.errors import Conflict, NotFound, Throttled, ValidationFailed
from project.moderation.models import (
    Report,
    ReportResolution,
    TakedownRequest,
    TakedownStatus,
)
from project.moderation.schemas import ONE_REPORT_TARGET
from project.moderation.selectors import (
    moderation_counts,
    profile_export,
    report_group_data,
    takedown_data,
    takedown_queryset,
)
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import modlog_record
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
    nomination_get,
    nomination_queryset,
)
from project.scouting.services.activity import notification_create
from realtime.publish import Event, close_user_sockets, publish, publish_summaries

logger = logging.getLogger(__name__)

USER_NOT_FOUND = "User not found"
TAKEDOWN_NOT_FOUND = "Takedown request not found"
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
    admins = admins_lock(caller=admin)
    user.refresh_from_db(fields=["role", "is_staff"])
    if role != Role.ADMIN:
        refuse_last_admin(admins, user.pk)
    if user.role != role:
        modlog_record(
            actor=admin,
            action=ModlogAction.USER_ROLE_CHANGE,
            target_type=ModlogTarget.USER,
            target_id=user.pk,
            target_label=f"{user.name} (@{user.username})",
            changes={"role": [user.role, role]},
        )
        user.role = role
        user.is_staff = role == Role.ADMIN
        user.save(update_fields=["role", "is_staff"])
        close_user_sockets(user.pk, reason="role_changed")
    return user


@transaction.atomic
def admin_user_delete(*, admin: User, user_id: int, reason: str = "") -> None:
    """Delete another user with everything that is theirs (see ``user_delete``)."""
    user = _other_user(admin=admin, user_id=user_id, self_message=CANNOT_DELETE_SELF)
    refuse_last_admin(admins_lock(caller=admin), user.pk)
    modlog_record(
        actor=admin,
        action=ModlogAction.USER_DELETE,
        target_type=ModlogTarget.USER,
        target_id=user.pk,
        target_label=f"{user.name} (@{user.username})",
        reason=reason,
    )
    user_delete(user=user)


# --- Taking a player down and restoring it ------------------------------------------------


def _player_hide(player: Player) -> None:
    """Hide a (locked) player and every nomination of it from everyone but admins at once:
    the nominations leave every list, board, feed and search, which all read live
    statuses only, and the sports' boards and stats are pushed again."""
    player.hidden_at = timezone.now()
    player.save(update_fields=["hidden_at"])
    nominations = list(
        Nomination.objects.select_for_update()
        .filter(player_id=player.pk)
        .exclude(status=NominationStatus.HIDDEN)
        .order_by("pk")
    )
    sports = set()
    for nomination in nominations:
        live = nomination.status in LIVE_STATUSES
        nomination.status_before_hidden = nomination.status
        nomination.status = NominationStatus.HIDDEN
        nomination.save(update_fields=["status", "status_before_hidden"])
        publish(
            Event(
                "nomination.removed",
                {"id": nomination.pk},
                sport=nomination.sport if live else None,
                user_ids=(nomination.nominated_by_id,),
                admins=True,
            )
        )
        if live:
            sports.add(nomination.sport)
    for sport in sorted(sports):
        publish_summaries(sport)


def _player_unhide(player: Player) -> None:
    """Put a (locked) taken-down player and its nominations back as they were."""
    player.hidden_at = None
    player.save(update_fields=["hidden_at"])
    hidden = Nomination.objects.select_for_update().filter(
        player_id=player.pk, status=NominationStatus.HIDDEN
    )
    for nomination in hidden.order_by("pk"):
        nomination.status = nomination.status_before_hidden or NominationStatus.PENDING
        nomination.status_before_hidden = ""
        nomination.save(update_fields=["status", "status_before_hidden"])
    restored = list(nomination_queryset().filter(player_id=player.pk))
    for nomination in restored:
        live = nomination.status in LIVE_STATUSES
        publish(
            Event(
                "nomination.created",
                nomination_data(nomination),
                sport=nomination.sport if live else None,
                user_ids=() if live else (nomination.nominated_by_id,),
                admins=True,
            )
        )
    for sport in sorted({n.sport for n in restored if n.status in LIVE_STATUSES}):
        publish_summaries(sport)


def _email_after_commit(*, address: str, subject: str, message: str) -> None:
    def send() -> None:
        try:
            send_mail(subject, message, None, [address])
        except Exception:
            # An email must never undo the decision it reports.
            logger.exception("Could not send %r", subject)

    transaction.on_commit(send)


# --- Takedown requests --------------------------------------------------------------------

TAKEDOWN_ALREADY_DECIDED = "This request was already decided"
PLAYER_NOT_HIDDEN = "This player is not taken down"
TAKEDOWN_STILL_PENDING = "Decide the pending takedown request for this player first"
RECEIPT_SUBJECT = "We received your request {reference}"
RECEIPT_MESSAGE = (
    "Reference: {reference}\n\n"
    "We received your request about the profile of {player}. The profile and its "
    "nominations are hidden from the site while our moderators review it. We will write to "
    "you at this address when it is decided.\n\nThe ScoutVote team"
)
DECISION_SUBJECT = "Your request {reference} was decided"
DECISION_MESSAGES = {
    TakedownStatus.REMOVED: "The profile of {player} stays removed from the site.",
    TakedownStatus.CORRECTED: "The profile of {player} was corrected and is shown again.",
    TakedownStatus.RESTORED: "We did not remove the profile of {player}; it is shown again.",
}
DECISIONS = {
    "remove": TakedownStatus.REMOVED,
    "correct": TakedownStatus.CORRECTED,
    "restore": TakedownStatus.RESTORED,
}


@transaction.atomic
def takedown_request_create(
    *,
    nomination_id: int,
    relationship: str,
    kind: str,
    contact_email: str,
    details: str = "",
    client_address: str,
) -> TakedownRequest:
    """An athlete's or a parent's request, without an account, to remove or correct the
    player of a page. The player is hidden at once, pending review; the requester gets an
    email with the reference; admins see the request live."""
    # The integrity budget per client address (BUDGET_TAKEDOWNS_PER_HOUR), counted under a
    # keyed hash of the address: 429 with Retry-After beyond it.
    budget_spend("TAKEDOWNS", address_key(client_address), "HOUR")
    player_id = Nomination.objects.filter(pk=nomination_id).values_list("player_id", flat=True)
    player = Player.objects.select_for_update().filter(pk__in=player_id).first()
    if player is None:
        raise NotFound(PLAYER_NOT_FOUND)
    request = TakedownRequest.objects.create(
        player=player,
        nomination_id=nomination_id,
        relationship=relationship,
        kind=kind,
        contact_email=contact_email,
        details=details,
    )
    if player.hidden_at is None:
        _player_hide(player)
    _email_after_commit(
        address=contact_email,
        subject=RECEIPT_SUBJECT.format(reference=request.reference),
        message=RECEIPT_MESSAGE.format(reference=request.reference, player=player.name),
    )
    publish(Event("takedown.created", takedown_data(request), admins=True))
    return request


@transaction.atomic
def takedown_request_decide(
    *, admin: User, request_id: int, decision: str, reason: str
) -> TakedownRequest:
    """Decide a pending request: the profile stays removed, or is shown again (corrected or
    declined) unless another request about it is still pending. The requester is emailed
    the decision with its reference; the decision goes to the moderation log."""
    request = TakedownRequest.objects.select_for_update().filter(pk=request_id).first()
    if request is None:
        raise NotFound(TAKEDOWN_NOT_FOUND)
    if request.status != TakedownStatus.PENDING:
        raise Conflict(TAKEDOWN_ALREADY_DECIDED, code="already_decided")
    player = Player.objects.select_for_update().get(pk=request.player_id)
    status = DECISIONS[decision]
    request.status = status
    request.decided_at = timezone.now()
    request.decided_by = admin
    request.decision_reason = reason
    request.save(update_fields=["status", "decided_at", "decided_by", "decision_reason"])
    others_pending = TakedownRequest.objects.filter(
        player_id=player.pk, status=TakedownStatus.PENDING
    ).exists()
    if status != TakedownStatus.REMOVED and player.hidden_at is not None and not others_pending:
        _player_unhide(player)
    modlog_record(
        actor=admin,
        action=ModlogAction.TAKEDOWN_DECIDE,
        target_type=ModlogTarget.TAKEDOWN,
        target_id=request.pk,
        target_label=f"{request.reference}: {player.name}",
        reason=reason,
        changes={"status": [TakedownStatus.PENDING.value, str(status)]},
    )
    message = DECISION_MESSAGES[status].format(player=player.name)
    _email_after_commit(
        address=request.contact_email,
        subject=DECISION_SUBJECT.format(reference=request.reference),
        message=(
            f"Reference: {request.reference}\n\n{message}\n\nReason: {reason}\n\nThe ScoutVote team"
        ),
    )
    return takedown_queryset().get(pk=request.pk)


@transaction.atomic
def player_restore(*, admin: User, player_id: int, reason: str) -> Player:
    """Show a taken-down player again (after its requests were decided)."""
    player = Player.objects.select_for_update().filter(pk=player_id).first()
    if player is None:
        raise NotFound(PLAYER_NOT_FOUND)
    if player.hidden_at is None:
        raise Conflict(PLAYER_NOT_HIDDEN, code="not_hidden")
    if TakedownRequest.objects.filter(player_id=player.pk, status=TakedownStatus.PENDING).exists():
        raise Conflict(TAKEDOWN_STILL_PENDING, code="takedown_pending")
    _player_unhide(player)
    modlog_record(
        actor=admin,
        action=ModlogAction.PLAYER_RESTORE,
        target_type=ModlogTarget.PLAYER,
        target_id=player.pk,
        target_label=player.name,
        reason=reason,
        changes={"hidden": [True, False]},
    )
    return player


# --- Reports ------------------------------------------------------------------------------

ALREADY_REPORTED = "You have already reported this"
CANNOT_REPORT_SELF = "You cannot report yourself"
REPORTS_ALREADY_RESOLVED = "These reports were already resolved"
NOT_FOR_PROFILES = "This action applies to a reported nomination only"
WARNING_MESSAGE = "A moderator warned you about your {what}. Reason: {reason}"
REMOVED_MESSAGE = "Your nomination of {player} was removed by a moderator. Reason: {reason}"
ACCOUNT_REMOVED_SUBJECT = "Your ScoutVote account was removed"
ACCOUNT_REMOVED_MESSAGE = (
    "A moderator removed your ScoutVote account and its data.\n\nReason: {reason}\n\n"
    "The ScoutVote team"
)


def _report_target(
    *, nomination_id: int | None, user_id: int | None
) -> tuple[int | None, int | None]:
    if (nomination_id is None) == (user_id is None):
        raise ValidationFailed(ONE_REPORT_TARGET, code="one_report_target")
    return nomination_id, user_id


@transaction.atomic
def report_create(
    *,
    reporter: User,
    reason: str,
    text: str = "",
    nomination_id: int | None = None,
    user_id: int | None = None,
) -> Report:
    """Report a nomination or a scout profile the reporter can see, once per item (409
    after). Admins see the item's group with its new count live."""
    _report_target(nomination_id=nomination_id, user_id=user_id)
    if nomination_id is not None:
        nomination_get(user=reporter, nomination_id=nomination_id)
        mine = Report.objects.filter(reporter=reporter, nomination_id=nomination_id)
    else:
        assert user_id is not None
        if user_id == reporter.pk:
            raise ValidationFailed(CANNOT_REPORT_SELF, code="own_account")
        scout_get(viewer=reporter, user_id=user_id)
        mine = Report.objects.filter(reporter=reporter, reported_user_id=user_id)
    if mine.exists():
        raise Conflict(ALREADY_REPORTED, code="already_reported")
    try:
        with transaction.atomic():
            report = Report.objects.create(
                reporter=reporter,
                nomination_id=nomination_id,
                reported_user_id=user_id,
                reason=reason,
                text=text,
            )
    except IntegrityError:  # the same member's concurrent report of the same item
        raise Conflict(ALREADY_REPORTED, code="already_reported") from None
    group = report_group_data(nomination_id=nomination_id, user_id=user_id)
    if group is not None:
        publish(Event("report.created", group, admins=True))
    return report


def _nomination_remove(*, nomination: Nomination, reason: str) -> None:
    """Take a (locked) reported nomination off the community: its nominator still sees it,
    with the reason, and is notified."""
    live = nomination.status in LIVE_STATUSES
    if nomination.status != NominationStatus.HIDDEN:
        nomination.status = NominationStatus.REMOVED
    else:  # a taken-down player's: stays hidden, and is removed if it is ever restored
        nomination.status_before_hidden = NominationStatus.REMOVED
    nomination.removal_reason = reason
    nomination.save(update_fields=["status", "status_before_hidden", "removal_reason"])
    removed = nomination_queryset().get(pk=nomination.pk)
    if live:
        publish(Event("nomination.removed", {"id": removed.pk}, sport=removed.sport))
        publish_summaries(removed.sport)
    _publish_updated(removed)
    notification_create(
        user=removed.nominated_by,
        type=NotificationType.NOMINATION_REMOVED,
        message=REMOVED_MESSAGE.format(player=removed.player.name, reason=reason),
        related_nomination=removed,
    )


@transaction.atomic
def reports_resolve(
    *,
    admin: User,
    action: str,
    reason: str,
    nomination_id: int | None = None,
    user_id: int | None = None,
) -> int:
    """Resolve every open report of one item with an action and a reason: dismiss, edit the
    player (done through the player edit), hide the nomination, warn or remove the user (the
    nominator of a reported nomination, or the reported scout). Returns how many reports it
    resolved; 409 when none is open (another admin resolved them)."""
    _report_target(nomination_id=nomination_id, user_id=user_id)
    nomination = None
    if nomination_id is not None:
        nomination = Nomination.objects.select_for_update().filter(pk=nomination_id).first()
        if nomination is None:
            raise NotFound(NOMINATION_NOT_FOUND)
    elif action in {ReportResolution.EDIT_PLAYER, ReportResolution.HIDE_NOMINATION}:
        raise ValidationFailed(NOT_FOR_PROFILES, code="not_for_profiles")
    reports = Report.objects.select_for_update().filter(resolved_at__isnull=True)
    if nomination_id is not None:
        reports = reports.filter(nomination_id=nomination_id)
    else:
        reports = reports.filter(reported_user_id=user_id)
    resolved = len(list(reports.order_by("pk")))
    if not resolved:
        raise Conflict(REPORTS_ALREADY_RESOLVED, code="already_resolved")
    target_user_id = nomination.nominated_by_id if nomination is not None else user_id
    assert target_user_id is not None
    target_user = User.objects.filter(pk=target_user_id).first()
    if target_user is None:
        raise NotFound(USER_NOT_FOUND)
    label = (
        nomination.player.name
        if nomination is not None
        else f"{target_user.name} (@{target_user.username})"
    )
    reports.update(
        resolved_at=timezone.now(), resolved_by=admin, resolution=action, resolution_reason=reason
    )
    modlog_record(
        actor=admin,
        action=ModlogAction.REPORT_RESOLVE,
        target_type=ModlogTarget.NOMINATION if nomination is not None else ModlogTarget.USER,
        target_id=nomination.pk if nomination is not None else target_user.pk,
        target_label=label,
        reason=reason,
        changes={"resolution": [None, action], "openReports": [resolved, 0]},
    )
    if action == ReportResolution.HIDE_NOMINATION and nomination is not None:
        _nomination_remove(nomination=nomination, reason=reason)
    elif action == ReportResolution.WARN_USER:
        notification_create(
            user=target_user,
            type=NotificationType.MODERATION_WARNING,
            message=WARNING_MESSAGE.format(
                what="nomination" if nomination is not None else "profile", reason=reason
            ),
            related_nomination=nomination,
        )
    elif action == ReportResolution.REMOVE_USER:
        _email_after_commit(
            address=target_user.email,
            subject=ACCOUNT_REMOVED_SUBJECT,
            message=ACCOUNT_REMOVED_MESSAGE.format(reason=reason),
        )
        admin_user_delete(admin=admin, user_id=target_user.pk, reason=reason)
    return resolved


# --- Export of one's own data -------------------------------------------------------------

EXPORT_WINDOW = 3600
EXPORT_TOO_SOON = "You can export your data once an hour. Please try again in {minutes} minutes."


def profile_export_take(*, user: User) -> dict[str, Any]:
    """The user's data export, at most once an hour (429 with Retry-After before)."""
    key = f"export:{user.pk}"
    now = time.time()
    # The time taken is what counts (the cache's expiry only cleans up after it).
    if not cache.add(key, now, timeout=EXPORT_WINDOW):
        wait = int(EXPORT_WINDOW - (now - float(cache.get(key) or 0)))
        if wait > 0:
            minutes = max(1, round(wait / 60))
            raise Throttled(EXPORT_TOO_SOON.format(minutes=minutes), retry_after=wait)
        cache.set(key, now, timeout=EXPORT_WINDOW)
    try:
        return profile_export(user=user)
    except Exception:
        cache.delete(key)
        raise
