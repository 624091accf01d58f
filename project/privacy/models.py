"""The controls a player's verified claimant holds (written when a claim is approved,
project/claims): who manages the page and what the public and members see of it."""

from __future__ import annotations

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

    class Meta:
        constraints = [
            choices_check("relationship", ManagedRelationship, "controls_relationship_valid"),
        ]

    def __str__(self) -> str:
        return f"Controls of player {self.player_id}"
