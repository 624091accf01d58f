"""The restore drill: a private PostgreSQL archived by pgBackRest with the deployment's
configuration (deploy/backup/pgbackrest.conf, encrypted and compressed) is backed up, written
to, and restored to a moment between two rounds of votes; the product then starts on it, its
counters equal their rows, its boards recomputed equal the stored ones, and it takes new
votes."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import pytest

from devtools.drills import PASSWORD, ROOT, _env, daphne, seed, signed_in
from devtools.private_postgres import PrivatePostgres, postgres_bin
from tests.helpers import unless_available

pytestmark = [
    pytest.mark.slow,
    # A PostgreSQL drill: it runs in the pass with DATABASE_URL set.
    unless_available(
        not os.environ.get("DATABASE_URL")
        or postgres_bin() is None
        or shutil.which("pgbackrest") is None,
        reason="PostgreSQL, its server binaries (initdb) and pgbackrest",
    ),
]

STANZA = "scoutvote"


class Archived:
    """A private cluster whose WAL pgBackRest archives into a repository beside it."""

    def __init__(self) -> None:
        self.pg = PrivatePostgres("scoutvote")
        self.root = Path(tempfile.mkdtemp(prefix="scoutvote-backup-"))
        self.config = self.root / "pgbackrest.conf"

    def create(self) -> None:
        self.pg.create()
        # The deployment's configuration, with this drill's paths.
        config = configparser.ConfigParser(interpolation=None)
        config.read(ROOT / "deploy" / "backup" / "pgbackrest.conf")
        config["global"].update(
            {
                "repo1-path": str(self.root / "repo"),
                "log-path": str(self.root),
                "lock-path": str(self.root),
                "log-level-console": "error",
                "log-level-file": "off",
            }
        )
        config[STANZA].update(
            {
                "pg1-path": str(self.pg.data),
                "pg1-port": str(self.pg.port),
                "pg1-socket-path": str(self.pg.root),
            }
        )
        with self.config.open("w") as file:
            config.write(file)
        if self.pg.as_user:
            shutil.chown(self.root, user="postgres")
            shutil.chown(self.config, user="postgres")
        archive = f"pgbackrest --config={self.config} --stanza={STANZA} archive-push %p"
        self.sql(
            "ALTER SYSTEM SET wal_level = 'replica'",
            "ALTER SYSTEM SET archive_mode = 'on'",
            f"ALTER SYSTEM SET archive_command = '{archive}'",
        )
        # A backup of a cluster that is being written needs whole pages in the WAL.
        self.pg.options = " -c full_page_writes=on"
        self.pg.restart()
        self.pgbackrest("stanza-create")
        self.pgbackrest("check")

    def sql(self, *statements: str) -> list[tuple[object, ...]]:
        rows: list[tuple[object, ...]] = []
        with psycopg.connect(self.pg.url, autocommit=True) as conn:
            for statement in statements:
                cursor = conn.execute(statement)
                rows = cursor.fetchall() if cursor.description else []
        return rows

    def pgbackrest(self, *command: str) -> None:
        done = subprocess.run(
            [
                *self.pg.as_user,
                "pgbackrest",
                f"--config={self.config}",
                f"--stanza={STANZA}",
                *command,
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr + done.stdout

    def destroy(self) -> None:
        self.pg.destroy()
        shutil.rmtree(self.root, ignore_errors=True)


def vote_round(port: int, voters: list[str], nominations: list[int]) -> None:
    for username in voters:
        client = signed_in(port, username)
        try:
            for nomination in nominations:
                response = client.post("/api/votes", json={"nominationId": nomination})
                assert response.status_code == 201, response.text
        finally:
            client.close()


def manage(env: dict[str, str], *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *command],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_restore_to_a_point_in_time_gives_back_a_working_product() -> None:
    drill = Archived()
    try:
        drill.create()
        env = _env(drill.pg.url)
        nominations = seed(env, voters=4, nominations=3)
        with daphne(env) as (port, _):
            vote_round(port, ["drill0"], nominations)
            drill.pgbackrest("backup", "--type=full")
            vote_round(port, ["drill1", "drill2"], nominations)  # after the backup: from WAL
            time.sleep(1)
            ((target,),) = drill.sql("SELECT now()::text")
            time.sleep(1)
            vote_round(port, ["drill3"], nominations)  # after the target: must not come back
        drill.pgbackrest("check")  # switches to a new WAL segment and waits for its archive
        assert drill.sql("SELECT count(*) FROM scouting_vote") == [(12,)]

        drill.pg.stop()
        drill.pgbackrest(
            "restore", "--delta", "--type=time", f"--target={target}", "--target-action=promote"
        )
        drill.pg.start()
        deadline = time.monotonic() + 60
        while drill.sql("SELECT pg_is_in_recovery()") != [(False,)]:
            assert time.monotonic() < deadline, "recovery did not end"
            time.sleep(0.2)

        assert drill.sql("SELECT count(*) FROM scouting_vote") == [(9,)]
        assert drill.sql(
            "SELECT DISTINCT vote_count FROM scouting_nomination ORDER BY vote_count"
        ) == [(3,)]
        checked = manage(env, "boards_check")
        assert checked.returncode == 0, checked.stderr
        assert "Every counter equals its rows (3 nominations)." in checked.stdout
        with daphne(env) as (port, _):
            client = signed_in(port, "drill3", PASSWORD)
            listed = client.get("/api/nominations")
            assert listed.status_code == 200
            assert {item["voteCount"] for item in listed.json()} == {3}
            voted = client.post("/api/votes", json={"nominationId": nominations[0]})
            assert voted.status_code == 201, voted.text
            mine = client.get(f"/api/nominations/{nominations[0]}").json()
            client.close()
            assert mine["voteCount"] == 4 and mine["hasVoted"] is True
        assert manage(env, "boards_check").returncode == 0
    finally:
        drill.destroy()
