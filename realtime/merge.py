"""``vote.changed`` and the feed's activity, merged per sport window.

A match-day crowd votes hundreds of times a second; one event per vote to every watching
socket would be more frames than the machine can write. So, per sport, a process hands the
count of the first vote of a window to the live layer at once (the leading edge) and keeps
the counts that arrive during the window, the latest per nomination (by ``version``); when
the window ends it sends them all as ONE ``vote.changed`` (one frame, one ``seq``): the
trailing edge, so the last count of a burst is never lost. The window
(``REALTIME_VOTE_WINDOW``, 0.15 s) and the counts held during it are the backend's
(``Backend.merge``: one Redis script), shared by every process: a sport group gets at most one
``vote.changed`` per window from all of them, and whichever process tries first once a window
ends sends what every process held (a process waiting for a window of its own would hold its
counts while the others take turns; docs/decisions.md#merge-windows-in-redis).

Data: ``{"votes": [{"nominationId": 7, "voteCount": 12, "version": 31}, ...]}``.

Each vote also makes an activity (the feed's "voted for ..."), and one frame per vote per socket
for it would be the largest stream a vote makes. The sport's activity is merged the same
way in a window of its own (so an activity never holds a vote count back): the first activity
of a window goes ``REALTIME_ACTIVITY_DELAY`` (0.05 s) after it came, as ``activity.created`` (or
``activity.batch`` with those that came in that delay), so the vote's own count reaches the
screens first (the activity's frames, written in the same turn of the event loop, would hold
the count back); those that arrive during the window go
when it ends as ONE ``activity.batch`` (``{"items": [...]}``, oldest first), or as
``activity.created`` when it holds one. The activity's window (``REALTIME_ACTIVITY_WINDOW``,
0.5 s) is longer than the counts': the feeds move twice a second under a crowd, while the count
keeps its 0.15 s. So a sport group gets at most one vote frame per vote window and one activity
frame per activity window, whatever the crowd, and replay and resume carry them as any event.
"""

from __future__ import annotations

import atexit
import json
import logging
import math
import threading
import time
from typing import Any

from django.conf import settings

from realtime import broadcast, metrics
from realtime.backend import get_backend
from realtime.events import Event

logger = logging.getLogger(__name__)

# nomination id -> (vote count, version)
Counts = dict[int, tuple[int, int]]


def merged_event(kind: str, sport: str, items: list[dict[str, Any]]) -> Event:
    """One window's event: ``vote.changed`` with its counts, or its activity
    (``activity.created`` when it holds one, else ``activity.batch``, oldest first)."""
    if kind == "votes":
        return Event("vote.changed", {"votes": items}, sport=sport)
    if len(items) == 1:
        return Event("activity.created", items[0], sport=sport)
    return Event("activity.batch", {"items": items}, sport=sport)


def key_name(key: tuple[str, str]) -> str:
    """The backend's name of a merge (``votes:soccer``, ``activity:soccer``)."""
    return ":".join(key)


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, default=str)


