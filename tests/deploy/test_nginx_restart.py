"""nginx's master killed with SIGKILL under load, in the production shape under supervisord.

Its workers outlive it and hold the port: the launcher (project/ops/nginx_start.py) stops
them before the new master binds, so supervisord starts nginx once, not in a loop, and a
reload (HUP) afterwards reaches the master that serves. A port that something else holds
ends in FATAL, visible in ``supervisorctl status``, after a few tries.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

import httpx
import pytest
from django.conf import settings

from project.ops.prodshape import HOST, ROOT, Shape, _children, running, shape_env, stop
from tests.deploy.shape_env import prefixed_keys_deleted
from tests.deploy.shape_env import shape_env as suite_env
from tests.helpers import unless_available

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    unless_available(
        not (os.environ.get("DATABASE_URL") and settings.REDIS_URL),
        reason="the production shape's processes share PostgreSQL and Redis",
    ),
]


def spawns(shape: Shape, program: str) -> int:
    """How many times supervisord started ``program`` (its log)."""
    log = (shape.run_dir / "supervisord.log").read_text(errors="replace")
    return log.count(f"spawned: '{program}'")


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie nobody reaped yet does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def status(shape: Shape, program: str) -> str:
    """``supervisorctl status``'s state of ``program`` (RUNNING, BACKOFF, FATAL, ...)."""
    done = subprocess.run(
        shape.ctl("status", program), cwd=ROOT, capture_output=True, text=True, timeout=30
    )
    return done.stdout.split()[1] if done.stdout.split()[1:] else ""


class Load:
    """Threads requesting a page through nginx without pause; the answers by status, and
    the connections that failed (refused, reset) counted apart."""

    def __init__(self, url: str, threads: int = 4) -> None:
        self.url = url
        self.statuses: Counter[int] = Counter()
        self.failed = 0
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.threads = [threading.Thread(target=self.run, daemon=True) for _ in range(threads)]

    def run(self) -> None:
        with httpx.Client(timeout=10) as client:
            while not self.stopping.is_set():
                try:
                    code = client.get(self.url).status_code
                except httpx.TransportError:
                    with self.lock:
                        self.failed += 1
                    time.sleep(0.02)
                    continue
                with self.lock:
                    self.statuses[code] += 1

    def __enter__(self) -> Load:
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join(15)


def test_a_master_killed_under_load_is_started_once_and_serves(tmp_path: Path) -> None:
    prefix = f"nginx-kill-test-{uuid.uuid4().hex[:12]}"
    shape = Shape(port=0, http_workers=1, ws_processes=1, run_dir=tmp_path / "run", drain_seconds=1)
    log = (tmp_path / "shape.log").open("ab")
    try:
        with (
            running(shape, suite_env(prefix), output=log.fileno(), timeout=240),
            Load(f"{shape.url}/healthz") as load,
        ):
            time.sleep(1)
            master = shape.pid("nginx")
            orphans = _children(master)
            assert orphans
            before = spawns(shape, "nginx")
            os.kill(master, signal.SIGKILL)
            killed_at = time.monotonic()
            # A new master runs, and the workers the killed one left are gone.
            while (
                shape.pid("nginx") in (0, master)
                or any(alive(pid) for pid in orphans)
                or not _children(shape.pid("nginx"))
            ):
                assert time.monotonic() - killed_at < 20, (spawns(shape, "nginx"), orphans)
                time.sleep(0.1)
            # Past nginx's startsecs: it stayed up, started once.
            time.sleep(6)
            new_master = shape.pid("nginx")
            assert status(shape, "nginx") == "RUNNING"
            assert spawns(shape, "nginx") == before + 1
            # The rolling restart's reload reaches the master that serves: new workers
            # take over and the old ones exit.
            shape.reload_nginx(timeout=30)
            assert shape.pid("nginx") == new_master
            served = load.statuses.total()
            time.sleep(1)
            assert load.statuses.total() > served  # still answering after the reload
    finally:
        log.close()
        prefixed_keys_deleted(prefix)
    shown = (tmp_path / "shape.log").read_text(errors="replace")[-3000:]
    # Every answer was the HTTP pool's, none a 5xx from nginx.
    assert set(load.statuses) == {200}, (load.statuses, load.failed, shown)


def test_a_port_held_by_another_program_ends_in_fatal(tmp_path: Path) -> None:
    """Something else listens on nginx's port: nginx cannot start, and after a few tries
    supervisord gives up (FATAL) rather than showing it RUNNING between failures."""
    holder = socket.socket()
    holder.bind((HOST, 0))
    holder.listen()
    port = holder.getsockname()[1]
    prefix = f"nginx-fatal-test-{uuid.uuid4().hex[:12]}"
    shape = Shape(
        port=port,
        http_workers=1,
        ws_processes=0,
        run_dir=tmp_path / "run",
        drain_seconds=1,
        graceful_seconds=1,
    )
    process = subprocess.Popen(
        shape.supervisor_command(),
        cwd=ROOT,
        env=shape_env(suite_env(prefix), shape),
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        states = []
        while (state := status(shape, "nginx") if shape.supervisor_socket.exists() else "") != (
            "FATAL"
        ):
            states.append(state)
            assert time.monotonic() < deadline, states
            time.sleep(0.5)
        assert "RUNNING" not in states
        assert spawns(shape, "nginx") == 4  # the first start and three retries
    finally:
        stop(process, timeout=20)
        holder.close()
        prefixed_keys_deleted(prefix)
