"""Reads from PostgreSQL streaming replicas (``DATABASE_REPLICA_URLS``), with read-your-writes.

Only the reads of a safe HTTP request (GET, HEAD, OPTIONS) may go to a replica; everything
else reads the primary: writes, a transaction, the live layer (its boards and snapshots
follow a commit at once), the worker and management commands. A client that wrote gets a
cookie with the primary's WAL position after its write (``pg_current_wal_lsn()``); its later
reads go to a replica only once that replica has replayed past it (``pg_last_wal_replay_lsn()``),
else to the primary, so a member always sees their own writes. Other people's reads may be as
old as the replica's lag. A replica that cannot be reached is left out for a few seconds.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connections
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)

PRIMARY = "default"
COOKIE = "scoutvote_wal"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# A replica's replayed position is read again after this many seconds (a client waiting for
# its own write reads it again at once).
CHECK_INTERVAL = 0.5
# A replica that failed its check is not tried again for this many seconds.
DOWN_FOR = 5.0


def replica_aliases() -> list[str]:
    return [alias for alias in settings.DATABASES if alias.startswith("replica")]


def lsn_value(lsn: str) -> int:
    """A WAL position ("16/B374D848") as a number; 0 for anything else."""
    high, _, low = lsn.partition("/")
    try:
        return (int(high, 16) << 32) + int(low, 16)
    except ValueError:
        return 0


@dataclass
class _Request:
    replica_allowed: bool
    required: int  # the WAL position this client must see (0: any)
    chosen: str | None = None


_request: ContextVar[_Request | None] = ContextVar("replica_request", default=None)


@dataclass
class _Replayed:
    position: int | None  # None: the replica could not be reached
    checked_at: float


_replayed: dict[str, _Replayed] = {}
_lock = threading.Lock()


def _replay_position(alias: str, *, fresh: bool) -> int | None:
    now = time.monotonic()
    with _lock:
        known = _replayed.get(alias)
    if known is not None:
        age = now - known.checked_at
        if known.position is None and age < DOWN_FOR:
            return None
        if known.position is not None and age < CHECK_INTERVAL and not fresh:
            return known.position
    try:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT pg_last_wal_replay_lsn()::text")
            row = cursor.fetchone()
        position: int | None = lsn_value(row[0]) if row and row[0] else 0
    except DatabaseError:
        logger.warning("Replica %s cannot be reached; reading from the primary", alias)
        position = None
    with _lock:
        _replayed[alias] = _Replayed(position, now)
    return position


def _choose(required: int) -> str:
    """A replica that has replayed ``required``, or the primary."""
    aliases = replica_aliases()
    random.shuffle(aliases)
    for alias in aliases:
        position = _replay_position(alias, fresh=False)
        if position is not None and position < required:
            position = _replay_position(alias, fresh=True)
        if position is not None and position >= required:
            return alias
    return PRIMARY


class ReplicaRouter:
    """Django's database router for the rule above."""

    def db_for_read(self, model: Any, **hints: Any) -> str:
        request = _request.get()
        if request is None or not request.replica_allowed:
            return PRIMARY
        if connections[PRIMARY].in_atomic_block:
            return PRIMARY
        if request.chosen is None:
            request.chosen = _choose(request.required)
        return request.chosen

    def db_for_write(self, model: Any, **hints: Any) -> str:
        return PRIMARY

    def allow_relation(self, obj1: Any, obj2: Any, **hints: Any) -> bool:
        return True

    def allow_migrate(self, db: str, app_label: str, **hints: Any) -> bool:
        return db == PRIMARY


def _primary_position() -> str | None:
    try:
        with connections[PRIMARY].cursor() as cursor:
            cursor.execute("SELECT pg_current_wal_lsn()::text")
            row = cursor.fetchone()
    except DatabaseError:
        return None
    return str(row[0]) if row else None


class ReplicaMiddleware:
    """Marks a safe request's reads as allowed on a replica, and gives a client that wrote
    the primary's WAL position after its request."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not replica_aliases():
            return self.get_response(request)
        safe = request.method in SAFE_METHODS
        required = lsn_value(request.COOKIES.get(COOKIE, ""))
        token = _request.set(_Request(replica_allowed=safe, required=required))
        try:
            response = self.get_response(request)
        finally:
            _request.reset(token)
        if not safe:
            position = _primary_position()
            if position is not None and lsn_value(position) > required:
                response.set_cookie(
                    COOKIE,
                    position,
                    max_age=settings.REPLICA_STICKY_SECONDS,
                    httponly=True,
                    samesite="Lax",
                    secure=settings.SESSION_COOKIE_SECURE,
                )
        return response
