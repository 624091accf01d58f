"""Live-layer fixtures: a Redis prefix of its own per test, and the loop's hub closed after."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest
import redis
import time_machine
from asgiref.sync import sync_to_async
from django.db import connections

from realtime.backend import get_backend
from realtime.broadcast import get_publisher
from realtime.hub import hub_of
from realtime.merge import get_merger


@pytest.fixture(scope="session", autouse=True)
def _database_pool_closed_last(django_db_setup: None, django_db_blocker: Any) -> Iterator[None]:
    """Connections pooled by threads (the consumers' database_sync_to_async, the summary
    worker) would otherwise keep the test database from being dropped."""
    yield
    with django_db_blocker.unblock():
        for connection in connections.all():
            if connection.settings_dict.get("OPTIONS", {}).get("pool"):
                connection.close_pool()  # type: ignore[attr-defined]  # PostgreSQL only


@pytest.fixture(autouse=True)
def realtime_prefix(settings: Any) -> Iterator[str]:
    """Redis keys and channels of this test only, so parallel runs never collide."""
    prefix = f"rt-test-{uuid.uuid4().hex[:12]}"
    settings.REALTIME_PREFIX = prefix
    yield prefix
    # What the test's writes still hold (an activity waits REALTIME_ACTIVITY_DELAY after its
    # count) goes out now, under this test's prefix, not into the next test's groups.
    get_merger().drain(timeout=1)
    get_publisher().drain(timeout=1)
    if settings.REDIS_URL:
        client = redis.Redis.from_url(settings.REDIS_URL)
        keys = list(client.scan_iter(f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()


@pytest.fixture
def age_replay_log(settings: Any) -> Iterator[Callable[[float], Awaitable[None]]]:
    """``await age(seconds)`` makes the events logged so far that much older for the replay
    log. The in-memory log stamps events with this process's wall clock, which time-machine
    moves at once (monotonic clocks, and so every timeout, keep their pace). The Redis log
    stamps them with Redis's own clock (TIME in its script), another process's that nothing
    here can move: there the test really waits."""
    travel = time_machine.travel(time.time(), tick=True)
    traveller: time_machine.Traveller | None = None

    async def age(seconds: float) -> None:
        nonlocal traveller
        if settings.REDIS_URL:
            await asyncio.sleep(seconds)
            return
        if traveller is None:
            traveller = travel.start()
        traveller.shift(seconds)

    yield age
    if traveller is not None:
        travel.stop()


@pytest.fixture
async def live_cleanup() -> AsyncIterator[None]:
    """After a test: close this loop's hub (its Redis connections belong to the loop) and the
    database connection of the thread sync_to_async ran the test's writes in."""
    yield
    await hub_of(get_backend()).close()
    await sync_to_async(connections.close_all)()
