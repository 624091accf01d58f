"""Budgets: how many writes of a kind one subject (a user, a client's keyed hash) may make per
window, shared by every process through Redis when REDIS_URL is set.

Windows slide: a budget of 10 a minute allows 10 writes in any 60 seconds, and a write spent
comes back exactly one window after it was made (no cliff at the top of the minute or at
midnight). Each subject's window is a log of its writes (a Redis sorted set scored by time);
one Lua script checks every window of a budget and, only when all have room, records the
write in each, so a refused attempt spends nothing and concurrent writes cannot overshoot.

Only what is written counts: ``budget_for`` gives the write back when the code it wraps
fails (the vote was a duplicate, the nomination closed, the body was refused), and
``Spend.refund()`` gives it back when nothing was written for another reason.

While Redis cannot be reached (or without REDIS_URL) the logs live in the process: each process
then counts on its own, so a budget still holds per process and writes keep working. The
budgets in ``FAIL_CLOSED`` (accounts and takedowns, made by people without an account and
the first thing a flood would use) answer 503 instead while Redis is down. Redis keeps the
logs in memory: a Redis restart empties them, giving every subject its whole budget again.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.core.cache.backends.redis import RedisCache

from project.common import metrics
from project.common.errors import ServiceUnavailable, Throttled

logger = logging.getLogger(__name__)

WINDOW_SECONDS = {"MINUTE": 60, "HOUR": 3600, "DAY": 86400}

# Budgets that refuse writes (503) while their shared counters cannot be reached, rather than
# counting per process: made without an account (or to create one), per address.
FAIL_CLOSED = frozenset({"REGISTRATIONS", "TAKEDOWNS"})
# Seconds a client is told to wait when a fail-closed budget cannot be counted.
UNAVAILABLE_RETRY_AFTER = 30

# What a person reads in the toast, per budget kind; {wait} says when they can again.
MESSAGES = {
    "VOTES": "You are voting faster than we allow. You can vote again in {wait}.",
    "NOMINATIONS": "You have made as many nominations as we allow for now. "
    "You can nominate again in {wait}.",
    "IP_NOMINATIONS": "Too many nominations come from your network. "
    "You can nominate again in {wait}.",
    "REGISTRATIONS": "Too many accounts were created from your network. "
    "You can create one again in {wait}.",
    "FOLLOWS": "You are following faster than we allow. You can follow again in {wait}.",
    "PLAYER_EDITS": "You are editing players faster than we allow. You can edit again in {wait}.",
    "TAKEDOWNS": "Too many requests come from your network. You can send one again in {wait}.",
    "TAKEDOWN_EMAILS": "We have sent as many confirmation emails to this address as we allow "
    "in a day. You can send a request again in {wait}.",
    "TAKEDOWN_DOMAIN_CONFIRMATIONS": "Too many requests from this email domain today. "
    "Our moderators will review yours.",
    "REPORTS": "You have sent as many reports as we allow for now. You can report again in {wait}.",
    "IP_REPORTS": "Too many reports come from your network. You can report again in {wait}.",
    "COMMENTS": "You are commenting faster than we allow. You can comment again in {wait}.",
    "CLAIMS": "You have sent as many claims as we allow for now. You can claim again in {wait}.",
    "PLAYER_UPDATES": "You have posted as many updates as we allow for now. You can post again "
    "in {wait}.",
    "COACH_VERIFICATIONS": "You have asked to be verified as often as we allow for now. "
    "You can ask again in {wait}.",
    "ENDORSEMENTS": "You are endorsing faster than we allow. You can endorse again in {wait}.",
}
# A budget spent over a long window is not a matter of speed.
WINDOW_MESSAGES = {
    ("VOTES", "DAY"): "You have cast as many votes as we allow in a day. "
    "You can vote again in {wait}.",
    ("COMMENTS", "DAY"): "You have posted as many comments as we allow in a day. "
    "You can comment again in {wait}.",
}


def wait_words(seconds: int) -> str:
    """A wait in words, rounded up: "40 seconds", "3 minutes", "5 hours"."""
    if seconds < 90:
        return f"{seconds} second{'' if seconds == 1 else 's'}"
    if seconds < 5400:
        return f"{math.ceil(seconds / 60)} minutes"
    hours = math.ceil(seconds / 3600)
    return f"{hours} hour{'' if hours == 1 else 's'}"


def budget_limit(what: str, window: str) -> int:
    """The configured limit (BUDGET_<WHAT>_PER_<WINDOW>); 0 when it is off."""
    if not settings.BUDGETS_ENABLED:
        return 0
    return int(settings.BUDGETS.get(f"{what}_PER_{window}", 0))


# --- The logs' stores -----------------------------------------------------------------------

# KEYS: one log per window. ARGV: now, the write's member, then (seconds, limit) per window.
# Answers {"0", 0} after recording the write in every log, or the seconds until the log that
# frees last has room and that log's 1-based index (recording nothing).
_SPEND_SCRIPT = """
local now = tonumber(ARGV[1])
local wait, full = 0, 0
for i, key in ipairs(KEYS) do
  local window = tonumber(ARGV[1 + 2 * i])
  local limit = tonumber(ARGV[2 + 2 * i])
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  local count = redis.call('ZCARD', key)
  if count >= limit then
    local frees = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
    local until_free = tonumber(frees[2]) + window - now
    if until_free > wait then
      wait, full = until_free, i
    end
  end
end
if wait > 0 then
  return {tostring(wait), full}
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now, ARGV[2])
  redis.call('EXPIRE', key, math.ceil(tonumber(ARGV[1 + 2 * i])) + 1)
