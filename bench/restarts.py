"""A rolling restart under load: every daphne process, every HTTP worker and nginx restarted
in turn (supervisord, signals) while members vote and sockets watch, with the drain on SIGTERM
(REALTIME_DRAIN_SECONDS) spreading each process's sockets over its window.

    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/restarts.py
        [--sockets 1000] [--voters 8] [--rate 20] [--drain 10] [--no-write] [--log FILE]

Drops and creates the database ``scouting_bench_restarts``, starts the production shape
(``project/ops/prodshape.py``: nginx, two gunicorn workers, two daphne processes, the worker)
and runs ``devtools/restarts.py``'s drill on it: the voters vote ``--rate`` times a
second between them (0: as fast as they are answered, which on a 2-core machine holding the
shape and the watching clients leaves no idle CPU, and measures that rather than the
restarts). The baseline is the same clients' successful answers a second in the steady
seconds before the first restart; the figure is the same rate while the restarts run.
A request whose keep-alive connection closes without an answer (nginx's old workers close
their idle ones on a reload) is sent again once on a new connection, as browsers do, and
counted. Bars: no 5xx and no transport error, no event lost, repeated or resynced on any
socket, at most one reconnect per socket per restart, every socket caught up within 10 s of
each restart, and the answers' rate during the restarts at least half the steady rate.
Written to bench/RESULTS.md under "## Rolling restart".
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import tempfile
import uuid
from pathlib import Path
from typing import Any

from common import (
    SPORTS,
    approved_nominations,
    check_lines,
    database_url,
    django_setup,
    drop_databases,
    finish,
    forget_keys,
    load_line,
    new_user,
    recreate_database,
    session_for,
)

SECTION = "## Rolling restart"
NAME = "scouting_bench_restarts"
RATE_BAR = 0.5
CATCH_UP_S = 10.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--voters", type=int, default=8)
    parser.add_argument(
        "--rate", type=float, default=20.0, help="votes/s in all (0: as fast as answered)"
    )
    parser.add_argument("--drain", type=float, default=10.0, help="REALTIME_DRAIN_SECONDS")
    parser.add_argument("--steady", type=float, default=5.0, help="seconds before restarts")
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument("--log", type=Path, help="keep the shape's output here")
    args = parser.parse_args()
    if not os.environ.get("REDIS_URL"):
        raise SystemExit("bench/restarts.py needs REDIS_URL (the shape's processes share it)")

    url = database_url(os.environ.get("DATABASE_URL", ""), NAME, "bench/restarts.py")
    recreate_database(url, NAME)
    os.environ["DATABASE_URL"] = url
    django_setup()
    logging.getLogger("httpx").setLevel(logging.WARNING)  # a line per request otherwise

    from devtools.restarts import rolling_restart_drill
    from project.accounts.models import User
    from project.ops.prodshape import Shape, running

    users = User.objects.bulk_create([new_user(f"bench_restart_{i}") for i in range(40)])
    nominator = new_user("bench_restart_nominator")
    nominator.save()
    nominations = [
        n.pk
        for n in approved_nominations(
            nominator, [SPORTS[3]] * 20, [f"restart player {i}" for i in range(20)]
        )
    ]
    voters = [session_for(users[i]) for i in range(args.voters)]
    sessions = [session_for(users[i % len(users)]) for i in range(args.sockets)]

    prefix = f"benchrestarts{uuid.uuid4().hex[:8]}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "REALTIME_PREFIX": prefix,
        "CACHE_PREFIX": prefix,
        "LOG_LEVEL": "WARNING",
        "BUDGETS": "off",
        "TRUST_ACCOUNT_AGE_HOURS": "0",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
    }
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-restarts-") as run:
        shape = Shape(
            port=0,
            http_workers=2,
            ws_processes=2,
            run_dir=Path(run) / "run",
            drain_seconds=args.drain,
        )
        with (
            (Path(run) / "shape.log").open("ab") as log,
            running(shape, env, output=log.fileno(), timeout=240),
        ):
            figures = rolling_restart_drill(
                shape,
                voters=voters,
                sessions=sessions,
                nominations=nominations,
                settle=args.steady,
                catch_up_within=CATCH_UP_S,
                rate=args.rate,
            )
        if args.log:
            shutil.copyfile(Path(run) / "shape.log", args.log)
    load_after = os.getloadavg()
    forget_keys(f"*{prefix}*")
    drop_databases(url, NAME)

    ratio = figures.during_per_s / figures.steady_per_s if figures.steady_per_s else 0.0
    checks = {
        "no 5xx and no transport error": figures.server_errors == 0
        and figures.transport_errors == 0,
        "no event lost, repeated or resynced": (figures.lost, figures.duplicated, figures.resyncs)
        == (0, 0, 0),
        "at most one reconnect per socket per restart": figures.max_reconnects_per_restart <= 1,
        f"every socket caught up within {CATCH_UP_S:g} s of each restart": all(
            r["caught up s"] is not None for r in figures.restarts
        )
        and figures.behind_at_end == 0,
        f"answers/s during the restarts at least {RATE_BAR:g} of steady": ratio >= RATE_BAR,
    }
    ok = all(checks.values())
    pace = f"{args.rate:g} votes/s" if args.rate else "as fast as answered"

    def caught(r: dict[str, Any]) -> str:
        """Seconds until every socket was caught up, or how many were not within the bar."""
        return (
            str(r["caught up s"]) if r["caught up s"] is not None else f"{r['not caught up']} not"
        )

    rows = [
        f"| {r['process']} | {r['restart s']} | {caught(r)} | "
        f"{r['sockets reconnected']} | {r['max reconnects/socket']} | "
        f"{', '.join(f'{code}: {n}' for code, n in r['closes'].items()) or '-'} |"
        for r in figures.restarts
    ]
    kinds = f" {figures.transport_kinds}" if figures.transport_kinds else ""
    resent = f" {figures.resent}" if figures.resent else ""
    text = "\n".join(
        [
            SECTION,
            "",
            f"The production shape (nginx, 2 gunicorn workers, 2 daphne processes, the worker), "
            f"{args.voters} voting clients ({pace}), "
            f"{args.sockets} watching sockets, drain window {args.drain:g} s "
            f"(`python bench/restarts.py`).",
            "",
            "| restarted | took s | caught up s | sockets reconnected | reconnects/socket "
            "| closes |",
            "|---|---:|---:|---:|---:|---|",
            *rows,
            "",
            f"- answers by status: {figures.statuses}; transport errors "
            f"{figures.transport_errors}{kinds}; "
            f"closes by code: {figures.closes}",
            f"- requests sent again on a new connection after theirs closed without an answer "
            f"(as browsers do): {sum(figures.resent.values())}{resent}",
            f"- events lost / repeated / resynced: {figures.lost} / {figures.duplicated} / "
            f"{figures.resyncs}; sockets behind at the end: {figures.behind_at_end}",
            f"- events between the furthest and the furthest-behind socket: "
            f"{figures.steady_lag} before the first restart, "
            f"{', '.join(str(r['lag at end']) for r in figures.restarts)} after each",
            f"- sockets dropped without a close frame, by the client's error: "
            f"{figures.dropped or 'none'}",
            f"- successful answers/s: steady {figures.steady_per_s:.1f}, during the restarts "
            f"{figures.during_per_s:.1f}, ratio {ratio:.2f} (bar: at least {RATE_BAR:g})",
            load_line(load_before, load_after),
            "",
            *check_lines(checks),
            "",
        ]
    )
    finish(SECTION, text, ok, write=not args.no_write)


if __name__ == "__main__":
    main()
