"""Runs daphne with the process's wall clock moved (browser tests only).

    python -m tests.e2e.shifted_clock_daphne <unix seconds> <daphne arguments...>

The process's clock (``time.time``, ``datetime.now``...) starts at the given moment and runs on
at the real pace (time-machine with ``tick=True``): a week boundary can be seconds away for
this one server while the test, the browser and the database keep the real time. Monotonic
clocks are left alone, so every timeout and wait lasts what it says. Nothing in the project
knows about it: the server's own code (its summaries timer included) runs unchanged.
"""

from __future__ import annotations

import sys

import time_machine
from daphne.cli import CommandLineInterface


def main() -> None:
    start = float(sys.argv[1])
    with time_machine.travel(start, tick=True):
        CommandLineInterface().run(sys.argv[2:])


if __name__ == "__main__":
    main()
