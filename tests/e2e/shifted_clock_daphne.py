"""Runs daphne with the process's wall clock moved (browser tests only).

    python -m tests.e2e.shifted_clock_daphne <unix seconds> <control file> <daphne arguments...>

The process's clock (``time.time``, ``datetime.now``...) starts at the given moment and runs on
at the real pace (time-machine with ``tick=True``). A test moves it on command: it writes a
new moment (Unix seconds) to the control file, and the process moves its clock there and
answers by writing the same text to ``<control file>.done``. So a week boundary comes when the
test is ready for it, however long the machine took to open its screens, while the test, the
browser and the database keep the real time. Monotonic clocks are left alone, so every timeout
and wait lasts what it says. Nothing in the project knows about it: the server's own code (its
summaries timer included) runs unchanged.
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import time_machine
from daphne.cli import CommandLineInterface

# How often the control file is read: far below the second the tests allow for a push.
POLL_SECONDS = 0.05


def follow_commands(traveller: time_machine.Traveller, control: Path) -> None:
    """Moves the clock to each new moment written to ``control`` and acknowledges it."""
    done = control.with_name(control.name + ".done")
    applied = ""
    stop = threading.Event()
    while not stop.wait(POLL_SECONDS):
        try:
            asked = control.read_text().strip()
        except FileNotFoundError:
            continue
        if asked and asked != applied:
            traveller.move_to(float(asked))
            applied = asked
            done.write_text(asked)


def main() -> None:
    start, control = float(sys.argv[1]), Path(sys.argv[2])
    with time_machine.travel(start, tick=True) as traveller:
        threading.Thread(
            target=follow_commands, args=(traveller, control), name="clock-commands", daemon=True
        ).start()
        CommandLineInterface().run(sys.argv[3:])


if __name__ == "__main__":
    main()
