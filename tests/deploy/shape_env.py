"""The environment a test starts production-shape processes in (``project.ops.prodshape``),
and the Redis keys they leave behind under the test's prefix."""

from __future__ import annotations

import os

import redis
from django.conf import settings

from tests.realtime.servers import database_url

# As the suite's own settings: a fresh account's votes count on the boards, and the members
# of a test vote and sign in more often than a person's budgets allow.
SUITE_RULES = {"TRUST_ACCOUNT_AGE_HOURS": "0", "BUDGETS": "off"}


def shape_env(
    prefix: str, *, log_level: str = "WARNING", suite_rules: bool = True, **overrides: str
) -> dict[str, str]:
    """This process's environment for the shape's processes: DATABASE_URL at the database
    pytest-django made for this run (where the test's rows are committed), the live layer's and
    the cache's Redis keys under ``prefix``, the hosts the test calls, ``log_level``, the
    suite's rules unless ``suite_rules`` is False (the server's own defaults then), and
    ``overrides`` last (REDIS_URL, BUDGETS, ...). PROMETHEUS_MULTIPROC_DIR is left out: the
    shape sets the pool's own."""
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REALTIME_PREFIX": prefix,
        "CACHE_PREFIX": prefix,
        "LOG_LEVEL": log_level,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        **(SUITE_RULES if suite_rules else {}),
        **overrides,
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    return env


def prefixed_keys_deleted(prefix: str) -> None:
    """Delete what the shape wrote to the suite's Redis under ``prefix``."""
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        keys = list(client.scan_iter(f"*{prefix}*", count=1000))
        if keys:
            client.delete(*keys)
    finally:
        client.close()
