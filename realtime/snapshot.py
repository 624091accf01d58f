"""The ``snapshot`` a socket gets for a sport after ``subscribe`` or ``resync``: the current
boards and stats, so a screen is right without a REST call.

A reconnect storm (every process restarted, a thousand sockets back within seconds) must not
become a thousand board reads. Per event loop (per server process), a sport's snapshot is
computed by one read at a time, and a read started when the group stood at seq ``s`` serves
every socket whose cursor is at most ``s`` (its data are at least that new): sockets arriving
together share one read, and later ones the next. A read is kept only briefly
(``MAX_AGE``): what the boards show also changes without an event in the group (a database
restored or cleared under a running server), and a storm is over in seconds anyway.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from asgiref.sync import sync_to_async

from realtime.events import sport_group
from realtime.summary_source import compute_summaries

Snapshot = dict[str, Any]

MAX_AGE = 2.0  # seconds a computed snapshot serves later sockets


def compute(sport: str) -> Snapshot:
    """The sport's boards (by kind) and stats, as ``leaderboard.changed`` and
    ``stats.changed`` carry them: the summaries' own computation."""
    snapshot: Snapshot = {"leaderboards": {}, "stats": None}
    for _, event in compute_summaries(sport).events:
        if event.type == "stats.changed":
            snapshot["stats"] = event.data
        else:
            snapshot["leaderboards"][event.data["board"]] = event.data
    return snapshot


class Read:
    """A read under way: the position it covers (known once read) and its result."""

    def __init__(self) -> None:
        loop = asyncio.get_running_loop()
        self.position: int | None = None
        self.located = asyncio.Event()
        self.result: asyncio.Future[Snapshot] = loop.create_future()


class Snapshots:
    def __init__(self, position: Any) -> None:
        self.position = position  # async (group) -> the group's current seq
        self.cached: dict[str, tuple[int, float, Snapshot]] = {}
        self.running: dict[str, Read] = {}
        self.reads = 0  # database reads made (tests, benches)

    async def get(self, sport: str, seq: int) -> Snapshot:
        """The sport's snapshot, at least as new as the group's ``seq``."""
        while True:
            cached = self.cached.get(sport)
            if cached is not None and cached[0] >= seq and time.monotonic() - cached[1] < MAX_AGE:
                return cached[2]
            read = self.running.get(sport)
            if read is None:
                return await self._read(sport, seq)
            await read.located.wait()
            if read.position is not None and read.position >= seq:
                return await asyncio.shield(read.result)
            # A read of an older position is under way: wait for it, then read anew (once for
            # everyone waiting).
            await asyncio.wait([read.result])

    async def _read(self, sport: str, seq: int) -> Snapshot:
        read = self.running[sport] = Read()
        try:
            try:
                read.position = max(seq, await self.position(sport_group(sport)))
            finally:
                read.located.set()
            self.reads += 1
            data = await sync_to_async(compute, thread_sensitive=False)(sport)
        except BaseException as error:
            read.result.set_exception(error)
            read.result.exception()  # retrieved here; waiters get it too
            raise
        finally:
            if self.running.get(sport) is read:
                del self.running[sport]
        position = read.position
        assert position is not None
        cached = self.cached.get(sport)
        if cached is None or cached[0] <= position:
            self.cached[sport] = (position, time.monotonic(), data)
        read.result.set_result(data)
        return data
