"""The daily age transitions of claimed players (project/claims/transitions.py)."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from project.claims.transitions import age_transitions


class Command(BaseCommand):
    help = "Invite guardians to hand the controls to athletes of 16; end them at 18."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--today", type=date.fromisoformat, help="The day to run as (ISO)")

    def handle(self, *args: Any, **options: Any) -> None:
        result = age_transitions(today=options.get("today"))
        self.stdout.write(
            f"Invited {result.invited} guardians; passed {result.passed} profiles to their "
            f"athletes; ended {result.ended} guardians' controls."
        )
