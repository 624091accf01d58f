"""Writes of comments: posting (with the safety rules), deleting, reports, review."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Value
from django.db.models.functions import Replace
from django.utils import timezone

from project.accounts.models import User
from project.comments import selectors
from project.comments.models import (
    Comment,
    CommentReport,
    CommentReportOutcome,
    CommentStatus,
    HoldReason,
)
from project.comments.screening import has_contact_details, screen
from project.common.errors import Conflict, NotFound, PermissionDenied, ValidationFailed
from project.integrity.selectors import flagged_accounts
from project.modlog.models import ModlogAction, ModlogTarget
from project.modlog.services import modlog_record
from project.privacy.players import is_minor
from project.scouting.hooks import AnonymisedPlayer
from project.scouting.models import Nomination, NotificationType
from project.scouting.services.activity import notification_create
from project.scouting.services.audience import nomination_event, nomination_publish
from realtime.publish import Event, publish

CONTACT_DETAILS = "Contact details cannot be posted on an athlete's page."
CANNOT_DELETE = "Only the author, the athlete's family or a moderator can delete this comment"
ALREADY_REPORTED = "You have already reported this"
CANNOT_REPORT_OWN = "You cannot report your own comment"
ALREADY_DECIDED = "This comment was already decided"
COMMENT_MESSAGE = "{author} commented on {player}"


def _is_new_member(user: User, now: Any) -> bool:
    hours = settings.TRUST_ACCOUNT_AGE_HOURS
    return hours > 0 and user.date_joined > now - timedelta(hours=hours)


def _hold_reasons(*, author: User, content: str) -> tuple[list[str], list[str], float]:
    """Why a new comment waits for review (none: it is published), its watched words and its
    classifier score. Admins are never held."""
    found = screen(content)
    reasons: list[str] = []
    if not author.is_admin:
        if _is_new_member(author, timezone.now()):
            reasons.append(HoldReason.NEW_MEMBER)
        if author.pk in flagged_accounts():
            reasons.append(HoldReason.LOW_TRUST)
        if found.flagged_by_words:
            reasons.append(HoldReason.WATCHED_WORD)
        if found.flagged_by_classifier:
            reasons.append(HoldReason.CLASSIFIER)
    return reasons, found.watched, found.score


def _count_change(nomination: Nomination, delta: int) -> None:
    """Move the nomination's published-comment count by ``delta`` (in the write's
    transaction) and read it back onto ``nomination``."""
    Nomination.objects.filter(pk=nomination.pk).update(comment_count=F("comment_count") + delta)
    nomination.comment_count = Nomination.objects.values_list("comment_count", flat=True).get(
        pk=nomination.pk
    )


def _review_changed(comment: Comment, action: str) -> None:
    """The admins' Comments tab: the pending count and the comment that changed."""
    item = None if action == "deleted" else selectors.admin_comment_data(comment)
    publish(
        Event(
            "comments.review",
            {
                "pending": selectors.pending_count(),
                "id": comment.pk,
                "action": action,
                "item": item,
            },
            admins=True,
        )
    )


def _published(comment: Comment) -> None:
    """A comment everyone who sees its nomination now sees, live, and its notifications."""
    nomination = comment.nomination
    nomination_publish(
        nomination_event(
            "comment.created",
            nomination,
            selectors.comment_data(comment),
            also_user_ids=(comment.user_id,),
        )
    )
    recipients = {
        user_id
        for user_id in (nomination.nominated_by_id, nomination.player.claimed_by_id)
        if user_id is not None and user_id != comment.user_id
    }
    message = COMMENT_MESSAGE.format(author=comment.user.name, player=nomination.player.name)
    for user in User.objects.filter(pk__in=recipients, is_active=True).order_by("pk"):
        notification_create(
            user=user,
            type=NotificationType.COMMENT_RECEIVED,
            message=message,
            related_nomination=nomination,
        )


def _held(comment: Comment) -> None:
    """A held comment reaches its author's tabs and admins only."""
    publish(
        Event(
            "comment.created",
            selectors.comment_data(comment),
            user_ids=(comment.user_id,),
            admins=True,
        )
    )


def _left_page(comment: Comment) -> None:
    """comment.removed to everyone who saw it: the nomination's audience for a published
    one, its author and admins for a held one."""
    data = {
        "id": comment.pk,
        "nominationId": comment.nomination_id,
        "commentCount": comment.nomination.comment_count,
    }
    if comment.status == CommentStatus.PUBLISHED:
        nomination_publish(
            nomination_event(
                "comment.removed", comment.nomination, data, also_user_ids=(comment.user_id,)
            )
        )
    else:
        publish(Event("comment.removed", data, user_ids=(comment.user_id,), admins=True))


