"""A family's claim of a player's page (the controls an approved claim writes are
project/privacy's)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from project.common.choices import choices_check
from project.scouting.models import Player

USER = settings.AUTH_USER_MODEL


class ClaimRelationship(models.TextChoices):
    SELF = "self", "The athlete"
    PARENT_OR_GUARDIAN = "parent_or_guardian", "A parent or guardian"


class ClaimStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    APPROVED = "approved", "Approved"
    REJECTED = "rejected", "Rejected"
    # Approved once, no longer held: transferred or revoked by an admin, handed to the
    # athlete, or ended when the athlete turned 18.
    ENDED = "ended", "Ended"


class Claim(models.Model):
    """A member's claim to look after a player's page, with the evidence admins review. One
    pending claim per member and player."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="claims")
    claimant = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="claims")
    relationship = models.CharField(max_length=24, choices=ClaimRelationship.choices)
    birth_year = models.PositiveSmallIntegerField()
    evidence = models.TextField(max_length=1000)
    contact_phone = models.CharField(max_length=32, blank=True, default="")
    status = models.CharField(
        max_length=16, choices=ClaimStatus.choices, default=ClaimStatus.PENDING
    )
    decided_by = models.ForeignKey(
        USER, null=True, blank=True, on_delete=models.SET_NULL, related_name="claims_decided"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            choices_check("relationship", ClaimRelationship, "claim_relationship_valid"),
            choices_check("status", ClaimStatus, "claim_status_valid"),
            models.UniqueConstraint(
                fields=["player", "claimant"],
                condition=models.Q(status="pending"),
                name="claim_one_open_per_member_and_player",
            ),
        ]
        indexes = [models.Index(fields=["status", "created_at"], name="claim_status_created")]

    def __str__(self) -> str:
        return f"Claim {self.pk} of player {self.player_id} ({self.status})"
