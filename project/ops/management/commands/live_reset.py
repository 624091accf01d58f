from __future__ import annotations

from typing import Any

import redis
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = (
        "Forget the live layer's data in Redis (sequence numbers, replay logs, presence): every "
        "open tab then refetches what it shows, as after a Redis restart. Run it after "
        "restoring the database from a backup, so no screen keeps counts the restore took back."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.REDIS_URL:
            self.stdout.write("No REDIS_URL: the live layer lives in each process's memory.")
            return
        client = redis.Redis.from_url(settings.REDIS_URL)
        try:
            forgotten = 0
            for key in client.scan_iter(f"{settings.REALTIME_PREFIX}:*", count=1_000):
                forgotten += client.delete(key)
        finally:
            client.close()
        self.stdout.write(f"Forgot {forgotten} keys of the live layer; every tab refetches.")
