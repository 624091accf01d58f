"""What moderation announces for the apps above it to act on, and the report targets they add:

- ``register_endorsement_removed``: an endorsement a moderator removed on reports
  (project/coaches tells the player's open pages);
- ``register_report_target``: POST /api/reports with an app's id is handed to the app that owns
  the reported thing (comments: ``commentId``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

EndorsementRemoved = Callable[[int], None]
# (reporter, target id, reason, text) -> the stored report (with id, reason, created_at).
ReportTarget = Callable[..., Any]

_endorsement_removed: list[EndorsementRemoved] = []
_TARGETS: dict[str, ReportTarget] = {}


def register_endorsement_removed(callback: EndorsementRemoved) -> None:
    """``callback(player_id)`` runs in the transaction that removed one of its endorsements."""
    if callback not in _endorsement_removed:
        _endorsement_removed.append(callback)


def endorsement_removed(player_id: int) -> None:
    for callback in _endorsement_removed:
        callback(player_id)


def register_report_target(name: str, create: ReportTarget) -> None:
    """``create(reporter=..., target_id=..., reason=..., text=...)`` stores a report of a
    ``name`` (called from its app's ``ready()``)."""
    _TARGETS[name] = create


def report_target(name: str) -> ReportTarget:
    return _TARGETS[name]
