from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from project.push.vapid import new_key_pair


class Command(BaseCommand):
    help = "Print a new VAPID key pair for web push, as environment lines."

    def handle(self, *args: Any, **options: Any) -> None:
        keys = new_key_pair()
        self.stdout.write(f"VAPID_PUBLIC_KEY={keys.public_key}")
        self.stdout.write(f"VAPID_PRIVATE_KEY={keys.private_key}")
        self.stdout.write("VAPID_SUBJECT=mailto:admin@example.com")
