"""Behind PgBouncer in transaction mode (``make test-pgbouncer``: ``DB_POOLER=transaction``,
``pytest --pgbouncer``): the run really goes through it, a server connection serves one
transaction of a client and then another client's, and what would break there (a prepared
statement, a cursor kept across transactions) is not done: run with ``DB_POOLER=none``, the
tests of the statement run many times and of the iterator fail, which is what they guard.

Transactional tests: inside pytest-django's test transaction one server connection would serve
the whole test."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import psycopg
import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection, transaction

from project.accounts.models import User
from project.common.db import Pending
from project.ops.pgbouncer import Bouncer
from project.settings import db_pooler
from tests.builders import make_user
from tests.pgbouncer import admin

ROOT = Path(__file__).resolve().parents[2]


def backend_pid(cursor: Any) -> int:
    cursor.execute("SELECT pg_backend_pid()")
    return int(cursor.fetchone()[0])


def django_client(bouncer: Bouncer) -> dict[str, Any]:
    """Django's connection as PgBouncer's admin console lists it (SHOW CLIENTS), found by the
    port it connects from."""
    with socket.socket(fileno=os.dup(connection.connection.pgconn.socket)) as sock:
        port = sock.getsockname()[1]
    (row,) = [c for c in admin(bouncer, "SHOW CLIENTS") if c["port"] == port]
    return row


@pytest.mark.django_db(transaction=True)
@pytest.mark.through_pgbouncer
def test_the_run_goes_through_pgbouncer_in_transaction_mode(pgbouncer: Bouncer) -> None:
    assert settings.DB_POOLER == "transaction"
    config = {row["key"]: row["value"] for row in admin(pgbouncer, "SHOW CONFIG")}
    assert config["pool_mode"] == "transaction"
    with connection.cursor() as cursor:
        backend_pid(cursor)
    assert connection.connection.info.port == pgbouncer.port
    # Open and idle, Django's connection holds no server connection (in session mode it
    # would keep one until it closes) ...
    idle = django_client(pgbouncer)
    assert idle["database"] == connection.settings_dict["NAME"]
    assert idle["link"] == "", idle
    # ... and holds one for as long as a transaction lasts.
    with transaction.atomic(), connection.cursor() as cursor:
        pid = backend_pid(cursor)
        linked = django_client(pgbouncer)["link"]
        assert linked != ""
        servers = {s["ptr"]: s for s in admin(pgbouncer, "SHOW SERVERS")}
        assert servers[linked]["remote_pid"] == pid
    assert django_client(pgbouncer)["link"] == ""


@pytest.mark.django_db(transaction=True)
@pytest.mark.through_pgbouncer
def test_two_pooled_connections_run_the_same_statement_many_times(pgbouncer: Bouncer) -> None:
    """Two new connections as the app's pool opens them, in turn, each running a statement
    more times than DB_PREPARE_THRESHOLD: prepared, both would give it the same name on the
    server connection they share (DuplicatePreparedStatement) or miss it on another."""
    params = connection.get_connection_params()
    with psycopg.connect(**params) as first, psycopg.connect(**params) as second:
        for run in range(12):
            for client in (first, second):
                with client.cursor() as cursor:
                    cursor.execute("SELECT %s::int + 1, count(*) FROM pg_class", [run])
                    assert cursor.fetchall()[0][0] == run + 1
                client.commit()


@pytest.mark.django_db(transaction=True)
@pytest.mark.through_pgbouncer
def test_an_iterator_outlives_its_server_connection(pgbouncer: Bouncer) -> None:
    """``.iterator()`` reads its rows while another transaction takes the server connection it
    began on: a server-side cursor (WITH HOLD, outside a transaction) would be missing from the
    server it continues on."""
    made = {make_user(name=f"Ivy Iterated {n}").pk for n in range(3)}
    rows = User.objects.filter(pk__in=made).order_by("pk").values_list("pk", flat=True)
    iterator = rows.iterator(chunk_size=1)
    first = next(iterator)
    with psycopg.connect(pgbouncer.url) as other:
        other.execute("SELECT 1")  # a transaction open on the server the iterator began on
        assert [first, *iterator] == sorted(made)


@pytest.mark.django_db(transaction=True)
@pytest.mark.through_pgbouncer
def test_statements_sent_together_go_through_pgbouncer(pgbouncer: Bouncer) -> None:
    """The vote's pipeline (``Pending``: psycopg's pipeline mode, the extended protocol with
    unnamed statements, one Sync) inside a transaction."""
    with transaction.atomic(), Pending(connection) as pending:
        pid = pending.add("SELECT pg_backend_pid()", [])
        answer = pending.add("SELECT %s::int + 1, %s::text", [41, "forty-two"])
        assert pending.rows(answer) == [(42, "forty-two")]
        with connection.cursor() as cursor:
            assert backend_pid(cursor) == pending.rows(pid)[0][0]


SESSION_STATE = re.compile(
    r"pg_(try_)?advisory_lock(_shared)?\s*\(|\bLISTEN\s|\bUNLISTEN\b|set_config\([^)]*false"
    r"|\bSET\s+(SESSION\b|ROLE\b|TIME\s+ZONE\b|search_path\b|statement_timeout\b|lock_timeout\b)"
    r"|\bDECLARE\b.*\bWITH\s+HOLD\b|\bCREATE\s+TEMP(ORARY)?\s",
)


def test_no_code_keeps_state_in_the_database_session() -> None:
    """What a server connection would carry from one client's transaction into another's:
    session advisory locks, LISTEN, session SETs, held cursors, temporary tables. The code
    takes transaction-scoped ones (pg_advisory_xact_lock, SET LOCAL). SQL's keywords are
    written in capitals here, as everywhere in the code."""
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for folder in ("project", "realtime")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if SESSION_STATE.search(line) and not line.lstrip().startswith("#")
    ]
    assert found == []


def database_settings(**env: str) -> dict[str, Any]:
    """The default database's settings as project/settings/database.py makes them from ``env``."""
    script = (
        "import json, project.settings as s; d = s.DATABASES['default']; "
        "print(json.dumps([s.DB_POOLER, d['OPTIONS'], d['DISABLE_SERVER_SIDE_CURSORS']]))"
    )
    clean = {k: v for k, v in os.environ.items() if k not in {"DB_POOLER", "DATABASE_URL"}}
    answer = subprocess.run(
        [sys.executable, "-c", script],
        env={**clean, **env},
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    pooler, options, no_cursors = json.loads(answer.stdout)
    return {"pooler": pooler, "no_server_cursors": no_cursors, **options}


def test_db_pooler_is_what_is_set_or_transaction_on_pgbouncers_port() -> None:
    assert db_pooler("", "6432") == "transaction"
    assert db_pooler("", 5432) == "none"
    assert db_pooler("", "") == "none"
    assert db_pooler("none", "6432") == "none"
    assert db_pooler(" Transaction ", 5432) == "transaction"
    with pytest.raises(ImproperlyConfigured, match="DB_POOLER"):
        db_pooler("session", 5432)


def test_behind_a_transaction_pooler_nothing_outlives_a_transaction() -> None:
    direct = database_settings(DATABASE_URL="postgres://u@db:5432/app")
    assert (direct["pooler"], direct["no_server_cursors"]) == ("none", False)
    assert (direct["server_side_binding"], direct["prepare_threshold"]) == (True, 5)
    for env in (
        {"DATABASE_URL": "postgres://u@db:5432/app", "DB_POOLER": "transaction"},
        {"DATABASE_URL": "postgres://u@bouncer:6432/app"},
    ):
        pooled = database_settings(**env, DB_PREPARE_THRESHOLD="3")
        assert (pooled["pooler"], pooled["no_server_cursors"]) == ("transaction", True)
        assert (pooled["server_side_binding"], pooled["prepare_threshold"]) == (False, None)
        # The pool is the same as without it.
        assert pooled["pool"] == direct["pool"]


def test_the_generated_config_serves_every_database_of_the_server(tmp_path: Path) -> None:
    bouncer = Bouncer("postgres://app:p%40ss@db.internal:5433/scoutvote", run_dir=tmp_path)
    assert bouncer.url == f"postgres://app:p%40ss@127.0.0.1:{bouncer.port}/scoutvote"
    config = bouncer.config()
    assert "* = host=db.internal port=5433" in config
    assert "pool_mode = transaction" in config
    assert "auth_type = scram-sha-256" in config  # the URL has a password
    bouncer.write()
    assert (tmp_path / "userlist.txt").read_text() == '"app" "p@ss"\n'
    assert (tmp_path / "userlist.txt").stat().st_mode & 0o077 == 0
    trusted = Bouncer("postgres://postgres@127.0.0.1:5432/scoutvote", run_dir=tmp_path)
    assert "auth_type = trust" in trusted.config()
    with pytest.raises(ValueError, match="admin console"):
        Bouncer("postgres://postgres@127.0.0.1:5432/pgbouncer", run_dir=tmp_path)
