from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from project.scouting.boards.maths import boards_check
from project.scouting.models import Nomination, NominationWeek, Vote


class Command(BaseCommand):
    help = (
        "Check that every nomination's vote count, counted votes, trending score and week "
        "counters equal what its vote rows make (after a restore, say); exits 1 naming each "
        "difference. `boards_rebuild` repairs the trending and weekly columns."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        problems = boards_check(
            nomination_model=Nomination, vote_model=Vote, week_model=NominationWeek
        )
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"{len(problems)} counters differ from their rows")
        self.stdout.write(
            f"Every counter equals its rows ({Nomination.objects.count()} nominations)."
        )