end
return {'0', 0}
"""

_clients: dict[int, Any] = {}
_scripts: dict[int, Any] = {}


def _redis_client() -> Any | None:
    """The raw redis-py client behind Django's Redis cache, None for other caches. Kept per
    cache backend: Django builds a new client object on every call, while one client shares
    the process's connection pool safely across threads."""
    backend = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(backend, RedisCache):
        return None
    client = _clients.get(id(backend._cache))
    if client is None:
        client = _clients[id(backend._cache)] = backend._cache.get_client(None, write=True)
    return client


# (key, window seconds, limit) of each window of a budget.
Logs = list[tuple[str, int, int]]


def _redis_spend(client: Any, logs: Logs, member: str, now: float) -> tuple[float, int]:
    script = _scripts.get(id(client))
    if script is None:
        script = _scripts[id(client)] = client.register_script(_SPEND_SCRIPT)
    args: list[Any] = [repr(now), member]
    for _, seconds, limit in logs:
        args += [seconds, limit]
    wait, full = script(keys=[key for key, _, _ in logs], args=args)
    return float(wait), int(full) - 1


@dataclass
class _LocalLogs:
    """The logs of one process: while Redis is down, or without Redis."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    logs: dict[str, list[tuple[float, str]]] = field(default_factory=dict)
    swept_at: float = 0.0

    def spend(self, logs: Logs, member: str, now: float) -> tuple[float, int]:
        """As the Lua script: (0, -1) after recording, else (seconds, index of the log)."""
        with self.lock:
            self._sweep(now)
            wait, full = 0.0, -1
            for index, (key, seconds, limit) in enumerate(logs):
                entries = self.logs.setdefault(key, [])
                entries[:] = [entry for entry in entries if entry[0] > now - seconds]
                if len(entries) >= limit:
                    until_free = entries[len(entries) - limit][0] + seconds - now
                    if until_free > wait:
                        wait, full = until_free, index
            if wait > 0:
                return wait, full
            for key, _, _ in logs:
                self.logs[key].append((now, member))
            return 0.0, -1

    def refund(self, keys: list[str], member: str) -> None:
        with self.lock:
            for key in keys:
                entries = self.logs.get(key, [])
                entries[:] = [entry for entry in entries if entry[1] != member]

    def _sweep(self, now: float) -> None:
        """Drop the logs whose writes all left the longest window, once a minute."""
        if now - self.swept_at < 60:
            return
        self.swept_at = now
        oldest = now - max(WINDOW_SECONDS.values())
        idle = [key for key, entries in self.logs.items() if all(t <= oldest for t, _ in entries)]
        for key in idle:
            del self.logs[key]

    def clear(self) -> None:
        with self.lock:
            self.logs.clear()


_local = _LocalLogs()
_REDIS_RETRY_SECONDS = 5.0
_redis_down_until = 0.0


def clear_local() -> None:
    """Tests: forget the per-process logs and try Redis again at once."""
    global _redis_down_until
    _local.clear()
    _redis_down_until = 0.0


# --- Spending -------------------------------------------------------------------------------


@dataclass
class Spend:
    """One write counted against a budget; ``refund()`` gives it back."""

    keys: list[str]
    member: str
    on_redis: bool

    def refund(self) -> None:
        if not self.keys:
            return
        keys, self.keys = self.keys, []
        if not self.on_redis:
            _local.refund(keys, self.member)
            return
        try:
            client = _redis_client()
            if client is not None:
                pipe = client.pipeline(transaction=False)
                for key in keys:
                    pipe.zrem(key, self.member)
                pipe.execute()
        except Exception as exc:  # the write stays counted until its window passes
            logger.warning("Budget not refunded, Redis failed: %s", exc)


def budget_spend(what: str, subject: str | int, *windows: str) -> Spend:
    """Count one write of ``what`` for ``subject`` in each window; 429 (with Retry-After and
    when, in words) when a window has no room, and then nothing is counted."""
    global _redis_down_until
    active = [(window, limit) for window in windows if (limit := budget_limit(what, window)) > 0]
    if not active:
        return Spend(keys=[], member="", on_redis=False)
    logs = [
        (
            cache.make_and_validate_key(f"budget:{what}:{window}:{subject}"),
            WINDOW_SECONDS[window],
            limit,
        )
        for window, limit in active
    ]
    member = uuid.uuid4().hex
    now = time.time()
    client = _redis_client() if time.monotonic() >= _redis_down_until else None
    on_redis = client is not None
    if on_redis:
        try:
            wait, full = _redis_spend(client, logs, member, now)
        except Exception as exc:
            _redis_down_until = time.monotonic() + _REDIS_RETRY_SECONDS
            logger.warning("Budget %s: Redis unreachable (%s)", what, exc)
            on_redis = False
    if not on_redis and _redis_client() is not None and what in FAIL_CLOSED:
        raise ServiceUnavailable(retry_after=UNAVAILABLE_RETRY_AFTER)
    if not on_redis:
        wait, full = _local.spend(logs, member, now)
    if wait > 0:
        metrics.BUDGET_REFUSALS.labels(what).inc()
        retry_after = max(1, math.ceil(wait))
        template = WINDOW_MESSAGES.get((what, active[full][0]), MESSAGES[what])
        raise Throttled(template.format(wait=wait_words(retry_after)), retry_after=retry_after)
    return Spend(keys=[key for key, _, _ in logs], member=member, on_redis=on_redis)


@contextlib.contextmanager
def budget_for(what: str, subject: str | int, *windows: str) -> Iterator[Spend]:
    """Spend one write of ``what`` around the code that makes it: the write is given back
    when that code raises (nothing was written)."""
    spend = budget_spend(what, subject, *windows)
    try:
        yield spend
    except BaseException:
        spend.refund()
        raise
