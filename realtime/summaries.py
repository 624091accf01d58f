"""Leaderboard and stats events, coalesced.

A burst of votes must not become a storm of leaderboard recomputations and pushes. Services
only hint (:func:`realtime.publish.publish_summaries`); a per-process worker thread then,
per sport:

* takes the sport's rate window (``SET NX PX`` in Redis, shared by every process) and, if it
  got it, reads the leaderboard and stats and sends them at once (the leading edge);
* if another send holds the window, tries again when the window ends (the trailing edge), so
  the state after the last change of a burst is always pushed;
* sends an event only when its content differs from the last one sent for that group (the
  backend compares a digest atomically with the send, see ``Guard``).

So a group gets at most one ``leaderboard.changed`` and one ``stats.changed`` per window
(``REALTIME_SUMMARY_INTERVAL``, 0.25 s: at most 4 a second).
"""

from __future__ import annotations

import logging
import threading
import time

from django.conf import settings
from django.db import connections

from realtime.backend import get_backend
from realtime.broadcast import send
from realtime.events import Event

logger = logging.getLogger(__name__)


def send_summaries(sport: str) -> None:
    """Read the sport's leaderboards and stats now and send what changed."""
    from project.scouting import selectors

    taken_at = time.time()
    try:
        players = selectors.leaderboard_players(sport=sport)
        scouts = selectors.leaderboard_scouts(sport=sport)
        stats = selectors.sport_stats(sport=sport)
    except Exception:
        logger.exception("Could not compute the summaries of %s", sport)
        return
    finally:
        # This thread is not a request: hand its connection back (to the pool) right away.
        connections.close_all()
    leaderboard = {"players": players, "scouts": scouts}
    send(
        Event("leaderboard.changed", leaderboard, sport=sport),
        Event("stats.changed", stats, sport=sport),
        guarded_at=taken_at,
    )


class SummaryScheduler:
    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.due: dict[str, float] = {}
        self.condition = threading.Condition()
        self.stopped = False
        self.thread: threading.Thread | None = None

    def request(self, sport: str) -> None:
        with self.condition:
            if self.stopped:
                return
            self.due.setdefault(sport, time.monotonic())
            if self.thread is None:
                self.thread = threading.Thread(
                    target=self._run, name="realtime-summaries", daemon=True
                )
                self.thread.start()
            self.condition.notify()

    def stop(self) -> None:
        with self.condition:
            self.stopped = True
            self.condition.notify()

    def _run(self) -> None:
        while True:
            with self.condition:
                sports = self._next_due()
            if sports is None:
                return
            for sport in sports:
                self._attempt(sport)

    def _next_due(self) -> list[str] | None:
        while not self.stopped:
            now = time.monotonic()
            ready = [sport for sport, at in self.due.items() if at <= now]
            if ready:
                for sport in ready:
                    del self.due[sport]
                return ready
            self.condition.wait(min(self.due.values()) - now if self.due else None)
        return None

    def _attempt(self, sport: str) -> None:
        try:
            wait = get_backend().acquire_window(f"summary:{sport}", self.interval)
        except Exception:
            logger.exception("Could not take the summary window of %s", sport)
            return
        if wait:
            with self.condition:
                self.due[sport] = time.monotonic() + wait
            return
        send_summaries(sport)


_scheduler: SummaryScheduler | None = None
_scheduler_lock = threading.Lock()


def get_scheduler() -> SummaryScheduler:
    global _scheduler
    with _scheduler_lock:
        if _scheduler is None:
            _scheduler = SummaryScheduler(settings.REALTIME_SUMMARY_INTERVAL)
        return _scheduler


def reset_scheduler() -> None:
    global _scheduler
    with _scheduler_lock:
        if _scheduler is not None:
            _scheduler.stop()
        _scheduler = None
