"""Send events: encode each one's data once, then number, log and deliver it per group.

:func:`realtime.publish.publish` calls :func:`broadcast` after the transaction commits (tests
of the publishing services replace it to record what was published). ``broadcast`` hands the
event to this process's publisher thread, which sends everything queued so far in one Redis
round trip: the events of one commit (a vote's activity, count, profile and notification)
reach each hub together, and each socket gets them in one write. The request thread does not
wait for Redis either. The merger's thread (realtime/merge.py) sends its merged events itself
(:func:`broadcast_now`): a hand-over would make them wait for the interpreter once more.
"""

from __future__ import annotations

import atexit
import logging
import queue
import threading

from realtime import metrics
from realtime.backend import Guard, Outbound, get_backend
from realtime.events import Event

logger = logging.getLogger(__name__)

MAX_QUEUED = 10_000


def broadcast(event: Event) -> None:
    get_publisher().put(event)


def broadcast_now(*events: Event) -> None:
    """Send ``events`` from the calling thread, in one round trip, not through the publisher:
    for a thread of the live layer that would otherwise hand them over and wait again for the
    interpreter (the merger, realtime/merge.py)."""
    send(*events)


def send(*events: Event, guarded_at: float | None = None) -> None:
    """Send ``events`` now, together. With ``guarded_at`` (the time their data were read),
    each is sent only if its data differ from the last sent of its type and group and are not
    older."""
    outbound = []
    for event in events:
        envelope = event.envelope()
        guard = None if guarded_at is None else Guard.of(event.type, envelope.tail, guarded_at)
        outbound.append(Outbound(event.groups(), envelope, guard))
    try:
        get_backend().publish(outbound)
    except Exception:
        # A live push must never fail the write that caused it: clients resync on reconnect.
        logger.exception("Could not publish %s", ", ".join(event.type for event in events))
        return
    for event in events:
        metrics.EVENTS_PUBLISHED.labels(event.type).inc()


class Publisher:
    """One thread per process sending queued events in order, a batch per round trip."""

    def __init__(self) -> None:
        self.queue: queue.SimpleQueue[Event] = queue.SimpleQueue()
        self.pending = 0
        self.idle = threading.Condition()
        self.thread: threading.Thread | None = None

    def put(self, event: Event) -> None:
        with self.idle:
            if self.pending >= MAX_QUEUED:
                # Redis has been failing for a while: the hubs have closed their sockets
                # (4001), which refetch on reconnect. Keep memory bounded.
                logger.warning("Live events backed up: dropping %s", event.type)
                return
            self.pending += 1
            if self.thread is None:
                self.thread = threading.Thread(
                    target=self._run, name="realtime-publisher", daemon=True
                )
                self.thread.start()
        self.queue.put(event)

    def _run(self) -> None:
        while True:
            batch = [self.queue.get()]
            while len(batch) < 500:
                try:
                    batch.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            send(*batch)
            with self.idle:
                self.pending -= len(batch)
                if not self.pending:
                    self.idle.notify_all()

    def drain(self, timeout: float = 5) -> bool:
        """Wait until everything queued has been sent (tests, process exit)."""
        with self.idle:
            return self.idle.wait_for(lambda: not self.pending, timeout)


_publisher = Publisher()


def get_publisher() -> Publisher:
    return _publisher


atexit.register(_publisher.drain, 2)
