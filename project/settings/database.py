"""Database: SQLite embedded, or PostgreSQL with its pool, replicas and a pooler."""

from __future__ import annotations

import copy
import os
import tempfile
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from project.settings.base import BASE_DIR
from project.settings.env import setting


def _db_location(config: Any) -> dict[str, Any]:
    return {
        key: config[key] for key in ("NAME", "USER", "PASSWORD", "HOST", "PORT") if key in config
    }


def _prepare_threshold(value: str) -> int | None:
    """psycopg's prepare_threshold from its variable: a number of runs, or none (empty)."""
    return int(value) if value.strip() else None


def db_pooler(value: str, port: Any) -> str:
    """What stands between the app and PostgreSQL: ``transaction`` (a pooler in transaction
    mode: a server connection per transaction, nothing kept between them) or ``none``;
    unset, ``transaction`` on PgBouncer's port 6432."""
    value = value.strip().lower() or ("transaction" if str(port) == "6432" else "none")
    if value not in {"none", "transaction"}:
        raise ImproperlyConfigured("DB_POOLER must be 'transaction' or 'none'")
    return value


DATABASE_URL = setting(
    "DATABASE_URL",
    "",
    "`postgres://user@host:5432/db`: PostgreSQL through psycopg 3 and its connection pool "
    "(`CONN_MAX_AGE=0`, each connection checked before it is handed out); unset: SQLite.",
)
_REPLICA_URLS: list[str] = setting(
    "DATABASE_REPLICA_URLS",
    [],
    "Comma-separated `postgres://` URLs of streaming replicas: GET requests' reads go to one "
    "of them, writes and a client that just wrote to the primary (`project/common/replicas.py`).",
)
_POOLER = setting(
    "DB_POOLER",
    "",
    "`transaction`: a pooler in transaction mode (PgBouncer) stands between the app and "
    "PostgreSQL, so nothing is kept on a server connection between transactions; `none`: "
    "PostgreSQL directly.",
    shown="`transaction` when `DATABASE_URL`'s port is 6432, else `none`",
)
_POOL_MIN = setting("DB_POOL_MIN", 2, "psycopg pool: connections kept open per process.")
_POOL_MAX = setting(
    "DB_POOL_MAX", 20, "psycopg pool: connections at most per process (small behind PgBouncer)."
)
_POOL_TIMEOUT = setting(
    "DB_POOL_TIMEOUT",
    10.0,
    "Seconds a request waits for a pooled connection (then 503 `service_unavailable`).",
    shown="10",
)
_PREPARE_THRESHOLD = setting(
    "DB_PREPARE_THRESHOLD",
    "5",
    "Runs of a statement on a pooled connection after which it is prepared there (empty: "
    "never; off under `DB_POOLER=transaction`).",
)
_SQLITE_PATH = setting(
    "SQLITE_PATH",
    str(BASE_DIR / "db.sqlite3"),
    "The SQLite file used without `DATABASE_URL`.",
    shown="`db.sqlite3` in the checkout",
)

if DATABASE_URL:
    _db: dict[str, Any] = dict(dj_database_url.parse(DATABASE_URL))
    DB_POOLER = db_pooler(_POOLER, _db.get("PORT"))
    _TRANSACTION_POOLER = DB_POOLER == "transaction"
    if _db["ENGINE"] == "django.db.backends.postgresql":
        # Under ASGI a persistent connection leaks one per worker thread; psycopg's pool
        # is the one that reuses connections.
        _db["CONN_MAX_AGE"] = 0
        # After a PostgreSQL restart every pooled connection is dead: the pool checks each
        # one it hands out, by its socket rather than a round trip (this backend: project/
        # common/postgresql/base.py), so a request gets a live one or a new one rather than
        # "server closed the connection". CONN_HEALTH_CHECKS would put psycopg's round-trip
        # check in its place.
        _db["ENGINE"] = "project.common.postgresql"
        _db["CONN_HEALTH_CHECKS"] = False
        _db["OPTIONS"] = {
            "pool": {"min_size": _POOL_MIN, "max_size": _POOL_MAX, "timeout": _POOL_TIMEOUT},
            # Values sent apart from the statement, and a statement a pooled connection has
            # run DB_PREPARE_THRESHOLD times prepared on it (psycopg's prepare_threshold; an
            # empty value: never), so PostgreSQL parses and plans a vote's statements once per
            # connection rather than on every vote (docs/decisions.md#prepared-statements).
            # Behind a pooler in transaction mode (DB_POOLER) a prepared statement would outlive
            # the transaction that made it (docs/decisions.md#behind-pgbouncer-in-transaction-mode).
            "server_side_binding": not _TRANSACTION_POOLER,
            "prepare_threshold": None
            if _TRANSACTION_POOLER
            else _prepare_threshold(_PREPARE_THRESHOLD),
        }
        # ... and so would a server-side cursor: .iterator() reads through an ordinary one.
        _db["DISABLE_SERVER_SIDE_CURSORS"] = _TRANSACTION_POOLER
    DATABASES = {"default": _db}
    # Streaming replicas for the reads of safe requests (project/common/replicas.py): each
    # with the primary's options, its own pool, and the primary as its test database.
    for _index, _url in enumerate(_REPLICA_URLS, 1):
        _replica = {**_db, **_db_location(dj_database_url.parse(_url))}
        _replica["OPTIONS"] = copy.deepcopy(_db.get("OPTIONS", {}))
        _replica["TEST"] = {"MIRROR": "default"}
        DATABASES[f"replica{_index}"] = _replica
    if len(DATABASES) > 1:
        DATABASE_ROUTERS = ["project.common.replicas.ReplicaRouter"]
else:
    DB_POOLER = "none"
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": _SQLITE_PATH,
            "OPTIONS": {
                # Writers queue (IMMEDIATE takes the write lock at BEGIN, so a read-then-write
                # transaction cannot fail half way) and wait up to 20 s; WAL lets the live
                # summaries and the browser tests' server read while a request writes.
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # A file, not memory, so another process (the browser tests' server) and other
            # threads see the test database; one per test run, so parallel runs stay apart.
            "TEST": {
                "NAME": str(Path(tempfile.gettempdir()) / f"scoutvote-test-{os.getpid()}.sqlite3")
            },
        }
    }

REPLICA_STICKY_SECONDS = setting(
    "REPLICA_STICKY_SECONDS",
    300,
    "Seconds a client that wrote reads from the primary until a replica has replayed its "
    "write (its cookie's age).",
)