def _locked(comment_id: int) -> Comment:
    comment = selectors.comment_queryset().select_for_update(of=("self",)).filter(pk=comment_id)
    found = comment.first()
    if found is None:
        raise NotFound(selectors.COMMENT_NOT_FOUND)
    return found


@transaction.atomic
def comment_create(*, author: User, nomination_id: int, content: str) -> Comment:
    """Post a comment on a nomination the author sees. Refused while comments are off (its
    player under 13, its claimant closed them, the nomination not live) and, on a minor's
    page, when it holds contact details. A new or flagged member's comment, and one with a
    watched word or a high classifier score, waits for review: only its author and admins
    see it, and nobody is notified until an admin approves it."""
    nomination, section = selectors.comments_section(viewer=author, nomination_id=nomination_id)
    if not section["open"]:
        raise PermissionDenied(section["closed_reason"], code="comments_off")
    if is_minor(nomination.player) and has_contact_details(content):
        raise ValidationFailed(CONTACT_DETAILS, code="contact_details")
    reasons, watched, score = _hold_reasons(author=author, content=content)
    comment = Comment.objects.create(
        user=author,
        nomination=nomination,
        player=nomination.player,
        content=content,
        status=CommentStatus.PENDING if reasons else CommentStatus.PUBLISHED,
        hold_reasons=reasons,
        watched_words=watched,
        classifier_score=score,
    )
    comment = selectors.comment_queryset().get(pk=comment.pk)
    if reasons:
        _held(comment)
        _review_changed(comment, "held")
    else:
        _count_change(comment.nomination, +1)
        _published(comment)
    return comment


@transaction.atomic
def comment_delete(*, viewer: User, comment_id: int) -> None:
    """Delete a comment: its author, the player's claimant or an admin (an admin's deletion
    of another member's comment goes in the moderation log)."""
    comment = _locked(comment_id)
    visible = comment.status == CommentStatus.PUBLISHED or (
        comment.status == CommentStatus.PENDING and comment.user_id == viewer.pk
    )
    if not (visible or viewer.is_admin) or not selectors.comments_allowed_for(comment, viewer):
        raise NotFound(selectors.COMMENT_NOT_FOUND)
    if not selectors.can_delete(comment, viewer):
        raise PermissionDenied(CANNOT_DELETE, code="not_allowed")
    if comment.status == CommentStatus.PUBLISHED:
        _count_change(comment.nomination, -1)
    _left_page(comment)
    if (
        comment.status == CommentStatus.PENDING
        or comment.reports.filter(outcome=CommentReportOutcome.OPEN).exists()
    ):
        _review_changed(comment, "deleted")
    if viewer.is_admin and comment.user_id != viewer.pk:
        modlog_record(
            actor=viewer,
            action=ModlogAction.COMMENT_REMOVE,
            target_type=ModlogTarget.COMMENT,
            target_id=comment.pk,
            target_label=f"{comment.user.name} on {comment.nomination.player.name}",
            changes={"status": [comment.status, "deleted"]},
        )
    comment.delete()


@transaction.atomic
def comment_approve(*, admin: User, comment_id: int, reason: str = "") -> Comment:
    """Publish a held comment (or restore a removed one, or keep a reported one): its open
    reports are dismissed, it reaches every open page of its nomination, and its
    notifications go now."""
    comment = _locked(comment_id)
    open_reports = comment.reports.filter(outcome=CommentReportOutcome.OPEN)
    if comment.status == CommentStatus.PUBLISHED:
        if not open_reports.exists():
            raise Conflict(ALREADY_DECIDED, code="already_decided")
        return _reports_dismissed(admin=admin, comment=comment, reason=reason)
    was = comment.status
    comment.status = CommentStatus.PUBLISHED
    comment.report_weight = 0.0
    comment.decided_at = timezone.now()
    comment.decided_by = admin
    comment.save(update_fields=["status", "report_weight", "decided_at", "decided_by"])
    comment.reports.filter(outcome=CommentReportOutcome.OPEN).update(
        outcome=CommentReportOutcome.DISMISSED
    )
    modlog_record(
        actor=admin,
        action=ModlogAction.COMMENT_APPROVE
        if was == CommentStatus.PENDING
        else ModlogAction.COMMENT_RESTORE,
        target_type=ModlogTarget.COMMENT,
        target_id=comment.pk,
        target_label=f"{comment.user.name} on {comment.nomination.player.name}",
        reason=reason,
        changes={"status": [was, CommentStatus.PUBLISHED]},
    )
    _count_change(comment.nomination, +1)
    _published(comment)
    _review_changed(comment, "approved")
    return comment