class VoteMerger:
    """One thread per process sending each sport's merged counts, and its merged activity,
    once their window allows (each has its own window: an activity never holds a count back)."""

    def __init__(
        self, window: float, activity_delay: float = 0.0, activity_window: float | None = None
    ) -> None:
        self.window = window
        self.activity_delay = activity_delay
        self.activity_window = window if activity_window is None else activity_window
        self.pending: dict[str, Counts] = {}
        self.activities: dict[str, list[dict[str, Any]]] = {}
        # (kind, sport) -> when to try sending it; kind is "votes" or "activity".
        self.due: dict[tuple[str, str], float] = {}
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
            self._wake(("votes", sport))

    def add_activity(self, sport: str, data: dict[str, Any]) -> None:
        """An activity of ``sport`` for the feeds: sent ``activity_delay`` after it came when
        it opens a window, else with the rest of its window (in the order they came)."""
        with self.condition:
            self.activities.setdefault(sport, []).append(data)
            self._wake(("activity", sport), self.activity_delay)

    def _wake(self, key: tuple[str, str], delay: float = 0.0) -> None:
        # Sooner than a try already due at the window's end: what this process holds must be
        # in the backend by then, or the process that sends then leaves it for a window more.
        at = time.monotonic() + delay
        if at < self.due.get(key, math.inf):
            self.due[key] = at
        if self.thread is None:
            self.thread = threading.Thread(target=self._run, name="realtime-votes", daemon=True)
            self.thread.start()
        self.condition.notify_all()

    def _run(self) -> None:
        while True:
            with self.condition:
                keys = self._next_due()
                if keys is None:
                    return
                self.sending += 1
            try:
                self._attempt(keys)
            except Exception:
                # What it held is lost (clients resync on their next gap or reconnect); the
                # thread lives on for every later count and activity.
                logger.exception("Could not send the merged %s", ", ".join(map(key_name, keys)))
            finally:
                with self.condition:
                    self.sending -= 1
                    self.condition.notify_all()

    def _next_due(self) -> list[tuple[str, str]] | None:
        while not self.stopped:
            now = time.monotonic()
            ready = [key for key, at in self.due.items() if at <= now]
            if ready:
                for key in ready:
                    del self.due[key]
                return ready
            self.condition.wait(min(self.due.values()) - now if self.due else None)
        return None

    def _take(self, kind: str, sport: str) -> list[tuple[int, int, dict[str, Any]]]:
        """What this process holds of a merge, taken out (under the condition): (key, order,
        data) per count (by nomination, newest version) or activity (by id)."""
        if kind == "votes":
            counts = self.pending.pop(sport, {})
            return [
                (
                    nomination_id,
                    version,
                    {"nominationId": nomination_id, "voteCount": count, "version": version},
                )
                for nomination_id, (count, version) in counts.items()
            ]
        items = self.activities.pop(sport, [])
        return [(int(item["id"]), int(item["id"]), item) for item in items]

    def _attempt(self, keys: list[tuple[str, str]]) -> None:
        """Merge what this process holds of every merge due, and send the events whose window
        allows, in two round trips for all of them, from this thread: each further round trip
        or hand-over to another thread waits for the interpreter while the request threads
        hold it, and under a crowd that wait is longer than the window
        (docs/decisions.md#merger-round-trips)."""
        merges = []
        for key in keys:
            try:
                with self.condition:
                    held = self._take(*key)
                entries = [(entry, order, _json(data)) for entry, order, data in held]
            except Exception:
                # What it held is lost (clients resync on their next gap or reconnect); the
                # thread lives on for every later count and activity.
                logger.exception("Could not send the merged %s of %s", *key)
                continue
            merges.append((key, held, entries))
        if not merges:
            return
        try:
            answers = get_backend().merge_many(
                [(key_name(key), self._window(key[0]), entries) for key, _, entries in merges]
            )
            results = [([json.loads(text) for text in texts], wait) for texts, wait in answers]
        except Exception:
            # Without the shared merge, send what this process held rather than hold it back:
            # the publisher logs if the backend is down too, and clients resync when it
            # returns.
            logger.exception("Could not merge the %s", ", ".join(key_name(m[0]) for m in merges))
            results = [([data for _, _, data in held], 0.0) for _, held, _ in merges]
        events = []
        for (key, _, _), (items, wait) in zip(merges, results, strict=True):
            if wait:
                with self.condition:
                    # Held in the backend: sent by whichever process tries first once the
                    # window ends (this one, unless another came before).
                    self.due[key] = min(self.due.get(key, math.inf), time.monotonic() + wait)
                    self.condition.notify_all()
            if items:
                metrics.MERGED.labels(key[0]).observe(len(items))
                events.append(merged_event(key[0], key[1], items))
        if events:
            broadcast.broadcast_now(*events)

    def _window(self, kind: str) -> float:
        return self.window if kind == "votes" else self.activity_window

    def flush(self) -> None:
        """Hand everything held to the publisher now, windows or not (process exit)."""
        with self.condition:
            keys = [("votes", sport) for sport in self.pending]
            keys += [("activity", sport) for sport in self.activities]
            held = {(kind, sport): self._take(kind, sport) for kind, sport in keys}
            self.due.clear()
        for (kind, sport), entries in held.items():
            if entries:
                broadcast.broadcast(merged_event(kind, sport, [data for _, _, data in entries]))

    def drain(self, timeout: float = 5) -> bool:
        """Wait until every count and activity held has been handed to the publisher (tests)."""
        with self.condition:
            return self.condition.wait_for(
                lambda: not (self.pending or self.activities or self.due or self.sending), timeout
            )

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
            _merger = VoteMerger(
                settings.REALTIME_VOTE_WINDOW,
                settings.REALTIME_ACTIVITY_DELAY,
                settings.REALTIME_ACTIVITY_WINDOW,
            )
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
