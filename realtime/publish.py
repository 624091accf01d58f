"""The one door from domain code to the live layer.

Services call these inside their transaction; the work happens only once the transaction
commits, so nothing is pushed for a write that rolled back.
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction

from realtime import broadcast
from realtime.control import close_user_sockets_now
from realtime.event_payloads import register_payloads, validate_payload, validation_enabled
from realtime.events import Event
from realtime.merge import get_merger
from realtime.summaries import get_scheduler

__all__ = [
    "Event",
    "close_user_sockets",
    "publish",
    "publish_activity",
    "publish_summaries",
    "publish_vote_count",
    "register_payloads",
]

logger = logging.getLogger(__name__)


def publish(event: Event) -> None:
    """Push ``event`` to its groups after commit, numbered per group and kept for replay.

    In DEBUG and the tests its data are checked against the type's model first
    (``realtime/event_payloads.py``): a payload that drifted from it raises here."""
    if validation_enabled():
        validate_payload(event.type, event.data)
    transaction.on_commit(lambda: broadcast.broadcast(event))


def publish_activity(*, sport: str, data: dict[str, Any]) -> None:
    """Push an activity of ``sport`` to its feeds after commit: ``activity.created`` at once
    for the first of the sport's window, the rest of the window as one ``activity.batch``
    (``realtime/merge.py``: a crowd's votes make one activity frame per window, not per vote)."""
    if validation_enabled():
        validate_payload("activity.created", data)
    transaction.on_commit(lambda: get_merger().add_activity(sport, data))


def publish_vote_count(*, sport: str, nomination_id: int, vote_count: int, version: int) -> None:
    """Say, after commit, that a nomination of ``sport`` now has ``vote_count`` votes at
    ``version``. The sport gets a ``vote.changed`` at once for the first count of a window
    and one merged ``vote.changed`` for the rest of it (``realtime/merge.py``)."""
    transaction.on_commit(lambda: get_merger().add(sport, nomination_id, vote_count, version))


def publish_summaries(sport: str) -> None:
    """Say that the leaderboards or stats of ``sport`` may have changed.

    After commit the live layer recomputes them (project.scouting.selectors) and pushes
    ``leaderboard.changed`` / ``stats.changed`` when they differ from what it last pushed: at
    most once per ``REALTIME_SUMMARY_INTERVAL`` per sport across all processes (per
    ``REALTIME_SUMMARY_SUSTAINED_INTERVAL`` while the hints keep coming), and always
    once more after the last hint of a burst.
    """
    transaction.on_commit(lambda: get_scheduler().request(sport))


def close_user_sockets(user_id: int, *, reason: str, keep_session: str | None = None) -> None:
    """Close every socket of a user, in every process, after commit (logout, password change,
    account deletion, role change). The client reconnects: with its session gone it is then
    refused (4401); otherwise it comes back with its current rights.

    ``keep_session`` spares the sockets opened with that session key: the tab that changed
    the password keeps its socket (its own session lives on under a new key, which its
    browser only learns from the answer still on its way).

    The command travels on the channel layer to the user's group (realtime/control.py); a
    layer that cannot take it is logged, never fails the write."""

    def close() -> None:
        try:
            close_user_sockets_now(user_id, reason=reason, keep_session=keep_session)
        except Exception:
            logger.exception("Could not close the sockets of user %s", user_id)

    transaction.on_commit(close)
