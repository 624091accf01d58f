"""Where the live layer's summaries (boards and stats of a sport) come from.

The domain registers its source when it starts (``ScoutingConfig.ready()``), so the live
layer, which computes and pushes them, imports no domain app. A test can name a source of its
own in ``settings.REALTIME_SUMMARIES``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from django.conf import settings
from django.db import connections
from django.utils.module_loading import import_string

from realtime.event_payloads import validate_payload, validation_enabled
from realtime.events import Event


class SportSummariesData(Protocol):
    @property
    def boards(self) -> Mapping[Any, dict[str, Any]]:  # board kind -> leaderboard.changed data
        ...

    @property
    def stats(self) -> dict[str, int]: ...

    @property
    def refresh_at(self) -> datetime:  # when the boards next change by time alone
        ...


class SummarySource(Protocol):
    def sport_summaries(self, sport: str) -> SportSummariesData: ...

    def sports(self) -> Sequence[str]: ...

    def next_week_start(self) -> datetime: ...


_registered: SummarySource | None = None


def register_summary_source(source: SummarySource) -> None:
    global _registered
    _registered = source


def summary_source() -> SummarySource:
    named = getattr(settings, "REALTIME_SUMMARIES", "")
    if named:
        source: SummarySource = import_string(named)
        return source
    if _registered is None:
        raise RuntimeError("No summary source registered (the scouting app registers it)")
    return _registered


@dataclass(frozen=True)
class Summaries:
    """A sport's summary events, each with its coalescing slot (one per board), and when they
    next change by time alone (Unix seconds)."""

    events: list[tuple[str, Event]]
    refresh_at: float


def compute_summaries(sport: str) -> Summaries:
    """The events that tell ``sport``'s boards and stats as they are now (a subscribe
    snapshot reuses this). Raises when they cannot be read."""
    try:
        data = summary_source().sport_summaries(sport)
    finally:
        # This thread is not a request: hand its connection back (to the pool) right away.
        connections.close_all()
    events = [
        (f"leaderboard.changed:{kind}", Event("leaderboard.changed", board, sport=sport))
        for kind, board in data.boards.items()
    ]
    events.append(("stats.changed", Event("stats.changed", data.stats, sport=sport)))
    if validation_enabled():  # DEBUG and the tests: the source's shapes are the models'
        for _, event in events:
            validate_payload(event.type, event.data)
    return Summaries(events=events, refresh_at=data.refresh_at.timestamp())
