"""Reads from a streaming replica: what share of a read load's queries the replica answers,
and the reads' p99 with the replica against the primary alone, in one run.

    python bench/replica_reads.py [--requests 100] [--no-write]

Starts a private primary and a hot standby streaming from it (``streaming_pair`` in
devtools/private_postgres.py), migrates and seeds the primary (members, approved
nominations, votes through the vote service), waits until the standby has replayed it all,
and sets ``DATABASE_REPLICA_URLS`` to the standby. Then bench/reads.py's community read calls
(the list and its second page, needing-votes, the boards, stats, the feed) go through
Django's test client in this process, signed in as a member who has not written: each call
``--requests`` times with the replica and as many with the primary alone (the router does not
see the replica: the baseline), turn about, call by call, so both see the same load.

Printed: the share of the read calls' SQL statements the replica ran (counted on both
connections in a pass of its own; target at least 80%), and each call's p99 and median
with the replica against the primary alone (target: p99 unchanged, within 10% over all
calls), with the machine's load. Written to bench/RESULTS.md under "## Reads from a replica".
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import reads
from common import ROOT, django_setup, finish, percentile

SECTION = "## Reads from a replica"
NAME = "scouting_bench_replica"
SHARE_BAR = 0.8
P99_BAR = 1.1
CALLS = {
    name: path
    for name, path in reads.CALLS.items()
    if path is not None and "weekly-history" not in path
}


@contextlib.contextmanager
def primary_only() -> Iterator[None]:
    """The router without the replica (project/common/replicas.py reads the replica aliases
    from settings.DATABASES on each request): every read on the primary."""
    from django.conf import settings

    hidden = {
        alias: settings.DATABASES.pop(alias)
        for alias in list(settings.DATABASES)
        if alias.startswith("replica")
    }
    try:
        yield
    finally:
        settings.DATABASES.update(hidden)


def seed_votes(nominations: list[int], voters: int) -> None:
    """Votes through the vote service, so the boards, stats and feed have rows to read."""
    from project.accounts.models import User
    from project.scouting.services.votes import vote_cast

    users = list(User.objects.filter(username__startswith="drill").order_by("pk")[:voters])
    for i, user in enumerate(users):
        for nomination in nominations[i % 7 :: 7][:5]:
            vote_cast(user=user, nomination_id=nomination)


def statements(call: Callable[[], Any]) -> dict[str, int]:
    """SQL statements one call ran, by connection."""
    from django.db import connections
    from django.test.utils import CaptureQueriesContext

    with contextlib.ExitStack() as stack:
        captured = {
            alias: stack.enter_context(CaptureQueriesContext(connections[alias]))
            for alias in connections
        }
        call()
    return {alias: len(queries) for alias, queries in captured.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--voters", type=int, default=60)
    parser.add_argument("--nominations", type=int, default=120)
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    args = parser.parse_args()

    import sys

    sys.path.insert(0, str(ROOT))
    from devtools.drills import seed
    from devtools.private_postgres import replayed, streaming_pair, wait_for

    load_before = os.getloadavg()
    with streaming_pair(NAME) as (primary, standby):
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "project.settings",
            "PYTHONPATH": str(ROOT),
            "DATABASE_URL": primary.url,
            "BUDGETS": "off",
        }
        env.pop("DATABASE_REPLICA_URLS", None)
        nominations = seed(env, voters=args.voters, nominations=args.nominations)
        os.environ["DATABASE_URL"] = primary.url
        os.environ["DATABASE_REPLICA_URLS"] = standby.url
        django_setup(migrate=())
        seed_votes(nominations, args.voters)
        wait_for(lambda: replayed(standby.url, primary.url), "the standby did not catch up", 120)

        from django.test import Client

        from project.accounts.models import User

        client = Client()
        client.force_login(User.objects.get(username="drill0"))
        # Signed in through force_login, a write of this process: not a request's, so the
        # client has no WAL cookie and its reads may go to the replica, as a reader's do.
        client.cookies.pop("scoutvote_wal", None)

        def call(path: str) -> Callable[[], Any]:
            def run() -> Any:
                response = client.get(path)
                assert response.status_code == 200, (path, response.status_code)
                return response

            return run

        counted: dict[str, int] = {}
        for path in CALLS.values():
            for _ in range(3):
                for alias, n in statements(call(path)).items():
                    counted[alias] = counted.get(alias, 0) + n
        on_replica = sum(n for alias, n in counted.items() if alias.startswith("replica"))
        share = on_replica / max(1, sum(counted.values()))

        rows: list[tuple[str, float, float, float, float]] = []
        for name, path in CALLS.items():
            run = call(path)
            for _ in range(5):  # warm-ups, each way
                run()
                with primary_only():
                    run()
            timed: dict[str, list[float]] = {"replica": [], "primary": []}
            for i in range(args.requests):
                for way in ("replica", "primary") if i % 2 == 0 else ("primary", "replica"):
                    with primary_only() if way == "primary" else contextlib.nullcontext():
                        started = time.perf_counter()
                        run()
                        timed[way].append((time.perf_counter() - started) * 1000)
            rows.append(
                (
                    name,
                    percentile(timed["replica"], 99),
                    percentile(timed["primary"], 99),
                    statistics.median(timed["replica"]),
                    statistics.median(timed["primary"]),
                )
            )
            print(
                f"  {name:<36} p99 {rows[-1][1]:7.2f} ms (replica) {rows[-1][2]:7.2f} ms (primary)"
            )
        from django.db import connections

        connections.close_all()
    load_after = os.getloadavg()

    p99_ratio = statistics.mean(r[1] for r in rows) / max(1e-9, statistics.mean(r[2] for r in rows))
    median_ratio = statistics.mean(r[3] for r in rows) / max(
        1e-9, statistics.mean(r[4] for r in rows)
    )
    checks = {
        f"share of the read calls' statements on the replica at least {SHARE_BAR:.0%}": share
        >= SHARE_BAR,
        f"p99 with the replica within {P99_BAR:g}x of the primary alone": p99_ratio <= P99_BAR,
    }
    lines = [
        SECTION,
        "",
        f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `bench/replica_reads.py`: a private "
        "primary and a hot standby streaming from it on this machine, "
        f"{args.voters} members, {args.nominations} approved nominations and their votes; "
        f"{len(CALLS)} read calls of bench/reads.py through Django's test client, signed in as "
        f"a member who has not written, {args.requests} times each with the replica and with "
        "the primary alone (the router not seeing the replica), turn about.",
        "",
        "| call | p99 ms, replica | p99 ms, primary alone | median ms, replica "
        "| median ms, primary alone |",
        "|---|---:|---:|---:|---:|",
        *(f"| {n} | {a:.2f} | {b:.2f} | {c:.2f} | {d:.2f} |" for n, a, b, c, d in rows),
        "",
        f"- statements of the read calls by connection: {dict(sorted(counted.items()))}; "
        f"on the replica: **{share:.0%}** (target: at least {SHARE_BAR:.0%})",
        f"- p99 with the replica / primary alone, mean over the calls: **{p99_ratio:.2f}** "
        f"(target: at most {P99_BAR:g}); medians: {median_ratio:.2f}",
        f"- load average (1, 5, 15 min) before: {', '.join(f'{x:.2f}' for x in load_before)}; "
        f"after: {', '.join(f'{x:.2f}' for x in load_after)}",
        "",
        *(f"- {name}: {'PASS' if ok else 'FAIL'}" for name, ok in checks.items()),
    ]
    finish(SECTION, "\n".join(lines) + "\n", all(checks.values()), write=not args.no_write)


if __name__ == "__main__":
    main()
