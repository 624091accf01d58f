from typing import Any

from django.core.management.base import BaseCommand

from project.notify.digest import digests_send


class Command(BaseCommand):
    help = "Enqueue the weekly digest of every member who has it on (once a week)."

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(f"digests {digests_send()}")
