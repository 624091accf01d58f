"""What moderation announces for the apps above it to act on: an endorsement a moderator
removed on reports (project/coaches tells the player's open pages)."""

from __future__ import annotations

from collections.abc import Callable

EndorsementRemoved = Callable[[int], None]

_endorsement_removed: list[EndorsementRemoved] = []


def register_endorsement_removed(callback: EndorsementRemoved) -> None:
    """``callback(player_id)`` runs in the transaction that removed one of its endorsements."""
    if callback not in _endorsement_removed:
        _endorsement_removed.append(callback)


def endorsement_removed(player_id: int) -> None:
    for callback in _endorsement_removed:
        callback(player_id)
