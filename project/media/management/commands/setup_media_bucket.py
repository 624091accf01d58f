from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from project.media.storage import S3Storage


class Command(BaseCommand):
    help = (
        "With S3_BUCKET set: create the bucket if missing and allow browsers (the app's "
        "origins) to PUT to it. Idempotent; run it before starting the web processes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--origin",
            action="append",
            dest="origins",
            help="An origin allowed to upload (repeatable); default DJANGO_CSRF_TRUSTED_ORIGINS "
            "or *.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.S3_BUCKET:
            raise CommandError("S3_BUCKET is not set: avatars are stored as local files.")
        origins = options["origins"] or settings.CSRF_TRUSTED_ORIGINS or ["*"]
        for line in S3Storage().ensure_bucket(cors_origins=origins):
            self.stdout.write(line)
