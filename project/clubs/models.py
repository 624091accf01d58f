from __future__ import annotations

from django.db import models

from project.common.choices import Sport, choices_check
from project.scouting.models import Club


class ClubAlias(models.Model):
    """A key that names a club without being its own: the keys of the clubs an admin merged
    into it, so a player typed as a merged name keeps (and a new one finds) the kept club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="aliases")
    sport = models.CharField(max_length=32, choices=Sport.choices)
    key = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            choices_check("sport", Sport, "club_alias_sport_valid"),
            models.UniqueConstraint(fields=["sport", "key"], name="club_alias_once"),
        ]

    def __str__(self) -> str:
        return f"{self.key} -> {self.club_id}"
