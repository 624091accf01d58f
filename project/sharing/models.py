from __future__ import annotations

from django.conf import settings
from django.db import models

from project.scouting.models import Nomination


class ShareCard(models.Model):
    """The rendered link-preview image (a PNG in the avatar storage) of a live nomination or a
    public scout. ``key`` holds the image's content hash, so a changed card is a new address;
    the row exists only while its subject is public."""

    nomination = models.OneToOneField(
        Nomination, null=True, blank=True, on_delete=models.CASCADE, related_name="share_card"
    )
    scout = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="share_card",
    )
    key = models.CharField(max_length=200, unique=True)
    # Hash of what the card shows: an unchanged subject is not drawn again.
    inputs = models.CharField(max_length=64)
    # The nomination's vote count or the scout's points drawn: the periodic job redraws a
    # card whose subject's count moved since.
    count = models.PositiveIntegerField(default=0)
    # Whether the card shows a rank on a board: such a card is redrawn when its sport's
    # boards move, also after it left them.
    ranked = models.BooleanField(default=False)
    width = models.PositiveSmallIntegerField()
    height = models.PositiveSmallIntegerField()
    rendered_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(nomination__isnull=False, scout__isnull=True)
                    | models.Q(nomination__isnull=True, scout__isnull=False)
                ),
                name="share_card_one_subject",
            )
        ]

    def __str__(self) -> str:
        return self.key


class CardRedraw(models.Model):
    """A nomination whose card changed (a vote) and whose redraw task is enqueued: while the
    row exists, further changes enqueue nothing; the task deletes it as it starts, so a change
    during the redraw enqueues the next one."""

    nomination = models.OneToOneField(
        Nomination, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    requested_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"redraw of nomination {self.nomination_id}"
