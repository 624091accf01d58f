"""Reads of comments: who sees which, the section's state, the review queue."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet
from ninja import Schema
from ninja.responses import NinjaJSONEncoder

from project.accounts.models import User
from project.comments.models import (
    Comment,
    CommentReport,
    CommentReportOutcome,
    CommentStatus,
    HoldReason,
)
from project.comments.schemas import AdminCommentOut, CommentEventOut
from project.common.pagination import PageQuery, keyset_paginate
from project.privacy.players import (
    comments_allowed,
    controls_of,
    is_minor,
    is_young_child,
    player_age,
)
from project.scouting.models import LIVE_STATUSES, Nomination, Player
from project.scouting.selectors import nomination_get

OLDEST_FIRST = ("created_at", "id")
COMMENT_NOT_FOUND = "Comment not found"
OFF_UNDER_13 = "Comments are off for athletes under 13."
OFF_BY_FAMILY = "The athlete's family turned comments off for this page."
OFF_BY_ATHLETE = "The athlete turned comments off for this page."
OFF_NOT_LIVE = "Comments are closed on this nomination."


def _wire(value: Schema) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        json.dumps(value.model_dump(by_alias=True), cls=NinjaJSONEncoder)
    )
    return data


def comments_closed_reason(nomination: Nomination) -> str | None:
    """Why members may not comment on ``nomination`` now (None: they may)."""
    player = nomination.player
    if not comments_allowed(player):
        controls = controls_of(player)
        if controls is not None and not controls.comments_open:
            return OFF_BY_ATHLETE if controls.relationship == "self" else OFF_BY_FAMILY
        if is_young_child(player_age(player)):
            return OFF_UNDER_13
    if nomination.status not in LIVE_STATUSES:
        return OFF_NOT_LIVE
    return None


def comment_queryset() -> QuerySet[Comment]:
    return Comment.objects.select_related(
        "user", "nomination", "nomination__player", "nomination__player__controls"
    )


def _visible_to(viewer: User) -> Q:
    """Published comments, and the viewer's own held ones; admins see the held too."""
    if viewer.is_admin:
        return Q(status__in=[CommentStatus.PUBLISHED, CommentStatus.PENDING])
    return Q(status=CommentStatus.PUBLISHED) | Q(status=CommentStatus.PENDING, user_id=viewer.pk)


def badges(comment: Comment) -> list[str]:
    user = comment.user
    nomination = comment.nomination
    found = []
    if user.has_admin_role:
        found.append("admin")
    if nomination.nominated_by_id == user.pk:
        found.append("nominator")
    if nomination.player.claimed_by_id == user.pk:
        controls = controls_of(nomination.player)
        found.append(
            "athlete" if controls is not None and controls.relationship == "self" else "family"
        )
    return found


def can_delete(comment: Comment, viewer: User) -> bool:
    """The author, the player's claimant and admins delete a comment."""
    return (
        viewer.is_admin
        or comment.user_id == viewer.pk
        or comment.nomination.player.claimed_by_id == viewer.pk
    )


def _author(comment: Comment) -> dict[str, Any]:
    return {
        "id": comment.user.pk,
        "name": comment.user.name,
        "username": comment.user.username,
        "badges": badges(comment),
    }


def comment_data(comment: Comment) -> dict[str, Any]:
    """The comment as comment.created carries it (no reader-specific keys)."""
    return _wire(
        CommentEventOut.model_validate(
            {
                "id": comment.pk,
                "nomination_id": comment.nomination_id,
                "author": _author(comment),
                "content": comment.content,
                "created_at": comment.created_at,
                "status": "pending" if comment.status == CommentStatus.PENDING else "published",
                "comment_count": comment.nomination.comment_count,
            }
        )
    )


@dataclass(frozen=True)
class CommentPage:
    items: list[dict[str, Any]]
    next_cursor: str | None


def comment_page(*, viewer: User, nomination: Nomination, page: PageQuery) -> CommentPage:
    """One page of the comments ``viewer`` sees on ``nomination``, oldest first: none while
    comments are off for its player (under 13, or its claimant closed them)."""
    queryset = comment_queryset().filter(_visible_to(viewer), nomination_id=nomination.pk)
    if not comments_allowed(nomination.player):
        queryset = queryset.none()
    rows = keyset_paginate(queryset, ordering=OLDEST_FIRST, page=page)
    items = [
        {**comment_data(comment), "canDelete": can_delete(comment, viewer)}
        for comment in rows.items
    ]
    return CommentPage(items=items, next_cursor=rows.next_cursor)


def comments_section(*, viewer: User, nomination_id: int) -> tuple[Nomination, dict[str, Any]]:
    """The nomination ``viewer`` sees and its comment section's state (404 as the
    nomination's)."""
    nomination = nomination_get(user=viewer, nomination_id=nomination_id)
    reason = comments_closed_reason(nomination)
    return nomination, {
        "open": reason is None,
        "closed_reason": reason,
        "minor": is_minor(nomination.player),
        "can_moderate": viewer.is_admin or nomination.player.claimed_by_id == viewer.pk,
    }


