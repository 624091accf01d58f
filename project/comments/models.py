"""Members' comments on a nomination, their review and the reports against them."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from project.common.choices import choices_check
from project.scouting.models import Nomination, Player

USER = settings.AUTH_USER_MODEL


class CommentStatus(models.TextChoices):
    # Seen by everyone who sees the nomination.
    PUBLISHED = "published", "Published"
    # Held for review: seen by its author ("Awaiting review") and admins only.
    PENDING = "pending", "Awaiting review"
    # Removed by an admin from the review queue: seen by admins only, who may restore it.
    REMOVED = "removed", "Removed"


class HoldReason(models.TextChoices):
    NEW_MEMBER = "new_member", "New member"
    LOW_TRUST = "low_trust", "Low trust"
    WATCHED_WORD = "watched_word", "Watched word"
    CLASSIFIER = "classifier", "Classifier score"
    REPORTS = "reports", "Reports"


class Comment(models.Model):
    """A member's comment on a nomination (``player`` is the nomination's, kept so that a
    player's comments read in one index)."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="comments")
    nomination = models.ForeignKey(Nomination, on_delete=models.CASCADE, related_name="comments")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="comments")
    content = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(
        max_length=16, choices=CommentStatus.choices, default=CommentStatus.PUBLISHED
    )
    # Why it waits for review (HoldReason values), in the order they were found.
    hold_reasons = models.JSONField(default=list, blank=True)
    # The classifier's probability that the text is offensive (0..1).
    classifier_score = models.FloatField(default=0.0)
    # The watched words it contains, for the admin reading the queue.
    watched_words = models.JSONField(default=list, blank=True)
    # The sum of its open reports' weights (each by its reporter's record).
    report_weight = models.FloatField(default=0.0)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [choices_check("status", CommentStatus, "comment_status_valid")]
        indexes = [
            models.Index(fields=["nomination", "created_at", "id"], name="comment_nomination"),
            models.Index(
                fields=["created_at", "id"],
                condition=models.Q(status="pending"),
                name="comment_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"Comment {self.pk}"


class CommentReportOutcome(models.TextChoices):
    OPEN = "open", "Open"
    UPHELD = "upheld", "Upheld"  # the comment was removed
    DISMISSED = "dismissed", "Dismissed"  # the comment was approved


class CommentReport(models.Model):
    """A member's report of a comment (through POST /api/reports with commentId), weighed by
    the reporter's record when it was made."""

    comment = models.ForeignKey(Comment, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="comment_reports")
    reason = models.CharField(max_length=32)
    text = models.TextField(blank=True, default="")
    weight = models.FloatField()
    outcome = models.CharField(
        max_length=16, choices=CommentReportOutcome.choices, default=CommentReportOutcome.OPEN
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            choices_check("outcome", CommentReportOutcome, "comment_report_outcome_valid"),
            models.UniqueConstraint(fields=["reporter", "comment"], name="comment_report_once"),
        ]

    def __str__(self) -> str:
        return f"Report {self.pk} of comment {self.comment_id}"
