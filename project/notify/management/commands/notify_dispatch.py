from typing import Any

from django.core.management.base import BaseCommand

from project.notify.services import events_dispatch


class Command(BaseCommand):
    help = "Fold the outbound events recorded so far into notification emails (every minute)."

    def handle(self, *args: Any, **options: Any) -> None:
        result = events_dispatch()
        self.stdout.write(
            f"emails {result.emails}, waiting {result.waiting}, "
            f"turned off {result.turned_off}, capped {result.capped}"
        )
