"""Members' reports of nominations and profiles, and their resolution by admins."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from project.accounts.models import User
from project.accounts.selectors import scout_get
from project.common.errors import Conflict, NotFound, ValidationFailed
from project.moderation import hooks
from project.moderation.hooks import report_target
from project.moderation.models import Report, ReportResolution
from project.moderation.schemas import ONE_REPORT_TARGET
from project.moderation.selectors import report_group_data
from project.moderation.services.users import USER_NOT_FOUND, admin_user_delete
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import modlog_record
from project.notify.services import transactional_enqueue
from project.scouting.models import (
    LIVE_STATUSES,
    Endorsement,
    Nomination,
    NominationStatus,
    NotificationType,
)
from project.scouting.selectors import (
    NOMINATION_NOT_FOUND,
    nomination_data,
    nomination_get,
    nomination_queryset,
    player_get_visible,
)
from project.scouting.services.activity import notification_create
from project.scouting.services.audience import (
    nomination_event,
    nomination_publish,
    nomination_removed,
)
from project.sharing.services import share_cards_drop
from realtime.publish import Event, publish, publish_summaries

ALREADY_REPORTED = "You have already reported this"
CANNOT_REPORT_SELF = "You cannot report yourself"
REPORTS_ALREADY_RESOLVED = "These reports were already resolved"
NOT_FOR_PROFILES = "This action applies to a reported nomination only"
NOT_FOR_NOMINATIONS = "This action applies to a reported endorsement only"
NOT_FOR_ENDORSEMENTS = "This action applies to a reported nomination only"
ENDORSEMENT_NOT_FOUND = "Endorsement not found"
WARNING_MESSAGE = "A moderator warned you about your {what}. Reason: {reason}"
REMOVED_MESSAGE = "Your nomination of {player} was removed by a moderator. Reason: {reason}"
ACCOUNT_REMOVED_SUBJECT = "Your ScoutVote account was removed"
ACCOUNT_REMOVED_MESSAGE = (
    "A moderator removed your ScoutVote account and its data.\n\nReason: {reason}\n\n"
    "The ScoutVote team"
)


def _report_target(
    *,
    nomination_id: int | None,
    user_id: int | None,
    endorsement_id: int | None = None,
    comment_id: int | None = None,
) -> None:
    given = [pk for pk in (nomination_id, user_id, endorsement_id, comment_id) if pk is not None]
    if len(given) != 1:
        raise ValidationFailed(ONE_REPORT_TARGET, code="one_report_target")


def _endorsement_seen(*, user: User, endorsement_id: int) -> Endorsement:
    """An endorsement on a page ``user`` can see, not removed by a moderator (404 otherwise).
    Which endorsements a page shows is project/coaches' rule; a report of one hidden from
    the page since still reaches admins."""
    endorsement = (
        Endorsement.objects.select_related("player")
        .filter(pk=endorsement_id, removed_at__isnull=True)
        .first()
    )
    if endorsement is None:
        raise NotFound(ENDORSEMENT_NOT_FOUND)
    player_get_visible(user=user, player_id=endorsement.player_id)
    return endorsement


@transaction.atomic
def report_create(
    *,
    reporter: User,
    reason: str,
    text: str = "",
    nomination_id: int | None = None,
    user_id: int | None = None,
    endorsement_id: int | None = None,
    comment_id: int | None = None,
) -> Any:
    """Report a nomination, a scout profile, an endorsement or a comment the reporter can see,
    once per item (409 after). Admins see the item's group with its new count live; a
    comment's report is the comments app's (``register_report_target``)."""
    _report_target(
        nomination_id=nomination_id,
        user_id=user_id,
        endorsement_id=endorsement_id,
        comment_id=comment_id,
    )
    if comment_id is not None:
        return report_target("comment")(
            reporter=reporter, target_id=comment_id, reason=reason, text=text
        )
    if nomination_id is not None:
        nomination_get(user=reporter, nomination_id=nomination_id)
        mine = Report.objects.filter(reporter=reporter, nomination_id=nomination_id)
    elif endorsement_id is not None:
        endorsement = _endorsement_seen(user=reporter, endorsement_id=endorsement_id)
        if endorsement.endorser_id == reporter.pk:
            raise ValidationFailed(CANNOT_REPORT_SELF, code="own_account")
        mine = Report.objects.filter(reporter=reporter, endorsement_id=endorsement_id)
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
                endorsement_id=endorsement_id,
                reason=reason,
                text=text,
            )
    except IntegrityError:  # the same member's concurrent report of the same item
        raise Conflict(ALREADY_REPORTED, code="already_reported") from None
    group = report_group_data(
        nomination_id=nomination_id, user_id=user_id, endorsement_id=endorsement_id
    )
    if group is not None:
        publish(Event("report.created", group, admins=True))
    return report


def _nomination_remove(*, nomination: Nomination, reason: str) -> None:
    """Take a (locked) reported nomination off the community: its nominator still sees it,
    with the reason, and is notified."""
    status_was = nomination.status
    live = status_was in LIVE_STATUSES
    if nomination.status != NominationStatus.HIDDEN:
        nomination.status = NominationStatus.REMOVED
    else:  # a taken-down player's: stays hidden, and is removed if it is ever restored
        nomination.status_before_hidden = NominationStatus.REMOVED
    nomination.removal_reason = reason
    nomination.save(update_fields=["status", "status_before_hidden", "removal_reason"])
    share_cards_drop(nomination_ids=[nomination.pk])
    removed = nomination_queryset().get(pk=nomination.pk)
    nomination_publish(nomination_removed(removed, status_was=status_was))
    if live:
        publish_summaries(removed.sport)
    nomination_publish(nomination_event("nomination.updated", removed, nomination_data(removed)))
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
    endorsement_id: int | None = None,
) -> int:
    """Resolve every open report of one item with an action and a reason: dismiss, edit the
    player (done through the player edit), hide the nomination or the endorsement, warn or
    remove the user (the nominator of a reported nomination, the coach of a reported
    endorsement, or the reported scout). Returns how many reports it resolved; 409 when none
    is open (another admin resolved them)."""
    _report_target(nomination_id=nomination_id, user_id=user_id, endorsement_id=endorsement_id)
    nomination = None
    endorsement = None
    if nomination_id is not None:
        nomination = Nomination.objects.select_for_update().filter(pk=nomination_id).first()
        if nomination is None:
            raise NotFound(NOMINATION_NOT_FOUND)
        if action == ReportResolution.HIDE_ENDORSEMENT:
            raise ValidationFailed(NOT_FOR_NOMINATIONS, code="not_for_nominations")
    elif endorsement_id is not None:
        endorsement = Endorsement.objects.select_for_update().filter(pk=endorsement_id).first()
        if endorsement is None:
            raise NotFound(ENDORSEMENT_NOT_FOUND)
        if action in {ReportResolution.EDIT_PLAYER, ReportResolution.HIDE_NOMINATION}:
            raise ValidationFailed(NOT_FOR_ENDORSEMENTS, code="not_for_endorsements")
    elif action in {
        ReportResolution.EDIT_PLAYER,
        ReportResolution.HIDE_NOMINATION,
        ReportResolution.HIDE_ENDORSEMENT,
    }:
        raise ValidationFailed(NOT_FOR_PROFILES, code="not_for_profiles")
    reports = Report.objects.select_for_update().filter(resolved_at__isnull=True)
    if nomination_id is not None:
        reports = reports.filter(nomination_id=nomination_id)
    elif endorsement_id is not None:
        reports = reports.filter(endorsement_id=endorsement_id)
    else:
        reports = reports.filter(reported_user_id=user_id)
    resolved = len(list(reports.order_by("pk")))
    if not resolved:
        raise Conflict(REPORTS_ALREADY_RESOLVED, code="already_resolved")
    if nomination is not None:
        target_user_id: int | None = nomination.nominated_by_id
    elif endorsement is not None:
        target_user_id = endorsement.endorser_id
    else:
        target_user_id = user_id
    assert target_user_id is not None
    target_user = User.objects.filter(pk=target_user_id).first()
    if target_user is None:
        raise NotFound(USER_NOT_FOUND)
    if nomination is not None:
        label = nomination.player.name
        target_type, target_id = ModlogTarget.NOMINATION, nomination.pk
    elif endorsement is not None:
        label = f"{target_user.name} on {endorsement.player.name}"
        target_type, target_id = ModlogTarget.ENDORSEMENT, endorsement.pk
    else:
        label = f"{target_user.name} (@{target_user.username})"
        target_type, target_id = ModlogTarget.USER, target_user.pk
    reports.update(
        resolved_at=timezone.now(), resolved_by=admin, resolution=action, resolution_reason=reason
    )
    modlog_record(
        actor=admin,
        action=ModlogAction.REPORT_RESOLVE,
        target_type=target_type,
        target_id=target_id,
        target_label=label,
        reason=reason,
        changes={"resolution": [None, action], "openReports": [resolved, 0]},
    )
    if action == ReportResolution.HIDE_NOMINATION and nomination is not None:
        _nomination_remove(nomination=nomination, reason=reason)
    elif action == ReportResolution.HIDE_ENDORSEMENT and endorsement is not None:
        endorsement.removed_at = timezone.now()
        endorsement.removal_reason = reason
        endorsement.save(update_fields=["removed_at", "removal_reason"])
        hooks.endorsement_removed(endorsement.player_id)
    elif action == ReportResolution.WARN_USER:
        what = "profile"
        if nomination is not None:
            what = "nomination"
        elif endorsement is not None:
            what = "endorsement"
        notification_create(
            user=target_user,
            type=NotificationType.MODERATION_WARNING,
            message=WARNING_MESSAGE.format(what=what, reason=reason),
            related_nomination=nomination,
        )
    elif action == ReportResolution.REMOVE_USER:
        transactional_enqueue(
            key=f"account-removed:{target_user.pk}",
            to=target_user.email,
            subject=ACCOUNT_REMOVED_SUBJECT,
            body=ACCOUNT_REMOVED_MESSAGE.format(reason=reason),
        )
        admin_user_delete(admin=admin, user_id=target_user.pk, reason=reason)
    return resolved
