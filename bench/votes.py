"""Vote write throughput (DESIGN.md section 9): votes per second through the full stack at
concurrency 32, with none lost (rows = counters = 201 answers = last pushed count).

    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/votes.py [--nominations 100]

Starts a real daphne process (project.asgi, the production settings path: PostgreSQL with the
psycopg pool, Redis for the live layer) on a free port, against its own database
(``scouting_bench_votes`` on the DATABASE_URL server, dropped and created) and its own Redis
key prefixes. 32 scouts, each with a session (cookie + CSRF header, like the SPA), each on its
own keep-alive HTTP connection, vote at once for every one of the nominations (spread over
the five sports), each scout in its own order: 32 x N ``POST /api/votes``. Five websockets,
one per sport, record every ``vote.changed`` they are pushed.

After the run: every answer must be 201; vote rows, the sum of the ``vote_count`` columns and
the number of 201 answers must be equal, each nomination's counter must equal its rows, and
the last ``voteCount`` pushed for each nomination must equal its counter. Prints the figures
and writes them to bench/RESULTS.md under "## Vote write throughput" (only that section is
replaced).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import secrets
import statistics
import string
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from common import (
    HOST,
    SPORTS,
    approved_nominations,
    daphne_command,
    database_url,
    django_setup,
    drop_databases,
    finish,
    forget_keys,
    free_port,
    new_user,
    percentile,
    recreate_database,
    server_process,
    session_for,
)

SECTION = "## Vote write throughput"
PREFIX = f"benchvotes{os.getpid()}"


# --- Setup ------------------------------------------------------------------------------


def server_env(url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        "REALTIME_PREFIX": PREFIX,
        "CHANNEL_PREFIX": PREFIX,
        "CACHE_PREFIX": PREFIX,
    }


@dataclass
class Fixture:
    voter_sessions: list[str]
    listener_session: str
    nominations: dict[int, str]  # id -> sport


def prepare(voters: int, nominations: int) -> Fixture:
    from project.accounts.models import User, UserSettings

    users = User.objects.bulk_create([new_user(f"bench_voter_{i}") for i in range(voters)])
    nominator, listener = User.objects.bulk_create(
        [new_user("bench_nominator"), new_user("bench_listener")]
    )
    # The console e-mail backend would print one message per vote: not what is measured.
    UserSettings.objects.bulk_create(
        [UserSettings(user=user, email_notifications=False) for user in [*users, nominator]]
    )
    created = approved_nominations(
        nominator,
        [SPORTS[i % 5] for i in range(nominations)],
        [f"bench player {i}" for i in range(nominations)],
        age=15,
    )
    return Fixture(
        voter_sessions=[session_for(user) for user in users],
        listener_session=session_for(listener),
        nominations={n.pk: n.sport for n in created},
    )


def database_state() -> dict[str, Any]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT (SELECT count(*) FROM scouting_vote), "
            "(SELECT coalesce(sum(vote_count), 0) FROM scouting_nomination), "
            "(SELECT count(*) FROM scouting_nomination n WHERE n.vote_count <> "
            "  (SELECT count(*) FROM scouting_vote v WHERE v.nomination_id = n.id))"
        )
        rows, counters, drifting = cursor.fetchone()
        cursor.execute("SELECT id, vote_count FROM scouting_nomination")
        per_nomination = dict(cursor.fetchall())
    return {"rows": rows, "counters": counters, "drifting": drifting, "counts": per_nomination}


# --- The server -------------------------------------------------------------------------


def forget_prefix() -> None:
    forget_keys(f"{PREFIX}*", f":*:{PREFIX}*", f"*{PREFIX}*")


# --- The run ----------------------------------------------------------------------------


@dataclass
class Pushed:
    """The last voteCount pushed for each nomination, and how many vote.changed arrived."""

    last: dict[int, int] = field(default_factory=dict)
    events: int = 0
    errors: list[str] = field(default_factory=list)


async def listen(
    url: str, origin: str, session: str, sport: str, pushed: Pushed, ready: asyncio.Semaphore
) -> None:
    from websockets.asyncio.client import connect

    async with connect(
        url,
        additional_headers={"Cookie": f"sessionid={session}"},
        origin=origin,  # type: ignore[arg-type]
        compression=None,
        ping_interval=None,
        max_queue=None,
    ) as ws:
        await ws.send(json.dumps({"type": "subscribe", "sport": sport}))
        async for text in ws:
            message = json.loads(text)
            kind = message.get("type")
            if kind == "vote.changed":
                for vote in message["data"]["votes"]:
                    pushed.last[int(vote["nominationId"])] = int(vote["voteCount"])
                pushed.events += 1
            elif kind == "subscribed":
                ready.release()
            elif kind in {"error", "resync"}:
                pushed.errors.append(text)


@dataclass
class Answers:
    statuses: dict[int, int] = field(default_factory=dict)
    latencies_ms: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


async def vote_all(base_url: str, session: str, order: list[int], answers: Answers) -> None:
    import httpx

    token = "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(32))
    async with httpx.AsyncClient(
        base_url=base_url,
        cookies={"sessionid": session, "csrftoken": token},
        headers={"X-CSRFToken": token},
        timeout=60,
    ) as client:
        for nomination_id in order:
            started = time.perf_counter()
            response = await client.post("/api/votes", json={"nominationId": nomination_id})
            answers.latencies_ms.append((time.perf_counter() - started) * 1000)
            status = response.status_code
            answers.statuses[status] = answers.statuses.get(status, 0) + 1
            if status != 201 and len(answers.failures) < 5:
                answers.failures.append(f"{status} {response.text[:200]}")


async def run(port: int, fixture: Fixture, concurrency: int) -> tuple[Answers, Pushed, float]:
    base_url = f"http://{HOST}:{port}"
    pushed = Pushed()
    ready = asyncio.Semaphore(0)
    socket_url = f"ws://{HOST}:{port}/ws/"
    listeners = [
        asyncio.create_task(
            listen(socket_url, base_url, fixture.listener_session, sport, pushed, ready)
        )
        for sport in SPORTS
    ]
    for _ in SPORTS:
        await asyncio.wait_for(ready.acquire(), 30)
    answers = Answers()
    ids = list(fixture.nominations)
    orders = []
    for worker in range(concurrency):
        order = ids[:]
        random.Random(worker).shuffle(order)
        orders.append(order)
    started = time.perf_counter()
    await asyncio.gather(
        *(
            vote_all(base_url, session, order, answers)
            for session, order in zip(fixture.voter_sessions, orders, strict=True)
        )
    )
    elapsed = time.perf_counter() - started
    # Let the last events arrive: until every nomination's last push is its final count.
    expected = len(ids) * concurrency
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if sum(pushed.last.values()) >= expected and len(pushed.last) == len(ids):
            break
        await asyncio.sleep(0.2)
    await asyncio.sleep(1)
    for task in listeners:
        task.cancel()
    await asyncio.gather(*listeners, return_exceptions=True)
    return answers, pushed, elapsed


# --- Report -----------------------------------------------------------------------------


def report(
    answers: Answers,
    pushed: Pushed,
    state: dict[str, Any],
    elapsed: float,
    concurrency: int,
    nominations: int,
) -> tuple[str, bool]:
    created = answers.statuses.get(201, 0)
    total = sum(answers.statuses.values())
    stale = sum(1 for pk, count in state["counts"].items() if pushed.last.get(pk) != count)
    ok = (
        created == total == concurrency * nominations
        and state["rows"] == state["counters"] == created
        and state["drifting"] == 0
        and stale == 0
    )
    statuses = ", ".join(f"{code}: {n:,}" for code, n in sorted(answers.statuses.items()))
    lines = [
        SECTION,
        "",
        f"Machine: 2 cores, 24 GiB ({platform.machine()}, Python {platform.python_version()}). "
        f"Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `bench/votes.py` (`make bench`) "
        f"(load average {os.getloadavg()[0]:.1f} when it finished: the machine is shared).",
        "",
        "One daphne process (project.asgi; PostgreSQL with the psycopg pool, Redis live "
        f"layer), {concurrency} signed-in scouts on their own keep-alive connections voting "
        f"at once for each of {nominations} nominations over the five sports (each scout in "
        "its own order, so votes on one nomination contend for its row): "
        f"{total:,} `POST /api/votes` with session cookie and CSRF header; five websockets "
        "(one per sport) record the `vote.changed` events.",
        "",
        "| figure | value |",
        "|---|---|",
        f"| votes per second (201 answers / wall time) | **{created / elapsed:.0f}** |",
        f"| wall time | {elapsed:.2f} s |",
        f"| answers | {statuses} |",
        f"| latency p50 / p90 / p99 | {statistics.median(answers.latencies_ms):.1f} / "
        f"{percentile(answers.latencies_ms, 90):.1f} / "
        f"{percentile(answers.latencies_ms, 99):.1f} ms |",
        f"| vote rows | {state['rows']:,} |",
        f"| sum of vote_count columns | {state['counters']:,} |",
        f"| nominations whose counter differs from its rows | {state['drifting']} |",
        f"| vote.changed events received | {pushed.events:,} |",
        f"| nominations whose last pushed count differs from the counter | {stale} |",
        "",
        f"Result: {'PASS' if ok else 'FAIL'} (none lost: rows = counters = 201 answers = "
        "last pushed count).",
        "",
    ]
    if answers.failures:
        lines += ["Failures (first 5):", "", *(f"- `{f}`" for f in answers.failures), ""]
    if pushed.errors:
        lines += [f"Socket errors: {len(pushed.errors)} (first: `{pushed.errors[0][:200]}`)", ""]
    return "\n".join(lines), ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--nominations", type=int, default=100)
    parser.add_argument("--database", default="scouting_bench_votes")
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    args = parser.parse_args()
    url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not url or not redis_url:
        sys.exit("bench/votes.py needs DATABASE_URL (PostgreSQL) and REDIS_URL")

    own_url = database_url(url, args.database, "bench/votes.py")
    recreate_database(url, args.database)
    os.environ.update(server_env(own_url))
    django_setup()
    fixture = prepare(args.concurrency, args.nominations)
    port = free_port()
    try:
        with server_process(daphne_command(port), port, server_env(own_url)):
            answers, pushed, elapsed = asyncio.run(run(port, fixture, args.concurrency))
    finally:
        forget_prefix()
    state = database_state()
    if not args.keep:
        drop_databases(url, args.database)
    text, ok = report(answers, pushed, state, elapsed, args.concurrency, args.nominations)
    finish(SECTION, text, ok, write=not args.no_write)


if __name__ == "__main__":
    main()
