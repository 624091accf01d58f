"""``manage.py serve``: the embedded product on one daphne process (``make run``) and the
background worker beside it (emails, periodic jobs), announced once it listens, so a new user
sees where to go and how to sign in."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from project.ops.management.commands.seed_demo import demo_sign_in


def _listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


def served_env(environ: Mapping[str, str], *, host: str, port: int) -> dict[str, str]:
    """The server's and the worker's environment: PUBLIC_BASE_URL, unless it is set, is this
    server's own address, so the emails the worker sends link to the port it serves."""
    env = dict(environ)
    if not env.get("PUBLIC_BASE_URL"):
        shown = "127.0.0.1" if host in ("", "0.0.0.0", "::") else host  # noqa: S104
        shown = f"[{shown}]" if ":" in shown else shown
        env["PUBLIC_BASE_URL"] = f"http://{shown}:{port}"
    return env


class Command(BaseCommand):
    help = "Serve the product with daphne and print its address once it listens."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)

    def handle(self, *args: Any, host: str, port: int, **options: Any) -> None:
        if _listening(host, port):
            raise CommandError(f"Port {port} is already in use: try PORT=9000 make run")
        command = [sys.executable, "-m", "daphne", "-b", host, "-p", str(port)]
        env = served_env(os.environ, host=host, port=port)
        server = subprocess.Popen([*command, "project.asgi:application"], env=env)  # noqa: S603
        worker = subprocess.Popen([sys.executable, "manage.py", "run_worker"], env=env)

        def stop(*_: Any) -> None:
            server.terminate()
            worker.terminate()

        signal.signal(signal.SIGTERM, stop)
        try:
            while server.poll() is None and not _listening(host, port):
                time.sleep(0.1)
            if server.poll() is None:
                self.stdout.write(
                    self.style.SUCCESS(f"ScoutVote is running on http://{host}:{port}")
                    + f"\n{demo_sign_in()} Ctrl-C stops it."
                )
            server.wait()
        except KeyboardInterrupt:
            server.terminate()
            server.wait()
        finally:
            worker.terminate()
            worker.wait()
        if server.returncode not in (0, -signal.SIGTERM, -signal.SIGINT, None):
            raise CommandError(f"daphne exited with {server.returncode}")
