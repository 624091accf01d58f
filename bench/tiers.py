"""What a vote and a watching socket ask of each tier: the per-unit figures the capacity model
in deploy/README.md scales, and the model itself.

    python bench/tiers.py [--watchers 1000] [--votes 3000] [--idle 20] [--shards N] [--no-write]

Starts a PostgreSQL and a Redis of its own (nothing else runs on them, so every transaction,
WAL byte, command and network byte they count is the run's) and the production shape on them
(project/ops/prodshape.py: nginx, the HTTP pool, two daphne processes, the worker) with
``--watchers`` sockets watching through nginx (bench/votes.py's watchers, offering
permessage-deflate as browsers do). Then, in one run:

* idle: the sockets watching and nobody voting, for ``--idle`` seconds: the baseline, what the
  stack and the sockets cost without a vote;
* votes: bench/votes.py's uniform round at concurrency 32.

Per vote, the votes row net of the idle row's rates over the same seconds: CPU ms of each role
(the shape's own processes, found under its supervisor, and the private servers'), PostgreSQL
transactions and WAL bytes, Redis commands and network bytes. Per watching socket and second,
in each row: the bytes it was sent (what the watching process read) and the websocket
processes' CPU. From these, the model: what 1k, 10k and 50k votes/s and 10k, 100k and 1M
watching sockets need of each tier. Written to bench/RESULTS.md under "## What a vote and a
socket ask of each tier".

With ``--shards N``, N more Redis instances of the run's own hold the live layer's groups
(``REALTIME_REDIS_SHARDS``) and ``REDIS_URL``'s keeps the rest: the report adds each
instance's commands and CPU per vote, what one instance past its core gains from sharding,
and is written under "## Sharded Redis: what each instance is asked per vote".
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import votes
from common import (
    ROOT,
    client_priority,
    clients_note,
    cpu_by_component,
    cpu_spent,
    descendants,
    django_setup,
    finish,
    percentile,
)
from votes import Round as VoteRound

SECTION = "## What a vote and a socket ask of each tier"
SHARDED_SECTION = "## Sharded Redis: what each instance is asked per vote"
NAME = "scouting_bench_tiers"
# The roles, in the report's order: the node's own processes, then the shared servers.
NODE_ROLES = ("http pool", "daphne (/ws/)", "nginx", "other")
SHARED_ROLES = ("postgres", "redis")
ROLES = NODE_ROLES + SHARED_ROLES
VOTE_RATES = (1_000, 10_000, 50_000)
SOCKET_COUNTS = (10_000, 100_000, 1_000_000)
# A core is planned at this share of its time: headroom for bursts and for the tier's own
# housekeeping (vacuum, checkpoints, a Redis fork).
PLANNED_BUSY = 0.6


@dataclass
class Counts:
    """What the private servers and the watching process count: totals at one moment, or
    what a row added."""

    transactions: int
    wal: int
    commands: int
    net_in: int
    net_out: int
    watched_bytes: int
    by_command: dict[str, int]
    instances: dict[str, int] = field(default_factory=dict)  # commands by Redis instance

    def since(self, before: Counts) -> Counts:
        return Counts(
            self.transactions - before.transactions,
            self.wal - before.wal,
            self.commands - before.commands,
            self.net_in - before.net_in,
            self.net_out - before.net_out,
            self.watched_bytes - before.watched_bytes,
            {
                name: calls - before.by_command.get(name, 0)
                for name, calls in self.by_command.items()
                if calls > before.by_command.get(name, 0)
            },
            {name: calls - before.instances.get(name, 0) for name, calls in self.instances.items()},
        )


@dataclass
class Counters:
    at: float
    cpu: dict[int, tuple[str, float]]
    counts: Counts


@dataclass
class Row:
    name: str
    seconds: float
    cpu: dict[str, float]  # CPU seconds by role
    counts: Counts
    instance_cpu: dict[str, float] = field(default_factory=dict)  # by Redis instance
    votes: int = 0
    load: float = 0.0  # the 1-minute load average after the row
    round: VoteRound | None = field(default=None, repr=False)

    def rate(self, value: float) -> float:
        return value / self.seconds


class Tiers:
    """The private PostgreSQL and Redis instances, and the processes whose CPU is counted."""

    def __init__(self, pg: object, redis: object, shards: Sequence[object] = ()) -> None:
        import psycopg
        import redis as redis_client

        self.pg = pg
        self.sql = psycopg.connect(pg.url, autocommit=True)  # type: ignore[attr-defined]
        # Redis instances by name: REDIS_URL's, then the groups' shards.
        self.redis: dict[str, Any] = {"REDIS_URL": redis}
        self.redis.update({f"shard {i + 1}": shard for i, shard in enumerate(shards)})
        self.kv = {
            name: redis_client.Redis.from_url(server.url) for name, server in self.redis.items()
        }
        self.stack_pid = 0
        self.watchers_pid = 0

    def names(self) -> dict[int, str]:
        """pid -> role of every process counted: the shape's (by program, its worker and
        supervisor as "other"), the private servers', the bench's clients."""
        by_program = cpu_by_component({})
        named = {
            pid: by_program.get(pid, ("other", 0.0))[0]
            for pid in descendants(self.stack_pid)
            if self.stack_pid
        }
        if self.stack_pid:
            named[self.stack_pid] = "other"
        data = Path(self.pg.data)  # type: ignore[attr-defined]
        postmaster = int((data / "postmaster.pid").read_text().split()[0])
        for pid in [postmaster, *descendants(postmaster)]:
            named[pid] = "postgres"
        for server in self.redis.values():
            named[server.process.pid] = "redis"
        if self.watchers_pid:
            named[self.watchers_pid] = "bench: watchers"
        named[os.getpid()] = "bench: voters"
        return named

    def read(self) -> Counters:
        # The statistics of finished transactions reach pg_stat_database within a second.
        time.sleep(1.2)
        named = self.names()
        cpu = {pid: sample for pid, sample in cpu_by_component(named).items() if pid in named}
        (transactions, wal), *_ = self.sql.execute(
            "SELECT (SELECT sum(xact_commit + xact_rollback) FROM pg_stat_database)::bigint, "
            "pg_current_wal_lsn() - '0/0'::pg_lsn"
        ).fetchall()
        commands = net_in = net_out = 0
        by_command: dict[str, int] = {}
        instances: dict[str, int] = {}
        for name, kv in self.kv.items():
            stats = kv.info("stats")
            instances[name] = int(stats["total_commands_processed"])
            commands += instances[name]
            net_in += int(stats["total_net_input_bytes"])
            net_out += int(stats["total_net_output_bytes"])
            for command, values in kv.info("commandstats").items():
                command = command.removeprefix("cmdstat_")
                by_command[command] = by_command.get(command, 0) + int(values["calls"])
        watched = 0
        if self.watchers_pid:
            io = Path(f"/proc/{self.watchers_pid}/io").read_text().split()
            watched = int(io[io.index("rchar:") + 1])
        counts = Counts(
            int(transactions), int(wal), commands, net_in, net_out, watched, by_command, instances
        )
        return Counters(time.perf_counter(), cpu, counts)

    def instance_cpu(self, before: Counters, after: Counters) -> dict[str, float]:
        """CPU seconds each Redis instance spent between two readings."""
        spent: dict[str, float] = {}
        for name, server in self.redis.items():
            pid = server.process.pid
            if pid in before.cpu and pid in after.cpu:
                spent[name] = after.cpu[pid][1] - before.cpu[pid][1]
        return spent


def between(tiers: Tiers, name: str, before: Counters, after: Counters) -> Row:
    return Row(
        name,
        after.at - before.at,
        cpu_spent(before.cpu, after.cpu),
        after.counts.since(before.counts),
        tiers.instance_cpu(before, after),
    )


@dataclass
class PerVote:
    """The votes row net of the idle row's rates, per vote."""

    cpu_ms: dict[str, float]
    transactions: float
    wal: float
    commands: float
    net: float  # bytes in and out of Redis
    by_command: dict[str, float]  # Redis commands by name

    @classmethod
    def of(cls, row: Row, idle: Row) -> PerVote:
        count = max(1, row.votes)

        def net(value: float, idle_value: float) -> float:
            return max(0.0, value - idle.rate(idle_value) * row.seconds) / count

        return cls(
            {r: net(row.cpu.get(r, 0.0), idle.cpu.get(r, 0.0)) * 1000 for r in ROLES},
            net(row.counts.transactions, idle.counts.transactions),
            net(row.counts.wal, idle.counts.wal),
            net(row.counts.commands, idle.counts.commands),
            net(row.counts.net_in + row.counts.net_out, idle.counts.net_in + idle.counts.net_out),
            {
                name: net(calls, idle.counts.by_command.get(name, 0))
                for name, calls in row.counts.by_command.items()
            },
        )


