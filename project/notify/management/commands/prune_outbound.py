from typing import Any

from django.core.management.base import BaseCommand

from project.notify.prune import outbound_prune


class Command(BaseCommand):
    help = (
        "Delete what outbound delivery no longer needs: emails and pushes sent more than "
        "OUTBOUND_RETENTION_DAYS ago, past push windows, old notification email records (daily)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        deleted = outbound_prune()
        self.stdout.write(", ".join(f"{kind} {count}" for kind, count in deleted.items()))
