"""Where events go between processes: the process's backend.

Two backends share one interface (realtime/backend_base.py):

* :class:`~realtime.redis_publish.RedisBackend` (``REDIS_URL`` set): one Lua script per group
  and event does ``INCR`` of the group's sequence, adds the encoded envelope to the group's
  replay log and ``PUBLISH``es it on the group's pub/sub channel, atomically, so every process
  sees a group's events in seq order. Each process (each event loop) holds ONE pub/sub
  connection per instance (``REALTIME_REDIS_SHARDS`` spreads the groups over several),
  subscribed to the groups its sockets are in.
* :class:`~realtime.backend_memory.MemoryBackend` (embedded mode): the same in one process,
  under a lock.

Publishing is synchronous: it runs in ``transaction.on_commit`` callbacks, in request threads.
The receiving side is a per-event-loop :class:`~realtime.hub.Hub`, fed by a ``Source``.
"""

from __future__ import annotations

import threading

from django.conf import settings

from realtime.backend_base import Backend, Config, Guard, Outbound, Replay, Source
from realtime.backend_memory import MemoryBackend
from realtime.redis_publish import RedisBackend

__all__ = ["Backend", "Guard", "Outbound", "Replay", "Source", "get_backend", "reset_backend"]

# --- The process's backend --------------------------------------------------------------

_backend: Backend | None = None
_backend_lock = threading.Lock()


def get_backend() -> Backend:
    global _backend
    with _backend_lock:
        if _backend is None:
            config = Config.from_settings()
            url = settings.REDIS_URL
            if url:
                _backend = RedisBackend(url, config, settings.REALTIME_REDIS_SHARDS)
            else:
                _backend = MemoryBackend(config)
        return _backend


def reset_backend() -> None:
    """Forget the backend (settings changed, e.g. a test's own Redis prefix)."""
    global _backend
    with _backend_lock:
        _backend = None
