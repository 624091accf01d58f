"""The flush after each ``transaction=True`` test outlasts a deadlock with a transaction still
at work (tests/flushing.py): the way the browser tests' server can be caught as a test ends."""

from __future__ import annotations

import threading
import time

import psycopg
import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from project.accounts.models import User
from tests.builders import make_user
from tests.flushing import flush_outlasting_deadlocks
from tests.helpers import unless_available

pytestmark = [
    pytest.mark.django_db(transaction=True),
    unless_available(connection.vendor != "postgresql", reason="needs PostgreSQL"),
]


def _truncated_tables() -> list[str]:
    """The tables of the flush's TRUNCATE, in the order it locks them."""
    (statement,) = connection.ops.sql_flush(
        no_style(), connection.introspection.django_table_names(only_existing=True)
    )
    return [name.strip('" ') for name in statement.split(" ", 1)[1].rstrip(";").split(",")]


def _connect(*, autocommit: bool = False) -> psycopg.Connection:
    """A connection of its own to the test database, as another process would hold one."""
    database = settings.DATABASES["default"]
    return psycopg.connect(
        host=database["HOST"],
        port=database["PORT"] or 5432,
        user=database["USER"],
        password=database["PASSWORD"] or None,
        dbname=database["NAME"],
        autocommit=autocommit,
    )


def _waiting_truncate(server: psycopg.Connection, table: str) -> bool:
    """Whether another backend waits for an ACCESS EXCLUSIVE lock on ``table``."""
    row = server.execute(
        "SELECT count(*) FROM pg_locks WHERE relation = %s::regclass"
        " AND mode = 'AccessExclusiveLock' AND NOT granted",
        [table],
    ).fetchone()
    return bool(row and row[0])


def test_a_flush_cancelled_by_a_deadlock_runs_again_and_empties_the_tables() -> None:
    make_user()
    first, *_, last = _truncated_tables()
    failures: list[BaseException] = []
    holding = threading.Event()

    def transaction_at_work() -> None:
        """Reads the TRUNCATE's last table, then (once the TRUNCATE waits for it) its first.
        Its own deadlock check waits longer, so the TRUNCATE is the one PostgreSQL cancels."""
        try:
            with _connect() as server:
                server.execute("SET deadlock_timeout = '30s'")
                with server.transaction():
                    server.execute(f'SELECT count(*) FROM "{last}"')
                    holding.set()
                    with _connect(autocommit=True) as watcher:
                        deadline = time.monotonic() + 20
                        while not _waiting_truncate(watcher, last):
                            assert time.monotonic() < deadline, "the flush never waited"
                            time.sleep(0.02)
                    server.execute(f'SELECT count(*) FROM "{first}"')
        except BaseException as error:  # reported by the test's thread
            failures.append(error)

    worker = threading.Thread(target=transaction_at_work)
    with flush_outlasting_deadlocks(connection) as seen:
        worker.start()
        assert holding.wait(20)
        call_command("flush", interactive=False, verbosity=0)
        worker.join(30)

    assert not failures, failures
    assert seen.count == 1, seen.errors
    assert "deadlock detected" in seen.errors[0]
    assert not User.objects.exists()
