from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from project.scouting.boards.maths import boards_rebuild
from project.scouting.models import Nomination, NominationWeek, Vote


class Command(BaseCommand):
    help = (
        "Recompute the trending scores and weekly counters from the vote rows (run it after "
        "changing BOARD_TRENDING_HALF_LIFE or BOARD_WEEK_TIME_ZONE)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        rebuilt = boards_rebuild(
            nomination_model=Nomination, vote_model=Vote, week_model=NominationWeek
        )
        self.stdout.write(f"Rebuilt the boards of {rebuilt} nominations.")