def reporter_weight(user_id: int) -> float:
    """A report's weight by its reporter's record (Coral's and Discourse's flags): 1 for a
    first report, towards 2 as more of their reports are upheld, towards 0.2 as more are
    dismissed (nomination and profile reports resolved by admins count too)."""
    from project.moderation.models import Report, ReportResolution

    comment_reports = CommentReport.objects.filter(reporter_id=user_id)
    upheld = comment_reports.filter(outcome=CommentReportOutcome.UPHELD).count()
    dismissed = comment_reports.filter(outcome=CommentReportOutcome.DISMISSED).count()
    resolved = Report.objects.filter(reporter_id=user_id, resolved_at__isnull=False)
    dismissed += resolved.filter(resolution=ReportResolution.DISMISS).count()
    upheld += resolved.exclude(resolution=ReportResolution.DISMISS).count()
    weight = 2 * (1 + upheld) / (2 + upheld + dismissed)
    return round(max(0.2, min(2.0, weight)), 2)


REASON_LABELS = {code: str(label) for code, label in HoldReason.choices}


def _reasons(comment: Comment) -> list[dict[str, str]]:
    details = {
        HoldReason.NEW_MEMBER: "The account is younger than the trust age",
        HoldReason.LOW_TRUST: "The account is named by an open integrity flag",
        HoldReason.WATCHED_WORD: ", ".join(comment.watched_words),
        HoldReason.CLASSIFIER: f"{comment.classifier_score:.2f}",
        HoldReason.REPORTS: f"weight {comment.report_weight:.1f}",
    }
    return [
        {"code": code, "label": REASON_LABELS[code], "detail": details[HoldReason(code)]}
        for code in comment.hold_reasons
    ]


def admin_comment_data(comment: Comment) -> dict[str, Any]:
    reports = [
        {
            "reason": report.reason,
            "text": report.text,
            "weight": report.weight,
            "created_at": report.created_at,
            "reporter": {
                "id": report.reporter.pk,
                "name": report.reporter.name,
                "username": report.reporter.username,
            },
        }
        for report in comment.reports.select_related("reporter")
        .filter(outcome=CommentReportOutcome.OPEN)
        .order_by("created_at", "id")
    ]
    return _wire(
        AdminCommentOut.model_validate(
            {
                "id": comment.pk,
                "nomination_id": comment.nomination_id,
                "player_name": comment.nomination.player.name,
                "author": _author(comment),
                "content": comment.content,
                "created_at": comment.created_at,
                "status": comment.status,
                "reasons": _reasons(comment),
                "classifier_score": round(comment.classifier_score, 3),
                "watched_words": comment.watched_words,
                "report_weight": comment.report_weight,
                "reports": reports,
            }
        )
    )


def admin_comments(*, status: str) -> QuerySet[Comment]:
    """The Comments tab: held ones (``pending``), published ones with open reports
    (``reported``), or removed ones; unordered (paged oldest first)."""
    queryset = comment_queryset()
    if status == "reported":
        return queryset.filter(
            status=CommentStatus.PUBLISHED, reports__outcome=CommentReportOutcome.OPEN
        ).distinct()
    return queryset.filter(status=status)


def pending_count() -> int:
    return Comment.objects.filter(status=CommentStatus.PENDING).count()


def comments_allowed_for(comment: Comment, viewer: User) -> bool:
    """Whether ``viewer`` reads comments on the comment's page (admins always do)."""
    return viewer.is_admin or comments_allowed(comment.nomination.player)


def comment_export(user: User) -> dict[str, Any]:
    """The member's comments, for their data export."""
    rows = Comment.objects.filter(user_id=user.pk).order_by("created_at", "id")
    return {
        "comments": [
            {
                "nominationId": row.nomination_id,
                "content": row.content,
                "status": row.status,
                "createdAt": row.created_at,
            }
            for row in rows
        ]
    }


def player_comments_export(player: Player) -> dict[str, Any]:
    """A player's comments, for its claimant's export of the player: the published ones as
    members read them, and how many wait for review or were removed (their text and authors
    are for admins until they decide)."""
    rows = Comment.objects.filter(player_id=player.pk).select_related("user")
    published = rows.filter(status=CommentStatus.PUBLISHED).order_by("created_at", "id")
    return {
        "comments": [
            {
                "nomination_id": row.nomination_id,
                "author": row.user.username,
                "content": row.content,
                "created_at": row.created_at,
            }
            for row in published
        ],
        "comments_held": rows.filter(status=CommentStatus.PENDING).count(),
        "comments_removed": rows.filter(status=CommentStatus.REMOVED).count(),
    }
