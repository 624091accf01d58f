"""News about a player, written by its claimant or a verified coach, and its review."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from project.common.choices import choices_check
from project.scouting.models import Player

USER = settings.AUTH_USER_MODEL


class UpdateStatus(models.TextChoices):
    # Waits for an admin (it carries an image or a video link): only its author and admins
    # see it.
    PENDING = "pending", "Pending"
    PUBLISHED = "published", "Published"
    REJECTED = "rejected", "Rejected"


class PlayerUpdate(models.Model):
    """An update on a player's page: a title, text, an optional checked image (``image_key``
    in the media storage) or an optional video link (``media_url``: YouTube, Vimeo or Hudl),
    and a milestone flag."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="updates")
    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="player_updates")
    title = models.CharField(max_length=200)
    content = models.TextField(blank=True, default="")
    media_url = models.CharField(max_length=500, blank=True, default="")
    image_key = models.CharField(max_length=200, blank=True, default="")
    image_type = models.CharField(max_length=32, blank=True, default="")
    milestone = models.BooleanField(default=False)
    status = models.CharField(
        max_length=16, choices=UpdateStatus.choices, default=UpdateStatus.PUBLISHED
    )
    decided_by = models.ForeignKey(
        USER,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player_updates_decided",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    decision_reason = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [choices_check("status", UpdateStatus, "player_update_status_valid")]
        indexes = [
            models.Index(fields=["player", "status", "created_at"], name="player_update_timeline"),
            models.Index(fields=["status", "created_at"], name="player_update_queue"),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def has_media(self) -> bool:
        return bool(self.image_key or self.media_url)