def _reports_dismissed(*, admin: User, comment: Comment, reason: str) -> Comment:
    """A reported comment an admin keeps: its reports are dismissed (their reporters'
    records lose), and it stays on every page."""
    comment.reports.filter(outcome=CommentReportOutcome.OPEN).update(
        outcome=CommentReportOutcome.DISMISSED
    )
    comment.report_weight = 0.0
    comment.decided_at = timezone.now()
    comment.decided_by = admin
    comment.save(update_fields=["report_weight", "decided_at", "decided_by"])
    modlog_record(
        actor=admin,
        action=ModlogAction.COMMENT_APPROVE,
        target_type=ModlogTarget.COMMENT,
        target_id=comment.pk,
        target_label=f"{comment.user.name} on {comment.nomination.player.name}",
        reason=reason,
        changes={"openReports": [len(comment.reports.all()), 0]},
    )
    _review_changed(comment, "approved")
    return comment


@transaction.atomic
def comment_remove(*, admin: User, comment_id: int, reason: str = "") -> Comment:
    """Take a held or reported comment down: its reports are upheld, it leaves every page,
    and admins may restore it (approve)."""
    comment = _locked(comment_id)
    if comment.status == CommentStatus.REMOVED:
        raise Conflict(ALREADY_DECIDED, code="already_decided")
    was = comment.status
    if was == CommentStatus.PUBLISHED:
        _count_change(comment.nomination, -1)
    _left_page(comment)
    comment.status = CommentStatus.REMOVED
    comment.decided_at = timezone.now()
    comment.decided_by = admin
    comment.save(update_fields=["status", "decided_at", "decided_by"])
    comment.reports.filter(outcome=CommentReportOutcome.OPEN).update(
        outcome=CommentReportOutcome.UPHELD
    )
    modlog_record(
        actor=admin,
        action=ModlogAction.COMMENT_REMOVE,
        target_type=ModlogTarget.COMMENT,
        target_id=comment.pk,
        target_label=f"{comment.user.name} on {comment.nomination.player.name}",
        reason=reason,
        changes={"status": [was, CommentStatus.REMOVED]},
    )
    _review_changed(comment, "removed")
    return comment


@transaction.atomic
def comment_report(*, reporter: User, target_id: int, reason: str, text: str) -> CommentReport:
    """A member's report of a published comment they see (moderation's report target
    ``comment``), weighed by their record; once the open reports weigh
    COMMENT_REPORT_HIDE_WEIGHT the comment leaves every page and waits for review."""
    comment = _locked(target_id)
    if comment.status != CommentStatus.PUBLISHED or not selectors.comments_allowed_for(
        comment, reporter
    ):
        raise NotFound(selectors.COMMENT_NOT_FOUND)
    selectors.comments_section(viewer=reporter, nomination_id=comment.nomination_id)
    if comment.user_id == reporter.pk:
        raise ValidationFailed(CANNOT_REPORT_OWN, code="own_comment")
    weight = selectors.reporter_weight(reporter.pk)
    try:
        with transaction.atomic():
            report = CommentReport.objects.create(
                comment=comment, reporter=reporter, reason=reason, text=text, weight=weight
            )
    except IntegrityError:
        raise Conflict(ALREADY_REPORTED, code="already_reported") from None
    comment.report_weight = round(comment.report_weight + weight, 2)
    fields = ["report_weight"]
    if comment.report_weight >= settings.COMMENT_REPORT_HIDE_WEIGHT:
        _count_change(comment.nomination, -1)
        _left_page(comment)
        comment.status = CommentStatus.PENDING
        comment.hold_reasons = [*comment.hold_reasons, HoldReason.REPORTS]
        fields += ["status", "hold_reasons"]
        comment.save(update_fields=fields)
        _held(comment)
        _review_changed(comment, "held")
    else:
        comment.save(update_fields=fields)
        _review_changed(comment, "reported")
    return report


def player_comments_scrub(player: AnonymisedPlayer) -> None:
    """A player is anonymised (in this transaction): its name leaves what its comments say."""
    Comment.objects.filter(player_id=player.player_id).update(
        content=Replace("content", Value(player.old_name), Value(player.new_name))
    )


def user_comments_delete(user: User) -> None:
    """Accounts' deletion step: the member's comments leave every page they were on, and the
    nominations' counts with them (comments on their own nominations went with those)."""
    for comment in selectors.comment_queryset().filter(user_id=user.pk).order_by("pk"):
        if comment.status == CommentStatus.PUBLISHED:
            _count_change(comment.nomination, -1)
        if comment.status != CommentStatus.REMOVED:
            _left_page(comment)
        comment.delete()
