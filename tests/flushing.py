"""The flush that ends every ``transaction=True`` test, made to outlast a deadlock.

The browser tests' server (and the live layer's threads in other tests) can still be inside a
transaction when a test ends: a request the closed page had sent, a merger window closing.
PostgreSQL's TRUNCATE takes its ACCESS EXCLUSIVE locks one table at a time, so a transaction
that read a table late in its list and then reads one early in it closes a cycle. PostgreSQL
then cancels one of the two, and when it cancels the TRUNCATE the flush fails: its tables keep
their rows and the next test starts on another test's data (CI, stop 25). The cancelled flush
rolled back whole, and the transaction it waited for has gone on, so running it again is safe.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import OperationalError

ATTEMPTS = 5


def is_deadlock(error: OperationalError) -> bool:
    """PostgreSQL's SQLSTATE 40P01, whichever driver error Django wrapped."""
    return getattr(error.__cause__, "sqlstate", None) == "40P01"


@dataclass
class DeadlocksOutlasted:
    """How many flushes were cancelled by a deadlock and run again."""

    count: int = 0
    errors: list[str] = field(default_factory=list)


@contextmanager
def flush_outlasting_deadlocks(connection: Any) -> Iterator[DeadlocksOutlasted]:
    """While open, ``connection``'s flush runs again (up to ``ATTEMPTS`` times) when a deadlock
    cancels it. Every other error goes through unchanged."""
    ops = connection.ops
    outer = vars(ops).get("execute_sql_flush")  # an outer wrapper: put back, not stacked on
    original: Callable[[list[str]], None] = type(ops).execute_sql_flush.__get__(ops)
    seen = DeadlocksOutlasted()

    def execute_sql_flush(sql_list: list[str]) -> None:
        for attempt in range(1, ATTEMPTS + 1):
            try:
                original(sql_list)
                return
            except OperationalError as error:
                if not is_deadlock(error) or attempt == ATTEMPTS:
                    raise
                seen.count += 1
                seen.errors.append(str(error))
                time.sleep(0.1 * attempt)

    ops.execute_sql_flush = execute_sql_flush
    try:
        yield seen
    finally:
        if outer is not None:
            ops.execute_sql_flush = outer
        else:
            del ops.execute_sql_flush  # the class's method shows through again
