"""The one server launcher of the tests and the benchmarks (devtools/launcher.py): ready
once it accepts connections, a failed start said at once, and a stop that reaches the whole
group."""

from __future__ import annotations

import os
import socket
import sys
import textwrap
import time
from pathlib import Path

import pytest

from devtools import drills, launcher
from devtools.launcher import HOST, ServerProcess, daphne_command, free_port, running

# A server that also starts a child of its own, which prints its pid and outlives a parent
# killed alone.
PARENT_AND_CHILD = textwrap.dedent(
    """
    import socket, subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    print(child.pid, flush=True)
    server = socket.socket()
    server.bind(("127.0.0.1", int(sys.argv[1])))
    server.listen()
    while True:
        server.accept()[0].close()
    """
)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is gone for our purpose: it has exited and waits for its parent to reap it.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split(") ")[1][0] != "Z"


def gone_within(pid: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while alive(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def test_a_server_is_ready_once_it_accepts_and_its_stop_ends_its_children(
    tmp_path: Path,
) -> None:
    port = free_port()
    output = (tmp_path / "server.log").open("w+b")
    command = [sys.executable, "-c", PARENT_AND_CHILD, str(port)]
    with running(command, port, os.environ, output=output) as server:
        with socket.create_connection((HOST, port), 1):
            pass  # accepting already: start() returned only once it did
        output.seek(0)
        child = int(output.readline())
        assert alive(server.pid) and alive(child)
        parent = server.pid
    assert server.process is None
    assert not alive(parent)
    # SIGTERM went to the process group: the child the server started goes too (another
    # process's exit, so this looks again for a moment).
    assert gone_within(child, 5.0)


def test_a_server_that_exits_before_it_listens_fails_its_start_at_once() -> None:
    port = free_port()
    server = ServerProcess([sys.executable, "-c", "raise SystemExit(3)"], port, os.environ)
    with pytest.raises(RuntimeError, match="exited with 3 before it listened"):
        server.start()


def test_daphne_runs_the_production_command_directly_or_through_a_wrapper() -> None:
    direct = daphne_command(8123)
    assert direct[1:3] == ["-m", "daphne"]
    assert direct[-5:] == ["-b", HOST, "-p", "8123", "project.asgi:application"]
    wrapped = daphne_command(8123, via=["tests.e2e.shifted_clock_daphne", "1700000000.0"])
    assert wrapped[1:4] == ["-m", "tests.e2e.shifted_clock_daphne", "1700000000.0"]
    assert wrapped[4:] == direct[3:]


def test_the_launcher_runs_servers_from_the_repository_root() -> None:
    """Servers start in the repository's root (manage.py, the dev secret, frontend/dist)."""
    assert (launcher.ROOT / "manage.py").is_file()
    assert drills.ROOT == launcher.ROOT
