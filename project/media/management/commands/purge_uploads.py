from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from project.media.services import orphans_purge, uploads_purge


class Command(BaseCommand):
    help = (
        "Delete expired, never-confirmed avatar uploads (rows and objects), avatars of deleted "
        "accounts and stray staged objects. Safe to run often (e.g. hourly from cron)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--orphans",
            action="store_true",
            help="Only the uploads no account holds (replaced avatars, deleted accounts').",
        )

    def handle(self, *args: Any, orphans: bool, **options: Any) -> None:
        removed = orphans_purge() if orphans else uploads_purge()
        self.stdout.write(f"Purged {removed} upload(s).")
