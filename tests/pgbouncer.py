"""``pytest --pgbouncer`` (``make test-pgbouncer``): the test run's queries go through a private
PgBouncer in transaction mode (project/ops/pgbouncer.py) in front of the test database.

pytest-django creates and drops the test database directly on PostgreSQL (PgBouncer's idle
server connections would keep it from being dropped); in between, the default database's
settings point at PgBouncer and the connection pool starts again, so every test of the run (and
every thread a test starts) goes through it. The app's side is what ``DB_POOLER=transaction``
sets up (project/settings/database.py); without it the run shows what breaks behind such a pooler.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
from django.db import connections

from project.ops.pgbouncer import HOST, Bouncer, running

# The PgBouncer of this run, while it runs.
ACTIVE: list[Bouncer] = []


def _reconnect(wrapper: Any, host: str, port: str) -> None:
    """Point the database at host:port: the connections of every thread read this settings
    dict; the pool (one per alias, shared by them) is built again on the next checkout."""
    wrapper.close()
    wrapper.close_pool()
    wrapper.settings_dict["HOST"] = host
    wrapper.settings_dict["PORT"] = port


@contextlib.contextmanager
def through_pgbouncer(run_dir: Path) -> Iterator[Bouncer]:
    wrapper = connections["default"]
    if wrapper.vendor != "postgresql":
        raise RuntimeError("--pgbouncer needs DATABASE_URL to name a PostgreSQL database")
    settings = wrapper.settings_dict
    credentials = quote(settings["USER"] or "postgres", safe="")
    if settings["PASSWORD"]:
        credentials += ":" + quote(settings["PASSWORD"], safe="")
    host, port = settings["HOST"] or HOST, str(settings["PORT"] or 5432)
    bouncer = Bouncer(f"postgres://{credentials}@{host}:{port}/{settings['NAME']}", run_dir=run_dir)
    with running(bouncer):
        _reconnect(wrapper, HOST, str(bouncer.port))
        ACTIVE.append(bouncer)
        try:
            yield bouncer
        finally:
            ACTIVE.clear()
            _reconnect(wrapper, host, port)


def admin(bouncer: Bouncer, command: str) -> list[dict[str, Any]]:
    """The rows of a command of PgBouncer's admin console (simple query protocol only)."""
    with psycopg.connect(
        bouncer.admin_conninfo(), autocommit=True, cursor_factory=psycopg.ClientCursor
    ) as console:
        cursor = console.execute(command)
        names = [column.name for column in cursor.description or []]
        return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
