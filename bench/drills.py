"""Fault drills: a PostgreSQL restart and a Redis outage under load, a short soak,
and the memory of one process under 100 parallel registrations and sign-ins, and under 100
parallel avatar confirmations.

Every drill runs a real daphne process on a private PostgreSQL cluster (initdb in a temporary
directory, a free loopback port) and, for the Redis outage, a private redis-server; loops are
bounded by time and stay on 127.0.0.1. Figures per drill: requests, answers by status (500
must be 0), transport errors, events lost (counts a watching socket shows that differ from
the database at the end), reconnects per socket, recovery time (from the server's return to
the last failed answer) and whether every vote counter equals its rows afterwards.

    python bench/drills.py [--quick] [--no-write]

Needs PostgreSQL's server binaries (initdb, pg_ctl) and redis-server; nothing else running.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from typing import Any

import common

sys.path.insert(0, str(common.ROOT))

from devtools.drills import (
    Figures,
    avatar_memory_drill,
    hashing_memory_drill,
    postgres_restart_drill,
    redis_outage_drill,
)
from devtools.private_postgres import PrivateRedis, postgres_bin

SECTION = "## Fault drills (bench/drills.py)"


def table(rows: list[Figures]) -> str:
    head = (
        "| drill | requests | answers by status | 500 | transport errors | events lost "
        "| reconnects/socket | 2xx during outage | recovery s | counters = rows |"
    )
    lines = [head, "|" + "---|" * 10]
    for figures in rows:
        row = figures.row()
        statuses = ", ".join(f"{code}: {n}" for code, n in row["by status"].items())
        lines.append(
            f"| {row['drill']} | {row['requests']} | {statuses} | {row['500s']} "
            f"| {row['transport errors']} | {_dash(row['events lost'])} "
            f"| {_dash(row['reconnects/client'])} | {_dash(row['2xx during outage'])} "
            f"| {_dash(row['recovery s'])} | {_dash(row['counters = rows'])} |"
        )
    return "\n".join(lines)


def _dash(value: Any) -> str:
    return "-" if value is None else str(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="shorter drills")
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    args = parser.parse_args()
    if postgres_bin() is None or shutil.which("redis-server") is None:
        sys.exit("bench/drills.py needs PostgreSQL's server binaries (initdb) and redis-server")
    scale = 0.5 if args.quick else 1.0

    rows: list[Figures] = []
    print("PostgreSQL restart under votes...", flush=True)
    rows.append(
        postgres_restart_drill(
            voters=6, seconds=12 * scale, restart_at=3 * scale, down_for=3, watchers=20
        )
    )
    print("Redis outage under sign-ins and password changes...", flush=True)
    redis = PrivateRedis()
    redis.start()
    try:
        rows.append(
            redis_outage_drill(
                redis=redis,
                users=4,
                seconds=max(9, 14 * scale),
                stop_at=2,
                down_for=4,
                watchers=20,
            )
        )
    finally:
        redis.stop()
    print("Soak: votes and watching sockets, no fault...", flush=True)
    rows.append(
        postgres_restart_drill(
            voters=6, seconds=30 * scale, restart_at=None, watchers=50, name="Soak (no fault)"
        )
    )
    print("Password hashing: 100 parallel registrations, then 100 parallel sign-ins...")
    memory = hashing_memory_drill(parallel=100, concurrency=int(os.environ.get("HASHES", "4")))

    print("Avatars: 100 parallel confirmations of a 4000x4000 PNG...", flush=True)
    avatars = avatar_memory_drill(
        parallel=100, concurrency=int(os.environ.get("DECODES", "2")), side=4000
    )
    print(avatars, flush=True)

    ok = avatars["answers"] == {200: 100} and all(
        f.statuses.get(500, 0) == 0 and f.events_lost in (None, 0) and f.counters_equal_rows
        for f in rows
    )
    text = "\n".join(
        [
            SECTION,
            "",
            "One daphne process on a private PostgreSQL (and a private Redis for the outage), on "
            "this shared 2-core machine; drills bounded in time, loopback only. PostgreSQL: "
            "stopped 3 s mid-run, pool timeout 2 s. Redis: stopped 4 s mid-run (throttle cache "
            "and live layer). Reconnects are per watching socket (it backs off 0.5-1.5 s).",
            "",
            table(rows),
            "",
            "Password hashing (Argon2id 19 MiB, t=2, p=1; at most "
            f"{memory['hash concurrency']} hashes at once per process): idle "
            f"{memory['idle MiB']} MiB; peak {memory['peak MiB (registrations)']} MiB during "
            f"{memory['parallel']} parallel registrations and {memory['peak MiB (sign-ins)']} "
            f"MiB during {memory['parallel']} parallel sign-ins (growth "
            f"{memory['growth MiB']} MiB; {memory['registrations s']} s and "
            f"{memory['sign-ins s']} s for the bursts; answers {memory['answers']}). Before: "
            "Django's Argon2 defaults (100 MiB, p=8), unbounded, took a process from 174 to "
            "2,177 MiB with 30 registrations; with the bound but glibc's sliding mmap "
            "threshold 100 sign-ins still grew it by 568 MiB (see project/accounts/hashers.py).",
            "",
            f"Avatars ({avatars['image']}; at most {avatars['decode concurrency']} decoded at "
            f"once per process): {avatars['parallel']} parallel confirmations took the process "
            f"from {avatars['idle MiB']} MiB idle to a peak of {avatars['peak MiB']} MiB "
            f"(peak/idle {avatars['peak/idle']}) in {avatars['confirmations s']} s; answers "
            f"{avatars['answers']}; load average {avatars['load before']} before, "
            f"{avatars['load after']} after. Before the bound: 30 parallel confirmations of a "
            "4096x4096 PNG took a process from 159 to 2,214 MiB.",
            "",
            f"Result: {'PASS' if ok else 'FAIL'} (0 answers 500, 0 events lost, counters equal "
            "rows, every avatar confirmed).",
        ]
    )
    common.finish(SECTION, text, ok, write=not args.no_write)


if __name__ == "__main__":
    main()
