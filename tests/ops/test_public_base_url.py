"""The address the emails' links are made from (PUBLIC_BASE_URL): ``manage.py serve`` (``make
run``) gives its server and its worker its own port's, and a server with DEBUG off or
production settings refuses to start without it (a system check that every command, the
worker and ``migrate`` included, runs first)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test.utils import override_settings

from devtools.launcher import ROOT, free_port, spawn, stop_group, wait_until_accepting
from project.ops.management.commands.serve import served_env

PRODUCTION = {
    "DJANGO_ENV": "production",
    "DJANGO_SECRET_KEY": "p" * 20 + "-a-long-random-production-secret-" + "q" * 20,
    "DJANGO_ALLOWED_HOSTS": "scouting.example.com",
}


def manage(*arguments: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "PUBLIC_BASE_URL"}
    environment.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env={**environment, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_production_refuses_to_start_without_it() -> None:
    result = manage("check", **PRODUCTION)
    assert result.returncode != 0
    assert "notify.E001" in result.stderr and "PUBLIC_BASE_URL is not set" in result.stderr
    # The worker (which sends the emails) runs the same checks before it starts.
    worker = manage("run_worker", "--batch", **PRODUCTION)
    assert worker.returncode != 0
    assert "PUBLIC_BASE_URL is not set" in worker.stderr


@pytest.mark.parametrize(
    ("debug", "value", "error"),
    [
        (False, "", "PUBLIC_BASE_URL is not set"),
        (False, "scoutvote.example", "PUBLIC_BASE_URL must be an origin"),
        (False, "https://scoutvote.example/app", "PUBLIC_BASE_URL must be an origin"),
        (True, "ftp://scoutvote.example", "PUBLIC_BASE_URL must be an origin"),
        (False, "https://scoutvote.example", None),
        (False, "http://127.0.0.1:9000", None),
        (True, "", None),
    ],
)
def test_the_check_with_debug_off_or_on(debug: bool, value: str, error: str | None) -> None:
    with override_settings(DEBUG=debug, PUBLIC_BASE_URL=value):
        if error is None:
            call_command("check", stdout=io.StringIO())
        else:
            with pytest.raises(SystemCheckError, match=error):
                call_command("check", stdout=io.StringIO())


def test_production_starts_with_it() -> None:
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        PUBLIC_BASE_URL="https://scoutvote.example",
        **PRODUCTION,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_served_env_keeps_an_address_it_is_given() -> None:
    given = served_env({"PUBLIC_BASE_URL": "https://scoutvote.example"}, host="127.0.0.1", port=9)
    assert given["PUBLIC_BASE_URL"] == "https://scoutvote.example"
    assert served_env({}, host="0.0.0.0", port=9000)["PUBLIC_BASE_URL"] == "http://127.0.0.1:9000"
    assert served_env({}, host="::1", port=9000)["PUBLIC_BASE_URL"] == "http://[::1]:9000"


def _environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    pairs = (entry.decode().partition("=") for entry in raw if entry)
    return {name: value for name, _, value in pairs}


def _children(pid: int) -> list[int]:
    tasks = Path(f"/proc/{pid}/task")
    found: list[int] = []
    for task in tasks.iterdir():
        children = (task / "children").read_text().split()
        found += [int(child) for child in children]
    return found


def test_serve_gives_its_server_and_worker_its_own_port(tmp_path: Path) -> None:
    """``make run`` on another port than 8000: the daphne process and the worker it starts
    both have that port's address as PUBLIC_BASE_URL."""
    env = {k: v for k, v in os.environ.items() if k not in ("PUBLIC_BASE_URL", "DATABASE_URL")}
    env.pop("REDIS_URL", None)
    env["SQLITE_PATH"] = str(tmp_path / "serve.sqlite3")
    migrated = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert migrated.returncode == 0, migrated.stderr
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    process = spawn([sys.executable, "manage.py", "serve", "--port", str(port)], env, output=log)
    try:
        wait_until_accepting(process, port, 60, "manage.py serve")
        children = _children(process.pid)
        assert len(children) == 2, children  # daphne and the worker
        commands = {pid: Path(f"/proc/{pid}/cmdline").read_bytes() for pid in children}
        assert any(b"daphne" in command for command in commands.values())
        assert any(b"run_worker" in command for command in commands.values())
        for pid in children:
            assert _environ(pid)["PUBLIC_BASE_URL"] == f"http://127.0.0.1:{port}"
    finally:
        stop_group(process, 20)
        log.close()
