"""Live-layer fixtures: a Redis prefix of its own per test, and the loop's hub closed after."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from django.db import connections

from realtime.backend import get_backend


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
    if settings.REDIS_URL:
        client = redis.Redis.from_url(settings.REDIS_URL)
        keys = list(client.scan_iter(f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
        client.close()


@pytest.fixture
async def live_cleanup() -> AsyncIterator[None]:
    """After a test: close this loop's hub (its Redis connections belong to the loop) and the
    database connection of the thread sync_to_async ran the test's writes in."""
    yield
    await get_backend().hub().close()
    await sync_to_async(connections.close_all)()
