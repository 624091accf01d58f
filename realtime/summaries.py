"""Leaderboard and stats events, coalesced, retried and kept current as time passes.

A burst of votes must not become a storm of leaderboard recomputations and pushes. Services
only hint (:func:`realtime.publish.publish_summaries`); a per-process worker thread then,
per sport:

* a short delay after the first hint (``REALTIME_SUMMARY_DELAY``, 0.1 s: the vote's own
  count, activity and answer go out first, and the hints of that moment are taken together),
  takes the sport's rate window (``SET NX PX`` in Redis, shared by every process) and, if it
  got it, computes the sport's summaries and sends them (the leading edge);
* if another send holds the window, tries again when the window ends (the trailing edge), so
  the state after the last change of a burst is always pushed;
* sends an event only when its content differs from the last one sent for that group and
  board (the backend compares a digest atomically with the send, see ``Guard``);
* when the computation fails (the database is briefly away), tries again with a growing
  delay, so no screen keeps a stale board when no further change comes;
* computes the sport again when its boards change by time alone (``refresh_at``: a vote
  leaving the trending window), and every sport when the week turns over, so the weekly board
  starts again on every open screen within a second of the boundary. No cron: the same thread
  waits for those moments.

So a group gets at most one ``leaderboard.changed`` per board (``all``, ``trending``,
``weekly``, named by ``data.board``) and one ``stats.changed`` per window
(``REALTIME_SUMMARY_INTERVAL``, 0.25 s: at most 4 a second each). While the changes go on (a
window taken less than an interval after the one before ended: a crowd voting) the windows
last ``REALTIME_SUMMARY_SUSTAINED_INTERVAL`` (1 s): the boards then move once a second, and the
first change after a quiet spell still shows 0.1 s after it came. Computing and sending a
sport's summaries four times a second takes a large share of the HTTP workers' interpreter
time under a crowd (docs/decisions.md#sustained-summary-window).

What the summaries are comes from the domain, which registers its source
(:mod:`realtime.summary_source`): the live layer imports no domain app.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence

from django.conf import settings

from realtime.backend import Guard, Outbound, get_backend
from realtime.summary_source import compute_summaries, summary_source

logger = logging.getLogger(__name__)

RETRY_FIRST = 0.5  # seconds before the first retry of a failed computation, then doubled
RETRY_MAX = 10.0
WAKE_AT_LEAST_EVERY = 30.0  # wall-clock deadlines are checked again at least this often


def send_summaries(sport: str) -> float:
    """Compute ``sport``'s summaries now and send those that changed; when they next change
    by time alone (Unix seconds). Raises when they cannot be computed."""
    taken_at = time.time()
    summaries = compute_summaries(sport)
    outbound = []
    for slot, event in summaries.events:
        envelope = event.envelope()
        guard = Guard.of(slot, envelope.tail, taken_at)
        outbound.append(Outbound(event.groups(), envelope, guard))
    try:
        get_backend().publish(outbound)
    except Exception:
        # Redis away: its outage closes the sockets, which read everything again on return.
        logger.exception("Could not publish the summaries of %s", sport)
    return summaries.refresh_at


class SummaryScheduler:
    def __init__(self, interval: float, delay: float = 0.0, sustained: float | None = None) -> None:
        self.interval = interval
        # The interval while the changes go on (a window taken less than ``interval`` after
        # the one before ended): a crowd's boards move once a ``sustained`` interval, while
        # the first change after a quiet spell still goes out ``delay`` after it came.
        self.sustained = sustained
        # Computing a sport's boards holds the interpreter; started at the vote's commit, it
        # would make the vote's own fan-out and answer wait for it, so it starts ``delay``
        # later (docs/decisions.md#summary-delay).
        self.delay = delay
        self.due: dict[str, float] = {}  # sport -> monotonic time of its next computation
        self.refresh: dict[str, float] = {}  # sport -> wall time it changes by time alone
        self.failures: dict[str, int] = {}
        self.week_turn: float | None = None  # wall time of the next week's start
        self.condition = threading.Condition()
        self.stopped = False
        self.thread: threading.Thread | None = None

    def start(self) -> None:
        """Run the worker thread (a server process calls this once: the week turning over
        then reaches its screens even when no vote comes)."""
        with self.condition:
            self._start()

    def _start(self) -> None:
        if self.thread is None and not self.stopped:
            self.thread = threading.Thread(target=self._run, name="realtime-summaries", daemon=True)
            self.thread.start()

    def request(self, sport: str) -> None:
        with self.condition:
            if self.stopped:
                return
            self.due.setdefault(sport, time.monotonic() + self.delay)
            self._start()
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
                if self.stopped:
                    return
                self._attempt(sport)

    def _next_due(self) -> list[str] | None:
        while not self.stopped:
            self._take_wall_deadlines()
            now = time.monotonic()
            ready = [sport for sport, at in self.due.items() if at <= now]
            if ready:
                for sport in ready:
                    del self.due[sport]
                return ready
            self.condition.wait(self._wait(now))
        return None

    def _take_wall_deadlines(self) -> None:
        """Turn the wall-clock moments that have come into computations due now."""
        wall, now = time.time(), time.monotonic()
        if self.week_turn is None:
            self.week_turn = self._next_week_turn()
        if self.week_turn is not None and self.week_turn <= wall:
            self.week_turn = None
            for sport in self._sports():
                self.due[sport] = now
        for sport, at in list(self.refresh.items()):
            if at <= wall:
                del self.refresh[sport]
                self.due.setdefault(sport, now)

    def _wait(self, now: float) -> float:
        waits = [WAKE_AT_LEAST_EVERY, *(at - now for at in self.due.values())]
        wall = time.time()
        waits.extend(at - wall for at in self.refresh.values())
        if self.week_turn is not None:
            waits.append(self.week_turn - wall)
        return max(0.0, min(waits))

    def _next_week_turn(self) -> float | None:
        try:
            return summary_source().next_week_start().timestamp()
        except Exception:
            logger.exception("Could not tell when the week turns over")
            return None

    def _sports(self) -> Sequence[str]:
        try:
            return summary_source().sports()
        except Exception:
            logger.exception("Could not list the sports")
            return ()

    def _attempt(self, sport: str) -> None:
        try:
            wait = get_backend().acquire_window(f"summary:{sport}", self.interval, self.sustained)
        except Exception:
            logger.exception("Could not take the summary window of %s", sport)
            self._retry(sport)
            return
        if wait:
            with self.condition:
                self.due[sport] = time.monotonic() + wait
            return
        try:
            refresh_at = send_summaries(sport)
        except Exception:
            logger.exception("Could not compute the summaries of %s", sport)
            self._retry(sport)
            return
        with self.condition:
            self.failures.pop(sport, None)
            self.refresh[sport] = refresh_at

    def _retry(self, sport: str) -> None:
        with self.condition:
            failures = self.failures[sport] = self.failures.get(sport, 0) + 1
            delay = min(RETRY_FIRST * 2 ** (failures - 1), RETRY_MAX)
            at = time.monotonic() + delay
            self.due[sport] = min(self.due.get(sport, at), at)


_scheduler: SummaryScheduler | None = None
_scheduler_lock = threading.Lock()


def get_scheduler() -> SummaryScheduler:
    global _scheduler
    with _scheduler_lock:
        if _scheduler is None:
            _scheduler = SummaryScheduler(
                settings.REALTIME_SUMMARY_INTERVAL,
                settings.REALTIME_SUMMARY_DELAY,
                settings.REALTIME_SUMMARY_SUSTAINED_INTERVAL,
            )
        return _scheduler


def reset_scheduler() -> None:
    global _scheduler
    with _scheduler_lock:
        if _scheduler is not None:
            _scheduler.stop()
        _scheduler = None
