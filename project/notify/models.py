from __future__ import annotations

from django.conf import settings
from django.db import models


class OutboundEvent(models.Model):
    """One notification-worthy event (a vote on a member's nomination, a decision, a new
    follower), written in the transaction that causes it: a rolled-back vote leaves none.
    The worker's dispatch (``services.events_dispatch``) folds a recipient's events of one
    kind about one nomination into emails and deletes them; every event counts, a vote
    coalesced into an unread in-app notification included."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    # No foreign key: the vote path writes this row without locking anything more, and a
    # deleted nomination's events are dropped at dispatch.
    nomination_id = models.BigIntegerField(null=True, blank=True)
    message = models.TextField()
    created_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(fields=["user", "kind", "nomination_id", "id"], name="notify_event_group")
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id} ({self.created_at:%Y-%m-%d %H:%M})"


class NotificationEmail(models.Model):
    """A notification email enqueued for a member: what the fold rule (the last one of a kind
    about a nomination) and the daily cap (how many today) read. ``events`` is how many
    events it told of."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32)
    nomination_id = models.BigIntegerField(null=True, blank=True)
    events = models.PositiveIntegerField()
    sent_at = models.DateTimeField()

    class Meta:
        indexes = [
            models.Index(
                fields=["user", "kind", "nomination_id", "-sent_at"], name="notify_email_fold"
            ),
            models.Index(fields=["user", "-sent_at"], name="notify_email_day"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user_id} ({self.events} events)"
