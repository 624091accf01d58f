"""``vote.changed``, merged per sport window.

A match-day crowd votes hundreds of times a second; one event per vote to every watching
socket would be more frames than the machine can write. So, per sport, a process hands the
count of the first vote of a window to the publisher at once (the leading edge) and keeps
the counts that arrive during the window, the latest per nomination (by ``version``); when
the window ends it sends them all as ONE ``vote.changed`` (one frame, one ``seq``): the
trailing edge, so the last count of a burst is never lost. The window
(``REALTIME_VOTE_WINDOW``, 0.1 s) is taken in the backend (``SET NX PX`` in Redis), shared by
every process: a sport group gets at most one ``vote.changed`` per window from all of them.

Data: ``{"votes": [{"nominationId": 7, "voteCount": 12, "version": 31}, ...]}``.
"""

from __future__ import annotations

import atexit
import logging
import threading
import time

from django.conf import settings

from realtime import broadcast
from realtime.backend import get_backend
from realtime.events import Event

logger = logging.getLogger(__name__)

# nomination id -> (vote count, version)
Counts = dict[int, tuple[int, int]]


def vote_changed(sport: str, counts: Counts) -> Event:
    votes = [
        {"nominationId": nomination_id, "voteCount": count, "version": version}
        for nomination_id, (count, version) in counts.items()
    ]
    return Event("vote.changed", {"votes": votes}, sport=sport)


class VoteMerger:
    """One thread per process sending each sport's merged counts once its window allows."""

    def __init__(self, window: float) -> None:
        self.window = window
        self.pending: dict[str, Counts] = {}
        self.due: dict[str, float] = {}
        self.sending = 0
        self.condition = threading.Condition()
        self.stopped = False
        self.thread: threading.Thread | None = None

    def add(self, sport: str, nomination_id: int, vote_count: int, version: int) -> None:
        with self.condition:
            counts = self.pending.setdefault(sport, {})
            held = counts.get(nomination_id)
            # Transactions commit in one order and may reach here in another: keep the newest.
            if held is None or version > held[1]:
                counts[nomination_id] = (vote_count, version)
            self.due.setdefault(sport, time.monotonic())
            if self.thread is None:
                self.thread = threading.Thread(target=self._run, name="realtime-votes", daemon=True)
                self.thread.start()
            self.condition.notify_all()

    def _run(self) -> None:
        while True:
            with self.condition:
                sports = self._next_due()
                if sports is None:
                    return
                self.sending += 1
            try:
                for sport in sports:
                    self._attempt(sport)
            finally:
                with self.condition:
                    self.sending -= 1
                    self.condition.notify_all()

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
            wait = get_backend().acquire_window(f"votes:{sport}", self.window)
        except Exception:
            # Without the shared window, send rather than hold counts back: the publisher
            # logs if the backend is down too, and clients resync when it returns.
            logger.exception("Could not take the vote window of %s", sport)
            wait = 0
        with self.condition:
            if wait:
                self.due[sport] = time.monotonic() + wait
                return
            counts = self.pending.pop(sport, None)
        if counts:
            broadcast.broadcast(vote_changed(sport, counts))

    def flush(self) -> None:
        """Hand everything held to the publisher now, windows or not (process exit)."""
        with self.condition:
            pending, self.pending = self.pending, {}
            self.due.clear()
        for sport, counts in pending.items():
            broadcast.broadcast(vote_changed(sport, counts))

    def drain(self, timeout: float = 5) -> bool:
        """Wait until every count held has been handed to the publisher (tests)."""
        with self.condition:
            return self.condition.wait_for(lambda: not self.pending and not self.sending, timeout)

    def stop(self) -> None:
        with self.condition:
            self.stopped = True
            self.condition.notify_all()


_merger: VoteMerger | None = None
_merger_lock = threading.Lock()


def get_merger() -> VoteMerger:
    global _merger
    with _merger_lock:
        if _merger is None:
            _merger = VoteMerger(settings.REALTIME_VOTE_WINDOW)
        return _merger


def reset_merger() -> None:
    """Drop the process's merger (tests changing the window); what it held is sent first."""
    global _merger
    with _merger_lock:
        merger, _merger = _merger, None
    if merger is not None:
        merger.stop()
        merger.flush()


def _flush_at_exit() -> None:
    with _merger_lock:
        merger = _merger
    if merger is not None:
        merger.flush()


atexit.register(_flush_at_exit)
