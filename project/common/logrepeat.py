"""Repeated log records, counted instead of written: during an outage (Redis, PostgreSQL) every
request, socket and tick logs the same failure, and the log itself becomes the load.

``RepeatFilter`` sits on the log handlers (LOGGING in project/settings/operations.py): the
first record of a kind (its logger, level and message template) is written; the same kind
again within ``LOG_REPEAT_INTERVAL`` seconds is counted, not written; the first one after the
interval is written with a summary of how many were left out ("repeated N times in the last
S s"), and opens the next interval. 0 writes every record."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

# Kinds remembered at once; past this the oldest intervals are forgotten.
MAX_KINDS = 1024


class RepeatFilter(logging.Filter):
    def __init__(self, interval: float | str = 10.0, clock: Any = time.monotonic) -> None:
        super().__init__()
        self.interval = float(interval)
        self.clock = clock
        self._lock = threading.Lock()
        # kind -> (when its interval began, records left out since)
        self._seen: dict[tuple[str, int, Any], tuple[float, int]] = {}

    def reset(self) -> None:
        """Forget every interval: the next record of each kind is written."""
        with self._lock:
            self._seen.clear()

    def filter(self, record: logging.LogRecord) -> bool:
        if self.interval <= 0:
            return True
        kind = (record.name, record.levelno, record.msg)
        now = self.clock()
        with self._lock:
            seen = self._seen.get(kind)
            if seen is not None and now - seen[0] < self.interval:
                self._seen[kind] = (seen[0], seen[1] + 1)
                return False
            self._seen.pop(kind, None)
            self._seen[kind] = (now, 0)
            while len(self._seen) > MAX_KINDS:
                del self._seen[next(iter(self._seen))]
        if seen is not None and seen[1]:
            record.msg = (
                f"{record.msg} [repeated {seen[1]} times in the last {now - seen[0]:.0f} s]"
            )
        return True
