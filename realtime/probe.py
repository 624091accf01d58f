"""The delivery probe: each daphne process publishes a probe every ``REALTIME_PROBE_INTERVAL``
seconds (5; 0 turns it off) through the path every event takes (the backend's publish: the
group's sequence, replay log and pub/sub channel in one Redis script) to the probe group, which
every daphne process's hub has joined with an in-process member. Each arrival observes its lag
(``realtime_probe_lag_seconds``); a process's own probe coming back sets
``realtime_probe_last_success_timestamp_seconds``: its publishing, Redis, and its subscription
all work. An alert fires when that timestamp is older than 20 s (deploy/prometheus/alerts.yml).

The probe group is no sport, user or admin group: no socket can join it, and its events are
not in the catalogue.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time

from django.conf import settings

from realtime import metrics
from realtime.backend import Outbound, get_backend
from realtime.connection import Outgoing
from realtime.events import Envelope
from realtime.hub import hub_of

logger = logging.getLogger(__name__)

GROUP = "~probe"
ENVELOPE_TYPE = json.dumps("probe")


def interval() -> float:
    return float(getattr(settings, "REALTIME_PROBE_INTERVAL", 5.0))


def publish_probe() -> None:
    """One probe, sent now through the backend (blocking: run it in a thread)."""
    data = json.dumps({"pid": os.getpid(), "sentAt": time.time()}, separators=(",", ":"))
    envelope = Envelope(type_json=ENVELOPE_TYPE, tail=f',"data":{data}}}')
    get_backend().publish([Outbound([GROUP], envelope)])


class ProbeMember:
    """The in-process subscriber of the probe group."""

    def __init__(self) -> None:
        self.joined = False

    async def deliver(self, group: str, seq: int, message: Outgoing) -> None:
        now = time.time()
        try:
            data = json.loads(message.text)["data"]
            sent_at, pid = float(data["sentAt"]), int(data["pid"])
        except (ValueError, KeyError, TypeError):
            return
        metrics.PROBE_LAG.observe(max(0.0, now - sent_at))
        if pid == os.getpid():
            metrics.PROBE_LAST_SUCCESS.set(now)

    async def command(self, name: str, argument: str) -> None:
        """The hub lost its subscription (or the live layer's data): join again next round."""
        self.joined = False


async def run(every: float) -> None:
    """Probe forever on the running event loop (one task per daphne process)."""
    hub = hub_of(get_backend())
    member = ProbeMember()
    while True:
        try:
            if not member.joined:
                await hub.leave(GROUP, member)
                await hub.join(GROUP, member)
                member.joined = True
            await asyncio.to_thread(publish_probe)
        except Exception as error:
            logger.warning("The delivery probe failed: %r", error)
        await asyncio.sleep(every)


_task: asyncio.Future[None] | None = None


def start_in_daphne() -> bool:
    """Start the probe on daphne's event loop once it runs (called while daphne loads the
    application, before its reactor starts); False outside daphne or when turned off."""
    loop = getattr(sys.modules.get("daphne.server"), "twisted_loop", None)
    every = interval()
    if loop is None or every <= 0:
        return False

    def start() -> None:
        global _task
        _task = asyncio.ensure_future(run(every))

    loop.call_soon_threadsafe(start)
    return True
