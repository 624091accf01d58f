"""A PostgreSQL cluster of one test (or drill) only: Debian's initdb/pg_ctl binaries, a temporary
directory, a free loopback port, trust auth. It can be stopped, started and restarted while a
server process keeps using it, which is what the restart drills need."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path


def postgres_bin() -> Path | None:
    """The newest installed server's bin directory (initdb, pg_ctl), if any."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PrivatePostgres:
    HOST = "127.0.0.1"

    def __init__(self, database: str = "drill", *, options: str = "") -> None:
        bindir = postgres_bin()
        if bindir is None:
            raise RuntimeError("no PostgreSQL server binaries (initdb)")
        self.bindir = bindir
        self.port = _free_port()
        self.database = database
        self.options = options  # more server settings, as " -c name=value" pairs
        self.root = Path(tempfile.mkdtemp(prefix="scoutvote-pg-"))
        self.data = self.root / "data"
        self.url = f"postgres://postgres@{self.HOST}:{self.port}/{database}"
        # initdb and postgres refuse to run as root: run them as the postgres user then.
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            self.as_user = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.root, user="postgres")

    def _run(self, *command: str, check: bool = True) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [*self.as_user, *command],
            check=check,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            cwd=self.root,
            timeout=120,
        )

    def create(self) -> None:
        self._run(
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--no-sync",
            "-E",
            "UTF8",
        )
        self.start()
        self._createdb()

    def _createdb(self) -> None:
        import psycopg

        with psycopg.connect(
            f"postgres://postgres@{self.HOST}:{self.port}/postgres", autocommit=True
        ) as conn:
            conn.execute(f"CREATE DATABASE {self.database}")

    def start(self) -> None:
        options = (
            f"-p {self.port} -c listen_addresses={self.HOST} -c unix_socket_directories={self.root}"
            " -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
            + self.options
        )
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def restart(self, down_for: float = 0.0) -> None:
        """Stop (closing every connection), stay down ``down_for`` seconds, start again."""
        self.stop()
        time.sleep(down_for)
        self.start()

    def destroy(self) -> None:
        with contextlib.suppress(Exception):
            self._run(
                str(self.bindir / "pg_ctl"),
                "-D",
                str(self.data),
                "-m",
                "immediate",
                "stop",
                check=False,
            )
        shutil.rmtree(self.root, ignore_errors=True)


def sql(url: str, statement: str) -> object:
    """The first column of the first row of ``statement`` (autocommit), or None."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        cursor = conn.execute(statement)
        row = cursor.fetchone() if cursor.description else None
    return row[0] if row else None


def replayed(standby: str, primary: str) -> bool:
    """Whether the standby has replayed everything the primary has written."""
    from project.common.replicas import lsn_value

    target = lsn_value(str(sql(primary, "SELECT pg_current_wal_insert_lsn()::text")))
    return lsn_value(str(sql(standby, "SELECT pg_last_wal_replay_lsn()::text"))) >= target


def wait_for(check: object, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


@contextlib.contextmanager
def streaming_pair(
    database: str = "scoutvote",
) -> Iterator[tuple[PrivatePostgres, PrivatePostgres]]:
    """A private primary and a hot standby streaming from it (pg_basebackup -R), both serving
    ``database``; both destroyed on the way out."""
    primary = PrivatePostgres(database)
    standby = PrivatePostgres(database)
    try:
        primary.create()
        sql(primary.url, "ALTER SYSTEM SET wal_level = 'replica'")
        primary.options += " -c full_page_writes=on"  # a base backup needs whole pages
        primary.restart()
        standby._run(
            str(standby.bindir / "pg_basebackup"),
            f"--host={primary.HOST}",
            f"--port={primary.port}",
            "--username=postgres",
            f"--pgdata={standby.data}",
            "--write-recovery-conf",
            "--wal-method=stream",
            "--checkpoint=fast",
        )
        standby.start()
        wait_for(lambda: sql(standby.url, "SELECT pg_is_in_recovery()") is True, "no standby")
        yield primary, standby
    finally:
        standby.destroy()
        primary.destroy()


class PrivateRedis:
    """A redis-server of one drill only, on a loopback port, without persistence (the same as
    tests/realtime/test_redis_outage.py's, importable without Django set up)."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        import redis

        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--daemonize", "no"]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
        )
        client = redis.Redis.from_url(self.url, socket_connect_timeout=0.5, socket_timeout=0.5)
        deadline = time.monotonic() + 10
        try:
            while True:
                with contextlib.suppress(redis.exceptions.ConnectionError):
                    if client.ping():
                        return
                assert self.process.poll() is None, "redis-server exited"
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)
        finally:
            client.close()

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        self.process = None