def model(per_vote: PerVote, idle: Row, votes_row: Row, sockets: int) -> list[str]:
    """What a deployment needs for the vote rates and crowds of the issue, from the run's
    per-unit figures."""

    def cores(cpu_seconds_per_second: float) -> str:
        return f"{cpu_seconds_per_second / PLANNED_BUSY:,.1f}"

    lines = [
        f"**Votes/s** (cores at {PLANNED_BUSY:.0%} busy; per vote as measured above):",
        "",
        "| votes/s | HTTP pool cores | PostgreSQL primary cores | PostgreSQL TPS | WAL MB/s "
        "| Redis commands/s | Redis share of one core | Redis network MB/s | nginx cores |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for rate in VOTE_RATES:
        redis_busy = rate * per_vote.cpu_ms["redis"] / 1000
        lines.append(
            f"| {rate:,} | {cores(rate * per_vote.cpu_ms['http pool'] / 1000)} | "
            f"{cores(rate * per_vote.cpu_ms['postgres'] / 1000)} | "
            f"{rate * per_vote.transactions:,.0f} | {rate * per_vote.wal / 1e6:,.1f} | "
            f"{rate * per_vote.commands:,.0f} | {redis_busy:.0%} | "
            f"{rate * per_vote.net / 1e6:,.1f} | "
            f"{cores(rate * per_vote.cpu_ms['nginx'] / 1000)} |"
        )
    ws_busy = votes_row.rate(votes_row.cpu.get("daphne (/ws/)", 0.0)) / sockets
    ws_idle = idle.rate(idle.cpu.get("daphne (/ws/)", 0.0)) / sockets
    sent = votes_row.rate(votes_row.counts.watched_bytes) / sockets
    redis_idle = idle.rate(idle.counts.commands) / sockets
    lines += [
        "",
        f"**Watching sockets** (per socket and second, measured: websocket processes' CPU "
        f"{ws_busy * 1e6:.0f} us while the votes row ran at {votes_row.rate(votes_row.votes):.0f} "
        f"votes/s, {ws_idle * 1e6:.0f} us idle; {sent:,.0f} bytes sent while voting; Redis "
        f"{redis_idle:.3f} commands idle):",
        "",
        "| sockets | websocket cores (voting) | websocket cores (idle) | to clients MB/s "
        "| Redis commands/s (idle) |",
        "|---:|---:|---:|---:|---:|",
    ]
    for count in SOCKET_COUNTS:
        lines.append(
            f"| {count:,} | {cores(count * ws_busy)} | {cores(count * ws_idle)} | "
            f"{count * sent / 1e6:,.1f} | {count * redis_idle:,.0f} |"
        )
    return lines


def report(args: argparse.Namespace, idle: Row, voted: Row, per_vote: PerVote) -> str:
    assert voted.round is not None
    answers = voted.round.answers
    lines = [
        SECTION,
        "",
        f"Machine: {votes.machine()}. Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by "
        f"`bench/tiers.py`: the production shape (nginx, an HTTP pool of 2 gthread workers, 2 "
        f"daphne processes, the worker) on a PostgreSQL and a Redis of the run's own, "
        f"{args.watchers:,} sockets watching through nginx; idle for {args.idle:g} s, then "
        f"the uniform round at concurrency 32 ({args.votes:,} votes). CPU from /proc (user + "
        "system); other: the shape's worker and supervisor; load: the 1-minute load average "
        "after the row.",
        "",
        "| row | seconds | votes/s | "
        + " | ".join(f"{r} CPU s/s" for r in ROLES)
        + " | PG TPS | WAL kB/s | Redis cmds/s | Redis net kB/s | to clients kB/s | load |",
        "|---|" + "---:|" * (len(ROLES) + 8),
    ]
    for row in (idle, voted):
        c = row.counts
        lines.append(
            f"| {row.name} | {row.seconds:.0f} | {row.rate(row.votes):.0f} | "
            + " | ".join(f"{row.rate(row.cpu.get(r, 0.0)):.3f}" for r in ROLES)
            + f" | {row.rate(c.transactions):.0f} | {row.rate(c.wal) / 1e3:.0f} | "
            f"{row.rate(c.commands):.0f} | {row.rate(c.net_in + c.net_out) / 1e3:.0f} | "
            f"{row.rate(c.watched_bytes) / 1e3:.0f} | {row.load:.1f} |"
        )
    lines += [
        "",
        "Per vote (the votes row net of the idle row's rates over the same seconds; the idle "
        "row is the baseline):",
        "",
        "| " + " | ".join(f"{r} CPU ms" for r in ROLES) + " | PG transactions | WAL bytes "
        "| Redis commands | Redis bytes in + out |",
        "|" + "---:|" * (len(ROLES) + 4),
        "| "
        + " | ".join(f"{per_vote.cpu_ms[r]:.2f}" for r in ROLES)
        + f" | {per_vote.transactions:.2f} | {per_vote.wal:,.0f} | {per_vote.commands:.1f} | "
        f"{per_vote.net:,.0f} |",
        "",
        "Redis commands per vote, the most called: "
        + ", ".join(
            f"{name} {calls:.1f}"
            for name, calls in sorted(per_vote.by_command.items(), key=lambda kv: -kv[1])[:10]
            if calls >= 0.05
        )
        + ".",
        "",
        "Redis commands per watching socket and second while idle, the most called: "
        + ", ".join(
            f"{name} {idle.rate(calls) / args.watchers:.3f}"
            for name, calls in sorted(idle.counts.by_command.items(), key=lambda kv: -kv[1])[:6]
        )
        + ".",
        "",
        f"Votes: {answers.ok:,} answered 201 of {sum(answers.statuses.values()):,}; vote p99 "
        f"{percentile(answers.latencies_ms, 99):.0f} ms.",
        "",
        *model(per_vote, idle, voted, args.watchers),
        "",
        "Reading the model: the HTTP pool and the websocket processes grow by nodes (each "
        "node a few cores); the PostgreSQL primary takes every vote's write and grows only "
        "by a larger machine; Redis runs its commands on one core, so its share of one core "
        "says when one instance is no longer enough. The figures are this machine's cores; "
        "other CPUs scale them.",
        "",
        f"The sockets {votes.offered(args)}. {clients_note(args.clients_first)}",
    ]
    return "\n".join(lines) + "\n"


def sharded_report(args: argparse.Namespace, idle: Row, voted: Row, per_vote: PerVote) -> str:
    """Each Redis instance's commands and CPU per vote (net of the idle row), and the votes/s
    at which each would fill its core."""
    count = max(1, voted.votes)
    lines = [
        SHARDED_SECTION,
        "",
        f"Machine: {votes.machine()}. Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by "
        f'`bench/tiers.py --shards {args.shards}`: as "What a vote and a socket ask of each '
        f"tier\", with the live layer's groups on {args.shards} Redis instances of the run's "
        "own (`REALTIME_REDIS_SHARDS`) and presence, charges, windows, the cache and sessions "
        f"on `REDIS_URL`'s; {args.watchers:,} sockets watching, the uniform round at "
        f"concurrency 32 ({voted.votes:,} votes answered 201, load {voted.load:.1f} after it; "
        f"idle row load {idle.load:.1f}).",
        "",
        "| Redis instance | commands per vote | share of the commands | CPU ms per vote "
        "| votes/s at one core |",
        "|---|---:|---:|---:|---:|",
    ]
    total = max(1e-9, per_vote.commands)
    for name, calls in voted.counts.instances.items():
        idle_calls = idle.counts.instances.get(name, 0)
        commands = max(0.0, calls - idle.rate(idle_calls) * voted.seconds) / count
        cpu = voted.instance_cpu.get(name, 0.0)
        idle_cpu = idle.instance_cpu.get(name, 0.0)
        ms = max(0.0, cpu - idle.rate(idle_cpu) * voted.seconds) / count * 1000
        at_one_core = f"{1000 / ms:,.0f}" if ms > 0 else "-"
        lines.append(
            f"| {name} | {commands:.1f} | {commands / total:.0%} | {ms:.3f} | {at_one_core} |"
        )
    lines += [
        "",
        f"All instances: {per_vote.commands:.1f} commands and "
        f"{per_vote.cpu_ms['redis']:.2f} ms of CPU per vote. The groups' instances share the "
        "groups by a hash of their names: a sport's group stays on one instance, so a crowd "
        "voting in one sport loads that sport's instance, and the share above is this run's "
        "mix of sports.",
        "",
        f"The sockets {votes.offered(args)}. {clients_note(args.clients_first)}",
    ]
    return "\n".join(lines) + "\n"


def settle(limit: float = 300) -> None:
    """Wait until the worker has nothing left to run (the fixture's nominations queued their
    share cards) and the sockets' first frames are sent: neither is the idle row's."""
    from django_tasks_db.models import DBTaskResult

    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        tasks = DBTaskResult.objects
        if not tasks.ready().exists() and not tasks.running().exists():
            break
        time.sleep(1)
    time.sleep(5)


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--votes", type=int, default=3000)
    parser.add_argument("--votes-per-voter", type=int, default=10)
    parser.add_argument("--nominations", type=int, default=100)
    parser.add_argument("--idle", type=float, default=20.0, help="seconds of the idle row")
    parser.add_argument("--no-compress", action="store_true")
    parser.add_argument(
        "--shards", type=int, default=0, help="Redis instances for the live layer's groups"
    )
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    args = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    from devtools.private_postgres import PrivatePostgres, PrivateRedis

    votes.raise_file_limit(args.watchers + 512)
    # Durable as production runs it: each commit's WAL, full pages after a checkpoint.
    pg = PrivatePostgres(NAME, options=" -c fsync=on -c full_page_writes=on")
    redis = PrivateRedis()
    shards = [PrivateRedis() for _ in range(args.shards)]
    pg.create()
    for server in (redis, *shards):
        server.start()
    try:
        os.environ["REDIS_URL"] = redis.url
        if shards:
            os.environ["REALTIME_REDIS_SHARDS"] = ",".join(shard.url for shard in shards)
        os.environ.update(votes.server_env(pg.url))
        django_setup()
        count = args.votes // args.votes_per_voter
        print(f"Preparing {count:,} voters and {args.watchers:,} watchers...", flush=True)
        fixture = votes.prepare(count, args.watchers, args.nominations)
        with client_priority() as raised:
            args.clients_first = raised
            text = measure(args, pg, redis, shards, fixture)
    finally:
        for server in (redis, *shards):
            server.stop()
        pg.destroy()
    finish(SHARDED_SECTION if shards else SECTION, text, True, write=not args.no_write)


def measure(
    args: argparse.Namespace,
    pg: object,
    redis: object,
    shards: Sequence[object],
    fixture: votes.Fixture,
) -> str:
    tiers = Tiers(pg, redis, shards)
    stack = votes.start_stack(pg.url, "gthread", {})  # type: ignore[attr-defined]
    try:
        tiers.stack_pid = stack.process.pid
        watchers = votes.watch(stack, fixture, args)
        tiers.watchers_pid = watchers.process.pid or 0
        votes.BENCH_PIDS[tiers.watchers_pid] = "bench: watchers"
        print(f"{args.watchers:,} sockets watching; idle for {args.idle:g} s", flush=True)
        settle()
        start = tiers.read()
        time.sleep(args.idle)
        middle = tiers.read()
        idle = between(tiers, "idle", start, middle)
        idle.load = os.getloadavg()[0]
        jobs = votes.uniform_jobs(
            fixture.take_voters(args.votes // args.votes_per_voter),
            list(fixture.nominations),
            args.votes_per_voter,
            seed=32,
        )
        done = votes.vote_round("uniform", stack.url, watchers, fixture, 32, jobs)
        end = tiers.read()
        voted = between(tiers, "votes", middle, end)
        voted.load = os.getloadavg()[0]
        voted.votes, voted.round = done.answers.ok, done
        watchers.stop()
    finally:
        votes.stop_stack(stack)
    per_vote = PerVote.of(voted, idle)
    if shards:
        return sharded_report(args, idle, voted, per_vote)
    return report(args, idle, voted, per_vote)


if __name__ == "__main__":
    main()
