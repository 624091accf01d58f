"""The controls a player's verified claimant holds (written when a claim is approved,
project/claims): who manages the page and what the public and members see of it."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from project.common.choices import choices_check


class ManagedRelationship(models.TextChoices):
    SELF = "self", "The athlete"
    PARENT_OR_GUARDIAN = "parent_or_guardian", "A parent or guardian"


class PlayerControls(models.Model):
    """What the verified claimant of a player decides (one row per claimed player, written
    when a claim is approved): who manages the page, what strangers see, whether voting is
    open, and whether the claimant removed the page."""

    player = models.OneToOneField(
        "scouting.Player", on_delete=models.CASCADE, related_name="controls"
    )
    relationship = models.CharField(max_length=24, choices=ManagedRelationship.choices)
    # The birth year the verified claim gave: the player's age comes from it first.
    birth_year = models.PositiveSmallIntegerField()
    hide_club = models.BooleanField(default=False)
    hide_nationality = models.BooleanField(default=False)
    # Off until the claimant turns it on: the public gets the generic preview and card.
    share_card = models.BooleanField(default=False)
    voting_open = models.BooleanField(default=True)
    # Off: nobody comments on the player's nominations, and their comments are hidden.
    comments_open = models.BooleanField(default=True)
    indexable = models.BooleanField(default=False)
    # Set while the claimant has removed the page (hidden like a confirmed takedown); the
    # claimant may bring it back within PROFILE_RESTORE_DAYS.
    removed_at = models.DateTimeField(null=True, blank=True)
    # The athlete's own account, named by their guardian from 16 (project/claims/transitions.py):
    # it takes the controls when it accepts them, and at 18 at the latest.
    athlete = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="invited_controls",
    )
    # When the guardian was invited to hand the controls to the athlete (at 16, once).
    athlete_invited_at = models.DateTimeField(null=True, blank=True)
    # When the guardian's controls ended at 18 with no athlete's account to take them: the
    # settings stay as the family left them, held by no one, until the athlete claims the page.
    guardian_ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            choices_check("relationship", ManagedRelationship, "controls_relationship_valid"),
        ]

    def __str__(self) -> str:
        return f"Controls of player {self.player_id}"


class PlayerRetention(models.Model):
    """When a player was last edited and whether the retention job anonymised it (an unclaimed
    player with no vote, follow or edit for ``PLAYER_RETENTION_MONTHS``, project/claims)."""

    player = models.OneToOneField(
        "scouting.Player", on_delete=models.CASCADE, related_name="retention"
    )
    edited_at = models.DateTimeField(null=True, blank=True)
    anonymised_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Retention of player {self.player_id}"
