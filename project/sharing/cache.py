"""The link previews' cache: what a nomination's or a scout's preview shows, kept in Django's
cache (Redis when REDIS_URL is set, so every process shares it) per subject, and made stale
by ``previews_changed``, the one call of every write that changes or drops a share card or
hides its subject (a takedown, a rejection, an edit, a private profile, a redraw).

Each subject has a generation token beside its entry. A read fetches both in one round trip
and keeps the entry only when it was stored under the current token; a write that hides a
subject sets a new token once it commits. A request that read the database before that
commit stores its answer under the old token, which no later request accepts, so a hidden
player's preview is gone from the first request after the commit. The entry's TTL bounds
whatever a lost invalidation (the cache unreachable at that moment) leaves behind.

In front of it, each process that serves previews keeps them in its own memory
(project/sharing/local.py): ``previews_changed`` drops them there at commit and publishes
the subjects on Redis, where every other process's subscriber hears them. Without Redis there is
no shared cache and nothing to hear invalidations by: no layer caches (SHARE_PREVIEW_CACHE
off)."""

from __future__ import annotations

import logging
import os
import threading
import uuid
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.db import transaction
from redis import Redis
from redis.connection import parse_url

from project.sharing.local import MISS, LocalPreviews, Subscriber, encode

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


def invalidation_channel() -> str:
    """The Redis pub/sub channel of the previews' invalidations: named after the shared cache's
    key prefix and database, as every process that shares the entries shares it (pub/sub
    channels ignore the database a connection selected)."""
    database = parse_url(settings.REDIS_URL).get("db", 0)
    return f"{database}:{_process_cache().make_key('previews-changed')}"


@lru_cache(maxsize=1)
def _publisher() -> Redis:
    return Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=2)


_starting = threading.Lock()
_local: tuple[LocalPreviews, Subscriber] | None = None


def local_layer() -> LocalPreviews | None:
    """This process's local layer, its subscriber started by the first call (so a process that
    never serves a preview never subscribes); none without Redis or with
    SHARE_PREVIEW_LOCAL_TTL at 0."""
    global _local
    if _local is not None:
        return _local[0]
    if not (settings.REDIS_URL and settings.SHARE_PREVIEW_LOCAL_TTL > 0):
        return None
    with _starting:
        if _local is None:
            layer = LocalPreviews(settings.SHARE_PREVIEW_LOCAL_TTL)
            subscriber = Subscriber(layer, settings.REDIS_URL, invalidation_channel())
            subscriber.start()
            _local = (layer, subscriber)
    return _local[0]


def local_subscriber() -> Subscriber | None:
    return _local[1] if _local is not None else None


def local_clear() -> None:
    """Empty this process's local layer (as ``cache.clear()`` empties the shared one)."""
    if _local is not None:
        _local[0].clear()


def _forget_local() -> None:
    """In a forked child: the parent's subscriber thread is not there, and its layer heard
    nothing on the child's behalf. The child's first preview starts its own."""
    global _local, _starting
    _local = None
    _starting = threading.Lock()


os.register_at_fork(after_in_child=_forget_local)


def _keys(kind: str, subject_id: int) -> tuple[str, str]:
    return f"preview:{kind}:{subject_id}", f"preview-gen:{kind}:{subject_id}"


def _token_timeout() -> int:
    # A token outlives every entry stored before it was set: an entry stored under no token
    # (none was set yet) is never taken for current after a newer token expires.
    return settings.SHARE_PREVIEW_TTL * 4


def preview_cached(kind: str, subject_id: int, read: Callable[[int], T | None]) -> T | None:
    """``read(subject_id)`` (the database), or its answer cached: from the process's local
    layer while it is live (no round trip), else under the subject's current token in the
    shared cache (one round trip on a hit). The cache unreachable falls back to ``read``, and
    so does a cache that is not shared (SHARE_PREVIEW_CACHE off: no Redis)."""
    if not settings.SHARE_PREVIEW_CACHE:
        return read(subject_id)
    local = local_layer()
    if local is None:
        return _shared_cached(kind, subject_id, read)
    found = local.get((kind, subject_id))
    if found is not MISS:
        return found
    # Before the shared cache is read: a drop of the subject applied here after this point
    # keeps the answer out of the local layer.
    ticket = local.ticket()
    value = _shared_cached(kind, subject_id, read)
    local.put((kind, subject_id), value, ticket)
    return value


def _shared_cached(kind: str, subject_id: int, read: Callable[[int], T | None]) -> T | None:
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
    once outside one): new tokens, their shared entries deleted, then their local entries
    dropped in this process and the subjects published to the others. The tokens come first:
    a read that starts after the drop, here or in a process that heard it, reads them."""
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
        if _local is not None:
            _local[0].drop(subjects)
        if settings.REDIS_URL:
            try:
                _publisher().publish(invalidation_channel(), encode(subjects))
            except Exception:
                # The other processes' local entries end with their TTL (and a subscriber
                # that lost its connection empties its layer when it subscribes again).
                logger.exception("Could not publish the invalidation of %s", subjects)

    transaction.on_commit(invalidate)
