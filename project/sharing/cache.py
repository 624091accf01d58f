"""The link previews' cache: what a nomination's or a scout's preview shows, kept in Django's
cache (Redis when REDIS_URL is set, so every process shares it) per subject, and made stale
by ``previews_changed``, the one call of every write that changes or drops a share card or
hides its subject (a takedown, a rejection, an edit, a private profile, a redraw).

Each subject has a generation token beside its entry. A read fetches both in one round trip
and keeps the entry only when it was stored under the current token; a write that hides a
subject sets a new token once it commits. A request that read the database before that
commit stores its answer under the old token, which no later request accepts, so a hidden
player's preview is gone from the first request after the commit. The entry's TTL bounds
whatever a lost invalidation (the cache unreachable at that moment) leaves behind."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.db import transaction

logger = logging.getLogger(__name__)

T = TypeVar("T")

NOMINATION = "n"
SCOUT = "s"
# An entry for the subject's absence (not public, no such row): cached as well, so an
# address that is not public costs no query either.
_ABSENT = "-"


@lru_cache(maxsize=1)
def _process_cache() -> BaseCache:
    """The default cache's backend, one for the process: ``django.core.cache.cache`` is one
    per thread, and a daphne process serves each request in a thread of its own, so its Redis
    client (and connection pool) would be a new one, connecting again, on every request. The
    backends' clients are thread-safe (redis-py's pool, locmem's lock)."""
    return caches.create_connection("default")


def _keys(kind: str, subject_id: int) -> tuple[str, str]:
    return f"preview:{kind}:{subject_id}", f"preview-gen:{kind}:{subject_id}"


def _token_timeout() -> int:
    # A token outlives every entry stored before it was set: an entry stored under no token
    # (none was set yet) is never taken for current after a newer token expires.
    return settings.SHARE_PREVIEW_TTL * 4


def preview_cached(kind: str, subject_id: int, read: Callable[[int], T | None]) -> T | None:
    """``read(subject_id)`` (the database), or its answer cached under the subject's current
    token. One cache round trip on a hit; the cache unreachable falls back to ``read``, and
    so does a cache that is not shared (SHARE_PREVIEW_CACHE off: no Redis)."""
    if not settings.SHARE_PREVIEW_CACHE:
        return read(subject_id)
    entry_key, token_key = _keys(kind, subject_id)
    cache = _process_cache()
    try:
        found = cache.get_many([entry_key, token_key])
    except Exception:
        logger.warning("The preview cache is unreachable", exc_info=True)
        return read(subject_id)
    token = found.get(token_key)
    entry = found.get(entry_key)
    if entry is not None and entry[0] == token:
        return None if entry[1] == _ABSENT else entry[1]
    value = read(subject_id)
    try:
        cache.set(
            entry_key,
            (token, _ABSENT if value is None else value),
            timeout=settings.SHARE_PREVIEW_TTL,
        )
    except Exception:
        logger.warning("The preview cache is unreachable", exc_info=True)
    return value


def previews_changed(*, nomination_ids: Iterable[int] = (), scout_ids: Iterable[int] = ()) -> None:
    """Make these subjects' cached previews stale once the current transaction commits (at
    once outside one): new tokens, and their entries deleted."""
    subjects = [(NOMINATION, pk) for pk in nomination_ids] + [(SCOUT, pk) for pk in scout_ids]
    if not subjects:
        return

    def invalidate() -> None:
        cache = _process_cache()
        tokens: dict[str, Any] = {}
        entries = []
        for kind, pk in subjects:
            entry_key, token_key = _keys(kind, pk)
            tokens[token_key] = uuid.uuid4().hex
            entries.append(entry_key)
        try:
            cache.set_many(tokens, timeout=_token_timeout())
            cache.delete_many(entries)
        except Exception:
            # The entries' TTL ends them; the caller's write has committed already.
            logger.exception("Could not invalidate the link previews of %s", subjects)

    transaction.on_commit(invalidate)
