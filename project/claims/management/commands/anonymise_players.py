"""Anonymise unclaimed players idle for PLAYER_RETENTION_MONTHS (project/claims/retention.py)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from project.claims.retention import players_anonymise


class Command(BaseCommand):
    help = "Anonymise unclaimed players with no vote, follow or edit for the retention period."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"Anonymised {players_anonymise()} players.")
