from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from project.media.services import uploads_purge


class Command(BaseCommand):
    help = (
        "Delete expired, never-confirmed avatar uploads (rows and objects), avatars of deleted "
        "accounts and stray staged objects. Safe to run often (e.g. hourly from cron)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        removed = uploads_purge()
        self.stdout.write(f"Purged {removed} upload(s).")
