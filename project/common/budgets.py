"""Budgets: how many writes of a kind one subject (a user, an address's keyed hash) may make
per window, shared by every process through the cache (Redis when REDIS_URL is set).

``budget_spend("VOTES", subject, "MINUTE", "DAY")`` counts one write in each window's counter
(fixed windows: the minute, hour or day it falls in) and raises ``Throttled`` (429 with
Retry-After, the seconds until the exhausted window ends) when any counter passes its limit.
On Redis all windows cost ONE round trip (a pipeline of INCR and EXPIRE per window). When the
cache cannot be reached the write is let through: a budget must not take writes down with it.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, cache, caches
from django.core.cache.backends.redis import RedisCache

from project.common import metrics
from project.common.errors import Throttled

logger = logging.getLogger(__name__)

WINDOW_SECONDS = {"MINUTE": 60, "HOUR": 3600, "DAY": 86400}

# What a person reads in the toast, per budget kind.
MESSAGES = {
    "VOTES": "You are voting faster than we allow. Please wait {wait} and try again.",
    "NOMINATIONS": "You have made as many nominations as we allow for now. "
    "Please wait {wait} and try again.",
    "IP_NOMINATIONS": "Too many nominations come from your network. "
    "Please wait {wait} and try again.",
    "REGISTRATIONS": "Too many accounts were created from your network. "
    "Please wait {wait} and try again.",
    "FOLLOWS": "You are following faster than we allow. Please wait {wait} and try again.",
    "PLAYER_EDITS": "You are editing players faster than we allow. "
    "Please wait {wait} and try again.",
    "TAKEDOWNS": "Too many requests come from your network. Please wait {wait} and try again.",
}


def _wait_words(seconds: int) -> str:
    if seconds < 90:
        return f"{seconds} second{'' if seconds == 1 else 's'}"
    if seconds < 5400:
        minutes = round(seconds / 60)
        return f"{minutes} minutes"
    hours = round(seconds / 3600)
    return f"{hours} hour{'' if hours == 1 else 's'}"


def budget_limit(what: str, window: str) -> int:
    """The configured limit (BUDGET_<WHAT>_PER_<WINDOW>); 0 when it is off."""
    if not settings.BUDGETS_ENABLED:
        return 0
    return int(settings.BUDGETS.get(f"{what}_PER_{window}", 0))


_clients: dict[int, Any] = {}


def _redis_client(key: str) -> Any | None:
    """The raw redis-py client behind Django's Redis cache, None for other caches. Kept per
    cache backend: Django builds a new client object on every call, while
    one client shares the process's connection pool safely across threads."""
    backend = caches[DEFAULT_CACHE_ALIAS]
    if not isinstance(backend, RedisCache):
        return None
    client = _clients.get(id(backend._cache))
    if client is None:
        client = _clients[id(backend._cache)] = backend._cache.get_client(key, write=True)
    return client


def _count(counters: list[tuple[str, int]]) -> list[int]:
    """Add one to each (key, seconds to live) counter; their new values."""
    keys = [(cache.make_and_validate_key(key), ttl) for key, ttl in counters]
    client = _redis_client(keys[0][0])
    if client is None:
        values = []
        for key, ttl in counters:
            cache.add(key, 0, timeout=ttl)
            try:
                values.append(int(cache.incr(key)))
            except ValueError:  # expired between add() and incr()
                cache.set(key, 1, timeout=ttl)
                values.append(1)
        return values
    pipe = client.pipeline(transaction=False)
    for key, ttl in keys:
        pipe.incr(key)
        pipe.expire(key, ttl)
    results = pipe.execute()
    return [int(value) for value in results[::2]]


def budget_spend(what: str, subject: str | int, *windows: str) -> None:
    """Spend one unit of ``what`` for ``subject`` in each window; 429 when one is exhausted."""
    now = time.time()
    active = [(window, limit) for window in windows if (limit := budget_limit(what, window)) > 0]
    if not active:
        return
    counters = []
    for window, _ in active:
        seconds = WINDOW_SECONDS[window]
        bucket = int(now // seconds)
        ttl = int(seconds - now % seconds) + 1
        counters.append((f"budget:{what}:{window}:{subject}:{bucket}", ttl))
    try:
        values = _count(counters)
    except Exception as exc:  # any cache failure: let the write through
        logger.warning("Budget %s not counted, the cache failed: %s", what, exc)
        return
    exhausted = [
        counter[1]
        for (window, limit), counter, value in zip(active, counters, values, strict=True)
        if value > limit
    ]
    if exhausted:
        metrics.BUDGET_REFUSALS.labels(what).inc()
        retry_after = max(1, max(exhausted) - 1)
        raise Throttled(
            MESSAGES[what].format(wait=_wait_words(retry_after)), retry_after=retry_after
        )
