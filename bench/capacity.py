"""The capacity model's figures: CPU per vote by process role with one node and with two.

    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/capacity.py

A node is one complete production shape (project/ops/prodshape.py); the front balancer
(project/ops/balancer.py, nginx) spreads requests and websockets over the nodes, which share
one PostgreSQL and one Redis. In one run, the same offered load (the uniform round of
bench/votes.py: ``--votes`` votes at concurrency ``--concurrency`` with ``--watchers`` sockets
watching through the balancer) goes through the balancer over one node, then over two, in
the order 1, 2, 2, 1, so a load that drifts weighs on each alike. Every stack process is
named by its node and role from its place in the node's process tree; the balancer's access
log says which node answered each vote.

Printed: CPU ms per vote by role (balancer, nginx, HTTP pool, websocket processes,
PostgreSQL, Redis, the bench's clients), each node's CPU per vote it answered, the ratio of
two nodes' stack CPU per vote to one node's, votes/s, vote p99, and the 1-minute load
average after each row; and the none-lost checks. Written to bench/RESULTS.md under
"## Capacity: one node against two".

Two nodes on this machine share its cores: the figures show what each vote costs each role
when the work is split over two nodes (what makes the capacity table linear), not that two
nodes carry more votes/s here.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import tempfile
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import votes
from common import (
    ROOT,
    client_priority,
    clients_note,
    cpu_by_component,
    database_url,
    descendants,
    django_setup,
    drop_databases,
    finish,
    forget_keys,
    percentile,
    recreate_database,
)

SECTION = "## Capacity: one node against two"
ROLES = ("balancer", "nginx", "http pool", "daphne (/ws/)", "other", "postgres", "redis")
# The roles inside a node, counted from the nodes' own processes only ("other": the node's
# background worker and supervisor); the rest by program over the whole machine.
NODE_ROLES = ("nginx", "http pool", "daphne (/ws/)", "other")
CLIENTS = ("bench: voters", "bench: watchers")
# Two nodes' stack CPU per vote against one node's, at the same offered load.
TARGET_RATIO = 1.10


def stack_names(cluster: object) -> dict[int, str]:
    """pid -> "node a: http pool" (node and role) for every process of every node, and
    "balancer" for the balancer's nginx."""
    sample = cpu_by_component({})
    names: dict[int, str] = {}
    for node in cluster.nodes:  # type: ignore[attr-defined]
        for pid in descendants(node.supervisor.pid):
            role = sample.get(pid, ("other", 0.0))[0]
            names[pid] = f"node {node.name}: {role}"
    balancer = cluster.balancer.process.pid  # type: ignore[attr-defined]
    for pid in [balancer, *descendants(balancer)]:
        names[pid] = "balancer"
    return names


def answered_by(log: Path, cluster: object) -> dict[str, int]:
    """Votes answered 201 by each node, from the balancer's access log."""
    by_address = {node.address: node.name for node in cluster.nodes}  # type: ignore[attr-defined]
    counted: Counter[str] = Counter()
    for line in log.read_text().splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[1:] == ["POST", "/api/votes", "201"]:
            counted[by_address.get(parts[0], parts[0])] += 1
    return dict(counted)


class Row:
    def __init__(self, nodes: int, round_: votes.Round, served: dict[str, int]) -> None:
        self.nodes, self.round, self.served = nodes, round_, served
        self.load = os.getloadavg()[0]

    @property
    def ok(self) -> int:
        return max(1, self.round.answers.ok)

    def role(self, role: str) -> float:
        """CPU ms per vote of a role, over every node."""
        cpu = self.round.answers.cpu
        if role in NODE_ROLES:
            spent = sum(
                s for name, s in cpu.items() if name.startswith("node ") and name.endswith(role)
            )
        else:
            spent = cpu.get(role, 0.0)
        return spent * 1000 / self.ok

    def stack(self) -> float:
        return sum(self.role(r) for r in ROLES)

    def node(self, name: str) -> float:
        """One node's CPU ms per vote it answered."""
        cpu = self.round.answers.cpu
        spent = sum(s for n, s in cpu.items() if n.startswith(f"node {name}: "))
        return spent * 1000 / max(1, self.served.get(name, 0))


