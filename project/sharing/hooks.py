"""How sharing hangs off scouting's hooks (project/scouting/hooks.py): a share card shows its
nomination's count and its player's details, so a vote and a player's change ask for its
redraw (drawn by the worker shortly after the commit)."""

from __future__ import annotations

from collections.abc import Iterable

from project.scouting.hooks import PlayerChange, Statement, VoteWrite
from project.sharing.redraws import card_redraw_request, card_redraw_statements
from project.sharing.services import share_cards_drop_for_player


def vote_card_statements(write: VoteWrite) -> Iterable[Statement]:
    """The card shows the count: its redraw asked for once per burst, in the vote's round
    trip (under the nomination's lock, so the marker's insert never waits for another
    vote's)."""
    return card_redraw_statements(write.nomination.pk, now=write.at)


def player_cards_redraw(change: PlayerChange) -> None:
    """A new nomination's card is drawn; an edited player's cards show the old details: dropped
    now, drawn again."""
    if not change.created:
        share_cards_drop_for_player(change.player_id)
    for nomination_id in change.nomination_ids:
        card_redraw_request(nomination_id)
