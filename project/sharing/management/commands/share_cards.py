"""Render share cards: ``share_cards --nomination 12 --scout 3``, ``--all`` for every public
nomination and scout, ``--changed`` for the cards missing or showing an old count and
``--ranks`` for the cards whose rank on a board moved (the worker's periodic job, every
minute, behind the redraws that votes enqueue), ``--redraw 12`` for the redraw a change of
nomination 12 enqueued (``project/sharing/redraws.py``)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from project.common.choices import Sport
from project.sharing.selectors import cards_to_draw, public_nominations, public_scouts
from project.sharing.services import share_card_redraw, share_card_render, share_cards_rerank


class Command(BaseCommand):
    help = "Render the share cards of nominations and scouts (a card nobody may see is dropped)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--nomination", type=int, action="append", default=[])
        parser.add_argument("--scout", type=int, action="append", default=[])
        parser.add_argument("--all", action="store_true", help="Every public subject.")
        parser.add_argument(
            "--changed", action="store_true", help="Cards missing or showing an old count."
        )
        parser.add_argument("--limit", type=int, default=200, help="With --changed, per kind.")
        parser.add_argument(
            "--ranks", action="store_true", help="Cards whose rank on a board moved."
        )
        parser.add_argument(
            "--redraw", type=int, help="The redraw a change of this nomination enqueued."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["redraw"] is not None:
            looked_at = share_card_redraw(options["redraw"])
            self.stdout.write(f"{looked_at} card(s) looked at")
            return
        if options["ranks"]:
            looked_at = sum(share_cards_rerank(sport) for sport in Sport.values)
            self.stdout.write(f"{looked_at} ranked card(s) looked at")
        nominations: list[int] = list(options["nomination"])
        scouts: list[int] = list(options["scout"])
        if options["changed"]:
            changed_nominations, changed_scouts = cards_to_draw(limit=options["limit"])
            nominations += changed_nominations
            scouts += changed_scouts
        if options["all"]:
            nominations += list(public_nominations().values_list("pk", flat=True))
            scouts += list(public_scouts().values_list("pk", flat=True))
        kept = dropped = 0
        for nomination_id in nominations:
            card = share_card_render(nomination_id=nomination_id)
            kept, dropped = (kept + 1, dropped) if card else (kept, dropped + 1)
        for scout_id in scouts:
            card = share_card_render(scout_id=scout_id)
            kept, dropped = (kept + 1, dropped) if card else (kept, dropped + 1)
        self.stdout.write(f"{kept} card(s) current, {dropped} subject(s) not public")
