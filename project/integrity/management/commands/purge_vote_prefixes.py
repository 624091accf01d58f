"""Clear the IP-cluster id of votes older than VOTE_PREFIX_RETENTION_DAYS (run it daily)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from project.integrity.services.retention import vote_prefixes_purge


class Command(BaseCommand):
    help = "Clear the IP-cluster id (prefix hash) of votes past the retention period."

    def handle(self, *args: Any, **options: Any) -> None:
        cleared = vote_prefixes_purge()
        self.stdout.write(f"Cleared the cluster id of {cleared} votes.")
