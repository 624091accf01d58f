"""The link previews' process-local layer, in front of the shared cache (project/sharing/cache.py):
a preview served from the process's own memory costs no round trip to Redis.

Every process that serves previews holds a subscription to the previews' invalidation channel
on Redis (a daemon thread, started by the first preview the process serves, so commands and the
worker never start it). ``previews_changed`` drops the subjects in its own process at commit and
publishes them; each subscriber drops them in its process as the message arrives.

The layer is used only while it can hear every invalidation:

* it serves and stores only while the subscription is live: confirmed by Redis, and heard from
  (a message or the answer to the thread's ping) within ``DEADLINE`` seconds. Before the first
  confirmation, after a lost connection and while the thread reconnects, previews come from the
  shared cache (or the database), never from local memory;
* each confirmation of the subscription (the first one and every one after a reconnection)
  empties the layer: whatever was published while the process was not subscribed is lost, and
  with it every entry it could have made stale;
* an entry lives ``SHARE_PREVIEW_LOCAL_TTL`` seconds at most.

A request that read the shared cache or the database before an invalidation must not store what
it read after the invalidation was applied here. A read takes a ticket (the layer's sequence
number) before it reads; every drop and every reset takes the next number. ``put`` keeps the
entry only when no drop of its subject and no reset came after the ticket, checked and stored
under the lock that drops take. The publisher sets the shared cache's new token before it drops
locally and publishes, so a read whose ticket comes after the drop reads the new token.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import time
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

logger = logging.getLogger(__name__)

# Seconds between the subscriber's pings; it counts as live for DEADLINE seconds after it last
# heard from Redis.
HEARTBEAT = 1.0
DEADLINE = 3.0
# Seconds between attempts to subscribe again after a failure.
RETRY = 0.5
# A read that takes longer than this does not store its answer locally; drops are remembered
# this long (so the memory of drops stays bounded).
READ_LIMIT = 10.0

MISS: Any = object()


@dataclass(frozen=True)
class Ticket:
    seq: int
    at: float


class LocalPreviews:
    """Previews by subject, in this process's memory, with the rules of the module docstring.
    The subscriber (``Subscriber``) says when it is live and what to drop."""

    def __init__(self, ttl: float) -> None:
        self.ttl = ttl
        self._lock = threading.Lock()
        self._entries: dict[Hashable, tuple[float, Any]] = {}
        # The sequence number of each subject's last drop, and when it came.
        self._dropped: dict[Hashable, tuple[int, float]] = {}
        self._seq = 0
        self._reset_seq = 0
        self._pruned_at = time.monotonic()
        # Monotonic time until which the subscription counts as live; 0: not subscribed.
        self._live_until = 0.0
        # Invalidations applied (drops and resets): what tests wait on.
        self.applied = 0

    def live(self) -> bool:
        return time.monotonic() < self._live_until

    def get(self, key: Hashable) -> Any:
        """The subject's entry, or ``MISS`` (also whenever the layer is not live)."""
        now = time.monotonic()
        if now >= self._live_until:
            return MISS
        found = self._entries.get(key)
        if found is None or found[0] <= now:
            return MISS
        return found[1]

    def ticket(self) -> Ticket:
        """Taken before the read whose answer ``put`` may store."""
        return Ticket(self._seq, time.monotonic())

    def put(self, key: Hashable, value: Any, ticket: Ticket) -> bool:
        """Store ``value``, read after ``ticket`` was taken, unless the layer is not live or the
        subject was dropped (or the layer reset) since. Whether it was stored."""
        with self._lock:
            now = time.monotonic()
            if now >= self._live_until or now - ticket.at > READ_LIMIT:
                return False
            if self._reset_seq > ticket.seq:
                return False
            dropped = self._dropped.get(key)
            if dropped is not None and dropped[0] > ticket.seq:
                return False
            self._entries[key] = (now + self.ttl, value)
            return True

    def drop(self, keys: Iterable[Hashable]) -> None:
        with self._lock:
            now = time.monotonic()
            self._seq += 1
            for key in keys:
                self._entries.pop(key, None)
                self._dropped[key] = (self._seq, now)
            if now - self._pruned_at > READ_LIMIT:
                # No read older than READ_LIMIT stores, so older drops cannot refuse one.
                self._dropped = {
                    key: mark for key, mark in self._dropped.items() if now - mark[1] <= READ_LIMIT
                }
                self._pruned_at = now
            self.applied += 1

    def clear(self) -> None:
        """Empty the layer: no read that started before stores its answer."""
        with self._lock:
            self._seq += 1
            self._reset_seq = self._seq
            self._entries.clear()
            self._dropped.clear()
            self.applied += 1

    def reset(self, *, live_until: float) -> None:
        """Empty the layer (a new subscription: what was published before it is unknown) and
        count it live until ``live_until``."""
        self.clear()
        self._live_until = live_until

    def heard(self, *, live_until: float) -> None:
        self._live_until = max(self._live_until, live_until)

    def lost(self) -> None:
        self._live_until = 0.0


def encode(keys: Iterable[tuple[str, int]]) -> str:
    return json.dumps([f"{kind}:{pk}" for kind, pk in keys], separators=(",", ":"))


def decode(data: bytes) -> list[tuple[str, int]]:
    keys = []
    for item in json.loads(data):
        kind, _, pk = item.partition(":")
        keys.append((kind, int(pk)))
    return keys


class Subscriber:
    """The daemon thread that keeps ``layer`` subscribed to ``channel`` on the Redis at ``url``,
    applies the drops it hears and says how long the layer counts as live."""

    def __init__(self, layer: LocalPreviews, url: str, channel: str) -> None:
        self.layer = layer
        self.url = url
        self.channel = channel
        self._stop = threading.Event()
        self._failing = False
        self.thread = threading.Thread(target=self._run, name="preview-invalidations", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.thread.join()
        self.layer.lost()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except Exception as error:
                if not self._failing:
                    self._failing = True
                    logger.warning(
                        "Link previews are not cached in this process while it is not "
                        "subscribed to their invalidations (%s)",
                        error,
                    )
            self._stop.wait(RETRY)

    def _listen(self) -> None:
        # No retry inside redis-py: a reconnection there would subscribe again silently, and
        # what was published meanwhile would be lost without the layer being emptied.
        client = redis.Redis.from_url(
            self.url,
            socket_connect_timeout=1,
            socket_timeout=DEADLINE,
            socket_keepalive=True,
            retry=Retry(NoBackoff(), 0),
            client_name=f"previews:{os.getpid()}",
        )
        pubsub = client.pubsub()
        try:
            pubsub.subscribe(self.channel)
            subscribed = False
            pinged = time.monotonic()
            while not self._stop.is_set():
                message = pubsub.get_message(timeout=HEARTBEAT)
                now = time.monotonic()
                if message is not None:
                    kind = message["type"]
                    if kind == "subscribe":
                        # The first confirmation, or redis-py's own after a reconnection.
                        subscribed = True
                        self.layer.reset(live_until=now + DEADLINE)
                        if self._failing:
                            self._failing = False
                            logger.info("Link previews are cached in this process again")
                    elif subscribed and kind == "message":
                        self.layer.drop(decode(message["data"]))
                        self.layer.heard(live_until=now + DEADLINE)
                    elif subscribed and kind == "pong":
                        self.layer.heard(live_until=now + DEADLINE)
                if now - pinged >= HEARTBEAT:
                    pubsub.ping()
                    pinged = now
                if subscribed and not self.layer.live():
                    raise ConnectionError("no answer from Redis within the deadline")
        finally:
            self.layer.lost()
            pubsub.close()
            client.close()
