"""Members' reports and takedown requests."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models

from project.common.choices import choices_check
from project.scouting.models import Endorsement, Nomination, Player

USER = settings.AUTH_USER_MODEL


def new_takedown_reference() -> str:
    return "TD-" + secrets.token_hex(4).upper()


class ReportReason(models.TextChoices):
    NOT_REAL = "not_real", "Not a real athlete"
    WRONG_INFORMATION = "wrong_information", "Wrong information"
    INAPPROPRIATE = "inappropriate", "Inappropriate content"
    PRIVACY = "privacy", "Privacy"
    OTHER = "other", "Other"


class ReportResolution(models.TextChoices):
    DISMISS = "dismiss", "Dismiss"
    EDIT_PLAYER = "edit_player", "Edit the player"
    HIDE_NOMINATION = "hide_nomination", "Hide the nomination"
    HIDE_ENDORSEMENT = "hide_endorsement", "Hide the endorsement"
    WARN_USER = "warn_user", "Warn the user"
    REMOVE_USER = "remove_user", "Remove the user"


class Report(models.Model):
    """A member's report of a nomination, a scout profile or an endorsement: one per member
    and item."""

    reporter = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="reports_made")
    nomination = models.ForeignKey(
        Nomination, null=True, blank=True, on_delete=models.CASCADE, related_name="reports"
    )
    reported_user = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.CASCADE, related_name="reports_received"
    )
    endorsement = models.ForeignKey(
        Endorsement, null=True, blank=True, on_delete=models.CASCADE, related_name="reports"
    )
    reason = models.CharField(max_length=32, choices=ReportReason.choices)
    text = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolved_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolution = models.CharField(
        max_length=32, choices=ReportResolution.choices, blank=True, default=""
    )
    resolution_reason = models.TextField(blank=True, default="")

    class Meta:
        constraints = [
            choices_check("reason", ReportReason, "report_reason_valid"),
            models.CheckConstraint(
                condition=models.Q(
                    nomination__isnull=False, reported_user__isnull=True, endorsement__isnull=True
                )
                | models.Q(
                    nomination__isnull=True, reported_user__isnull=False, endorsement__isnull=True
                )
                | models.Q(
                    nomination__isnull=True, reported_user__isnull=True, endorsement__isnull=False
                ),
                name="report_exactly_one_target",
            ),
            models.UniqueConstraint(
                fields=["reporter", "nomination"],
                condition=models.Q(nomination__isnull=False),
                name="report_nomination_once",
            ),
            models.UniqueConstraint(
                fields=["reporter", "reported_user"],
                condition=models.Q(reported_user__isnull=False),
                name="report_user_once",
            ),
            models.UniqueConstraint(
                fields=["reporter", "endorsement"],
                condition=models.Q(endorsement__isnull=False),
                name="report_endorsement_once",
            ),
        ]
        indexes = [
            models.Index(
                fields=["created_at", "id"],
                condition=models.Q(resolved_at__isnull=True),
                name="report_open",
            ),
        ]

    def __str__(self) -> str:
        return f"Report {self.pk} by {self.reporter_id}"


class TakedownRelationship(models.TextChoices):
    ATHLETE = "athlete", "I am the athlete"
    PARENT_OR_GUARDIAN = "parent_or_guardian", "I am a parent or guardian"


class TakedownKind(models.TextChoices):
    REMOVE = "remove", "Remove the profile"
    CORRECT = "correct", "Correct the profile"


class TakedownStatus(models.TextChoices):
    # Sent, not yet confirmed from its email address: nothing is hidden.
    UNCONFIRMED = "unconfirmed", "Unconfirmed"
    PENDING = "pending", "Pending review"
    REMOVED = "removed", "Removed"
    CORRECTED = "corrected", "Corrected and restored"
    RESTORED = "restored", "Declined and restored"


class TakedownRequest(models.Model):
    """An athlete's or a parent's request, made without an account, to remove or correct a
    player's profile, acted on once confirmed from its email address. No address of the
    requester is stored (the per-IP budget lives in the cache, keyed by a hash)."""

    reference = models.CharField(max_length=16, unique=True, default=new_takedown_reference)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="takedown_requests")
    # The player page the requester pointed at (a player's page is one of its nominations).
    nomination = models.ForeignKey(
        Nomination, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    relationship = models.CharField(max_length=32, choices=TakedownRelationship.choices)
    kind = models.CharField(max_length=16, choices=TakedownKind.choices)
    contact_email = models.EmailField()
    details = models.TextField(blank=True, default="")
    status = models.CharField(
        max_length=16, choices=TakedownStatus.choices, default=TakedownStatus.UNCONFIRMED
    )
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decision_reason = models.TextField(blank=True, default="")
    # A keyed hash of the network (/24 or /48) the confirmation link was opened from: requests
    # confirmed from different networks and email domains count as independent.
    confirmed_network_key = models.CharField(max_length=16, blank=True, default="")

    class Meta:
        constraints = [
            choices_check("relationship", TakedownRelationship, "takedown_relationship_valid"),
            choices_check("kind", TakedownKind, "takedown_kind_valid"),
            choices_check("status", TakedownStatus, "takedown_status_valid"),
        ]
        indexes = [
            models.Index(
                fields=["created_at", "id"],
                condition=models.Q(status="pending"),
                name="takedown_pending",
            ),
        ]

    def __str__(self) -> str:
        return self.reference


class TakedownEmailStop(models.Model):
    """An address that asked, from the link of a confirmation email, to be sent no more
    confirmation emails. Kept as a keyed hash of the address, never the address."""

    email_key = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.email_key[:8]


class TakedownRefusalReason(models.TextChoices):
    NETWORK = "network", "Too many requests from one network"
    RECIPIENT = "recipient", "Too many confirmation emails to one address"
    PLAYER = "player", "Enough confirmed requests about the player from this address"
    OPEN_REQUEST = "open_request", "A request from this address is waiting for confirmation"
    EMAILS_STOPPED = "emails_stopped", "The address asked for no more emails"


class TakedownRefusal(models.Model):
    """Takedown requests about a player that were refused, counted per reason and day, so
    that admins see who is kept out and why (one row per player, reason and day, whatever
    the flood)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=16, choices=TakedownRefusalReason.choices)
    day = models.DateField()
    count = models.PositiveIntegerField(default=0)
    last_at = models.DateTimeField()

    class Meta:
        constraints = [
            choices_check("reason", TakedownRefusalReason, "takedown_refusal_reason_valid"),
            models.UniqueConstraint(
                fields=["player", "reason", "day"], name="takedown_refusal_once_a_day"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.reason} {self.player_id} {self.day}"