def run(args: argparse.Namespace, own_url: str, fixture: votes.Fixture) -> tuple[str, bool]:
    from devtools.cluster import nodes_running

    ids = list(fixture.nominations)
    rows: list[Row] = []
    last_counts: list[dict[int, int]] = [{} for _ in fixture.watchers]
    problems: list[str] = []
    for count in [1, 2, 2, 1][: 2 * args.passes]:
        run_dir = Path(tempfile.mkdtemp(prefix="bench-capacity-"))
        log = (run_dir / "nodes.log").open("ab")
        env = votes.server_env(own_url)
        with nodes_running(count, env, run_dir, output=log.fileno(), access_log=True) as cluster:
            names = stack_names(cluster)
            votes.BENCH_PIDS.update(names)
            stack = votes.Stack(url=cluster.url, shape=None, process=None, log=run_dir)
            watchers = votes.watch(stack, fixture, args)
            votes.BENCH_PIDS[watchers.process.pid or 0] = "bench: watchers"
            voters = fixture.take_voters(args.votes // args.votes_per_voter)
            jobs = votes.uniform_jobs(voters, ids, args.votes_per_voter, seed=300 + len(rows))
            label = f"{count} node{'s' if count > 1 else ''}"
            r = votes.vote_round(label, cluster.url, watchers, fixture, args.concurrency, jobs)
            votes._merge_last(last_counts, r.screen["last"])
            if dropped := watchers.stop():
                problems.append(f"{dropped} watching sockets gave up ({label})")
            assert cluster.balancer.access_log is not None  # nodes_running(access_log=True)
            served = answered_by(cluster.balancer.access_log, cluster)
            for pid in names:
                votes.BENCH_PIDS.pop(pid, None)
        log.close()
        forget_keys(f"{votes.PREFIX}*", f":*:{votes.PREFIX}*", f"*{votes.PREFIX}*")
        rows.append(Row(count, r, served))
    problems += votes.checks(fixture, [row.round for row in rows], last_counts)
    one = statistics.mean(row.stack() for row in rows if row.nodes == 1)
    two = statistics.mean(row.stack() for row in rows if row.nodes == 2)
    ratio = two / one
    lines = [
        SECTION,
        "",
        f"Machine: {votes.machine()}. Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by "
        f"`bench/capacity.py`: the front balancer over one node, then two (each node: nginx, "
        f"an HTTP pool of 2 gthread workers, 2 daphne processes, a worker), one PostgreSQL and "
        f"one Redis; {len(fixture.watchers):,} sockets watching through the balancer, the "
        f"uniform round at concurrency {args.concurrency} ({args.votes:,} votes a row), in the "
        "order of the rows. CPU ms per vote (user + system from /proc) by role, summed over "
        "the nodes' own processes (other: each node's worker and supervisor); node a / "
        "node b: a node's CPU per vote it answered (its share of the votes "
        "in brackets); stack: every role but the clients; ratio: the row's stack against the "
        "mean of the one-node rows; load: the 1-minute load average after the row.",
        "",
        "| nodes | votes/s | vote p99 ms | " + " | ".join(ROLES) + " | clients | stack | ratio "
        "| node a | node b | load |",
        "|---|" + "---:|" * (len(ROLES) + 9),
    ]
    for row in rows:
        a = row.round.answers
        clients = sum(row.round.answers.cpu.get(c, 0.0) for c in CLIENTS) * 1000 / row.ok
        per_node = []
        for name in ("a", "b"):
            share = row.served.get(name, 0) / row.ok
            per_node.append(f"{row.node(name):.1f} ({share:.0%})" if share else "-")
        lines.append(
            f"| {row.nodes} | {a.rate():.0f} | {percentile(a.latencies_ms, 99):.0f} | "
            + " | ".join(f"{row.role(r):.2f}" for r in ROLES)
            + f" | {clients:.1f} | **{row.stack():.1f}** | **{row.stack() / one:.2f}** | "
            + " | ".join(per_node)
            + f" | {row.load:.1f} |"
        )
    lines += [
        f"| **mean** | | | | | | | | | | **1 node {one:.1f}, 2 nodes {two:.1f}** | "
        f"**{ratio:.2f}** | | | |",
        "",
        f"Target: two nodes' stack CPU per vote within {TARGET_RATIO - 1:.0%} of one node's: "
        f"**{'met' if ratio <= TARGET_RATIO else 'missed'}** ({ratio:.2f}). Both nodes share "
        "this machine's cores, so two nodes carry no more votes/s here than one: the run shows "
        "what a vote costs each role when the work is split over nodes, not the throughput of "
        "two machines. PostgreSQL and Redis are counted by program over the whole machine "
        "(other work on them is counted too).",
        "",
        f"The sockets {votes.offered(args)}. {clients_note(args.clients_first)}",
    ]
    if problems:
        lines += ["", "**Checks failed:** " + "; ".join(problems)]
    else:
        lines += [
            "",
            "Checks: every answer 201; rows = counters = 201 answers; every socket's "
            "last count of every nomination = its counter.",
        ]
    return "\n".join(lines) + "\n", not problems and ratio <= TARGET_RATIO


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--votes", type=int, default=3000, help="votes per row")
    parser.add_argument("--votes-per-voter", type=int, default=10)
    parser.add_argument("--nominations", type=int, default=100)
    parser.add_argument("--passes", type=int, default=2, choices=(1, 2))
    parser.add_argument("--database", default="scouting_bench_capacity")
    parser.add_argument("--no-compress", action="store_true")
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    return parser.parse_args()


def main() -> None:
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args = parse_args()
    url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not url or not redis_url:
        sys.exit("bench/capacity.py needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    votes.raise_file_limit(args.watchers + 512)
    own_url = database_url(url, args.database, "bench/capacity.py")
    recreate_database(url, args.database)
    os.environ.update(votes.server_env(own_url))
    django_setup()
    sys.path.insert(0, str(ROOT))
    voters = 2 * args.passes * (args.votes // args.votes_per_voter)
    print(f"Preparing {voters:,} voters and {args.watchers:,} watchers...", flush=True)
    fixture = votes.prepare(voters, args.watchers, args.nominations)
    try:
        with client_priority() as raised:
            args.clients_first = raised
            text, ok = run(args, own_url, fixture)
    finally:
        drop_databases(url, args.database)
    finish(SECTION, text, ok, write=not args.no_write)


if __name__ == "__main__":
    main()
