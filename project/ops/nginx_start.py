"""Start nginx for a run of the production shape, after the workers of an earlier master of
the same run have let go of its port.

nginx's workers outlive a master killed with SIGKILL (or by the OOM killer): they keep the
listening socket and go on serving what they had, and a new master cannot bind the port, so
supervisord would restart it in a loop. supervisord starts each program in a process group of
its own, led by the pid it spawned; this launcher is that pid, notes it in the run directory
(``nginx.master``) and replaces itself with nginx, so nginx's master and its workers are that
group. At the next start the launcher finds what is left of the group noted last (only nginx
processes of it), asks those workers to stop gracefully (SIGQUIT: each closes its listening
socket at once and finishes its connections within nginx's ``worker_shutdown_timeout``), waits
until the port can be bound and then starts nginx; a worker that still holds the port after
``--wait`` seconds is killed.

    python -m project.ops.nginx_start --run-dir DIR --listen HOST:PORT -- nginx -p DIR ...
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import socket
import sys
import time
from pathlib import Path

logger = logging.getLogger(__name__)

MASTER_FILE = "nginx.master"


def group_members(group: int) -> list[int]:
    """The nginx processes (by their name) in process group ``group``, from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, IndexError, ValueError):
            stat = (entry / "stat").read_text()
            name = stat[stat.index("(") + 1 : stat.rindex(")")]
            pgrp = int(stat.rsplit(")", 1)[1].split()[2])
            if pgrp == group and name == "nginx":
                found.append(int(entry.name))
    return found


def port_free(host: str, port: int) -> bool:
    """Whether nothing listens on host:port (bound as nginx binds it, with SO_REUSEADDR)."""
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def _signal(pids: list[int], signum: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signum)


def end_previous(run_dir: Path, host: str, port: int, wait: float) -> list[int]:
    """Stop the nginx processes left of the master noted in ``run_dir`` until host:port is
    free (SIGQUIT, then SIGKILL after ``wait`` seconds); answer the pids found."""
    noted = run_dir / MASTER_FILE
    try:
        group = int(noted.read_text().strip())
    except (OSError, ValueError):
        return []
    # A pid is not given out again while a process group of that id exists: what is found
    # in the group is what the noted master left, never an unrelated process.
    if group == os.getpid():
        return []
    left = group_members(group)
    if not left:
        return []
    logger.warning(
        "nginx: %d process(es) of an earlier master (group %d) still run: stopping them "
        "gracefully before starting",
        len(left),
        group,
    )
    _signal(left, signal.SIGQUIT)
    deadline = time.monotonic() + wait
    while not port_free(host, port) and group_members(group):
        if time.monotonic() > deadline:
            logger.warning("nginx: the earlier workers still hold port %d: killing them", port)
            _signal(group_members(group), signal.SIGKILL)
            kill_deadline = time.monotonic() + 5
            while group_members(group) and time.monotonic() < kill_deadline:
                time.sleep(0.05)
            break
        time.sleep(0.05)
    return left


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run-dir", type=Path, required=True)
    parser.add_argument("--listen", required=True, help="HOST:PORT nginx listens on")
    parser.add_argument("--wait", type=float, default=10.0)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    arguments = parser.parse_args(argv)
    command = arguments.command[1:] if arguments.command[:1] == ["--"] else arguments.command
    if not command:
        parser.error("the nginx command follows --")
    host, _, port = arguments.listen.rpartition(":")
    logging.basicConfig(stream=sys.stderr, format="%(message)s")
    end_previous(arguments.run_dir, host, int(port), arguments.wait)
    (arguments.run_dir / MASTER_FILE).write_text(f"{os.getpid()}\n", encoding="utf-8")
    os.execv(command[0], command)  # noqa: S606  (nginx, from the shape's own configuration)


if __name__ == "__main__":
    main()
