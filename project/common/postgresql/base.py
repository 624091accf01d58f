"""Django's PostgreSQL backend (``ENGINE`` ``project.common.postgresql``), its pool checking
each connection it hands out without a round trip.

After a PostgreSQL restart every pooled connection is dead, and a request handed one fails with
"server closed the connection". psycopg_pool's ``ConnectionPool.check_connection``
(Django's ``CONN_HEALTH_CHECKS``) sends an empty query on every checkout: a round trip per
request, which under a crowd's votes waits its turn for the CPU like any other. A
server that ends a connection (shutdown, restart, ``pg_terminate_backend``, idle timeouts)
writes its FATAL message and closes the socket, so the connection's socket turns readable; an
idle connection otherwise has nothing to read. So this check asks the kernel, not the server
(as go-sql-driver/mysql's ``connCheck`` does): a readable or broken connection is thrown away
and the pool hands out another. What it cannot see (a server gone without closing the socket:
a network cut) the first statement sees, as with the empty query it would have timed out.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg.pq import ConnStatus, TransactionStatus


def connection_alive(connection: psycopg.Connection) -> None:
    """Raise when ``connection`` cannot serve a request: closed, broken, not idle, or with
    something from the server waiting to be read (its goodbye)."""
    if connection.closed or connection.broken:
        raise psycopg.OperationalError("the connection is closed")
    pgconn = connection.pgconn
    if pgconn.status != ConnStatus.OK or pgconn.transaction_status != TransactionStatus.IDLE:
        raise psycopg.OperationalError("the connection is not idle")
    poller = select.poll()
    poller.register(pgconn.socket, select.POLLIN | select.POLLPRI)
    if poller.poll(0):
        # Closed here, so the pool throws it away and opens another: libpq has not seen the
        # goodbye yet, and a connection it still holds as open would go back to the pool and
        # be refused again on every checkout.
        connection.close()
        raise psycopg.OperationalError("the server has closed the connection")


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's, with ``connection_alive`` as its pool's check. Django gives the pool psycopg's
    round-trip check with ``CONN_HEALTH_CHECKS`` and none without (a ``check`` pool option is
    then given twice: TypeError), so the check is set on the pool Django built, which
    psycopg_pool keeps as ``_check`` and calls on every checkout (tests/ops/test_pool_check.py
    holds both to it)."""

    @property
    def pool(self) -> Any:
        pool = super().pool
        if pool is not None and pool._check is None:
            pool._check = connection_alive
        return pool
