"""One way to run a server process, shared by the tests and the benchmarks (bench/common.py):
daphne with the production shape's command (project/ops/prodshape.py), in a process group of
its own, ready once it accepts connections, stopped as a group (SIGTERM, then SIGKILL).

Plain functions and the standard library only, so ``python bench/<name>.py`` imports it without
pytest or Django settings.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return int(probe.getsockname()[1])


def daphne_command(port: int, *, via: Sequence[str] = ()) -> list[str]:
    """One daphne process serving project.asgi on HOST:port: the command the production shape
    runs behind its proxy. ``via``: a module that runs daphne's command line, and its own
    arguments before daphne's (tests/e2e/shifted_clock_daphne.py)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from project.ops.prodshape import daphne

    python, run_module, module, *arguments = daphne(port)
    assert (run_module, module) == ("-m", "daphne"), "prodshape.daphne changed its form"
    return [python, "-m", *via, *arguments] if via else [python, "-m", module, *arguments]


class ServerProcess:
    """A server on a loopback port that can be started, stopped and started again."""

    def __init__(
        self,
        command: list[str],
        port: int,
        env: Mapping[str, str],
        *,
        name: str = "server",
        output: IO[bytes] | int | None = subprocess.DEVNULL,
        start_timeout: float = 30.0,
        stop_timeout: float = 10.0,
    ) -> None:
        self.command, self.port, self.env, self.name = command, port, dict(env), name
        self.output = output
        self.start_timeout, self.stop_timeout = start_timeout, stop_timeout
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int:
        assert self.process is not None, f"{self.name} is not running"
        return self.process.pid

    def start(self) -> None:
        """Starts the process and returns once it accepts connections on its port; fails if
        it exits first or takes longer than ``start_timeout``."""
        self.process = spawn(self.command, self.env, output=self.output)
        wait_until_accepting(self.process, self.port, self.start_timeout, self.name)

    def stop(self) -> None:
        if self.process is not None:
            stop_group(self.process, self.stop_timeout)
            self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()


def spawn(
    command: list[str], env: Mapping[str, str], *, output: IO[bytes] | int | None
) -> subprocess.Popen[bytes]:
    """``command`` started from the repository's root in a process group of its own (so
    stop_group reaches its children too), its output and errors to ``output`` (None: this
    process's)."""
    return subprocess.Popen(
        command,
        cwd=ROOT,
        env=dict(env),
        start_new_session=True,
        stdout=output,
        stderr=subprocess.STDOUT if output is not None else None,
    )


def wait_until_accepting(
    process: subprocess.Popen[bytes], port: int, timeout: float, name: str = "server"
) -> None:
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), 0.2):
            return
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode} before it listened")
        if time.monotonic() > deadline:
            stop_group(process, 5)
            raise RuntimeError(f"{name} did not listen on port {port} within {timeout:.0f} s")
        # Another process binding its port: nothing to await but the next connection try.
        time.sleep(0.05)


def stop_group(process: subprocess.Popen[bytes], timeout: float) -> None:
    """SIGTERM to the process's group (or to the process, if it leads none), SIGKILL after
    ``timeout`` seconds; returns once it has exited."""

    def signal_it(signum: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError):  # already gone (a test may kill it)
            if os.getpgid(process.pid) == process.pid:
                os.killpg(process.pid, signum)
            else:
                process.send_signal(signum)

    signal_it(signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        signal_it(signal.SIGKILL)
        process.wait()


@contextlib.contextmanager
def running(
    command: list[str],
    port: int,
    env: Mapping[str, str],
    *,
    output: IO[bytes] | int | None = subprocess.DEVNULL,
    start_timeout: float = 30.0,
) -> Iterator[ServerProcess]:
    """``command`` running and accepting on ``port`` inside the block; stopped on the way out."""
    server = ServerProcess(command, port, env, output=output, start_timeout=start_timeout)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def daphne(
    env: Mapping[str, str],
    *,
    output: IO[bytes] | int | None = subprocess.DEVNULL,
    start_timeout: float = 30.0,
) -> Iterator[ServerProcess]:
    """A daphne process on a free port with ``env``."""
    port = free_port()
    server = ServerProcess(
        daphne_command(port), port, env, name="daphne", output=output, start_timeout=start_timeout
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()
