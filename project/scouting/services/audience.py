"""Who hears of a nomination: the one rule every publisher of a nomination event follows."""

from __future__ import annotations

from typing import Any

from project.scouting.models import LIVE_STATUSES, Nomination
from realtime.publish import Event


def nomination_event(
    event_type: str,
    nomination: Nomination,
    data: dict[str, Any],
    *,
    live: bool | None = None,
    nominator: bool = False,
) -> Event:
    """``event_type`` about ``nomination`` with its audience. A live (pending or approved)
    nomination's event goes to its sport; any other's only to its nominator, because the
    community no longer sees it; admins hear of every one. ``live`` overrides the status
    read from the row (an event about a change of status speaks of the status it left), and
    ``nominator`` also tells the nominator of a live one (whose My Nominations shows it
    whatever sport they watch)."""
    if live is None:
        live = nomination.status in LIVE_STATUSES
    return Event(
        event_type,
        data,
        sport=nomination.sport if live else None,
        user_ids=(nomination.nominated_by_id,) if nominator or not live else (),
        admins=True,
    )
