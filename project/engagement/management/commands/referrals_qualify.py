from typing import Any

from django.core.management.base import BaseCommand

from project.engagement.services.referrals import referrals_qualify


class Command(BaseCommand):
    help = (
        "Decide the waiting referrals old enough to qualify: rewarded, not rewarded (with the "
        "reason) or still waiting (daily)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        decided = referrals_qualify()
        self.stdout.write(", ".join(f"{state} {n}" for state, n in decided.items()) or "none")
