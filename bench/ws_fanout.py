"""Vote-to-screen fan-out: POST /api/votes -> vote.changed at every socket.

For N sockets (signed in, subscribed to one sport) and R rounds, each round casts one vote
through the full stack (session cookie + CSRF, the vote service, commit, the live layer) and
times, at every socket, the arrival of that vote's ``vote.changed`` from the moment the
request was sent. The same clients then do the same against a bare ``websockets`` server
that broadcasts one pre-encoded message on an HTTP trigger: our p99 is printed as a ratio of
its p99.

    make bench                                   # both servers, 100 and 1,000 sockets
    python bench/ws_fanout.py --sockets 1000 --rounds 30 --servers ours --no-write

Needs DATABASE_URL (PostgreSQL) and REDIS_URL like production; without them it runs the
embedded mode (SQLite, in-memory live layer, one process). Starts its own servers on free
ports (daphne with the environment's settings, one process); creates its users, sessions
and nominations directly with the ORM (usernames bench_*, replaced on each run); raises its
open-file limit to what the sockets need. Writes its section of bench/RESULTS.md. Exits 1
when a ratio is over its target (3 at 100 sockets, 2 at 1,000) or a vote did not
reach every socket.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import resource
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from common import (
    HOST,
    approved_nominations,
    daphne_command,
    django_setup,
    forget_keys,
    free_port,
    new_user,
    percentile,
    server_process,
    session_for,
    write_section,
)
from websockets.asyncio.client import ClientConnection, connect

SECTION = "## Vote to screen (bench/ws_fanout.py)"
SPORT = "soccer"


# --- Measurements -----------------------------------------------------------------------


@dataclass
class Round:
    sent_at: float
    expected: int
    arrivals: list[float] = field(default_factory=list)
    done: asyncio.Event = field(default_factory=asyncio.Event)

    def arrive(self, at: float) -> None:
        self.arrivals.append(at)
        if len(self.arrivals) >= self.expected:
            self.done.set()


@dataclass
class Result:
    server: str
    sockets: int
    rounds: int
    latencies_ms: list[float]
    delivered: int
    expected: int
    request_ms: list[float]
    server_cpu_ms: float

    def percentile(self, q: float) -> float:
        return percentile(self.latencies_ms, q)

    @property
    def delivered_pct(self) -> float:
        return 100.0 * self.delivered / self.expected if self.expected else 0.0

    def line(self) -> str:
        return (
            f"{self.server:<9} N={self.sockets:<5} rounds={self.rounds:<3} "
            f"p50={self.percentile(50):7.1f} ms  p99={self.percentile(99):7.1f} ms  "
            f"max={max(self.latencies_ms, default=float('nan')):7.1f} ms  "
            f"delivered={self.delivered_pct:6.2f}%  "
            f"(trigger request p50={statistics.median(self.request_ms):.1f} ms, "
            f"server CPU {self.server_cpu_ms:.1f} ms/round)"
        )


# --- Setup: users, sessions, nominations --------------------------------------------------


@dataclass
class Fixture:
    sessions: list[str]
    voter_session: str
    nomination_ids: list[int]


def prepare(sockets: int, nominations: int) -> Fixture:
    """Fresh bench users with sessions, one voter, and one nomination per round."""
    from django.core.management import call_command

    from project.accounts.models import User, UserSettings
    from project.scouting.models import Player

    call_command("migrate", verbosity=0)
    Player.objects.filter(name__startswith="Bench Player").delete()
    User.objects.filter(username__startswith="bench_").delete()

    users = User.objects.bulk_create([new_user(f"bench_ws_{i}") for i in range(sockets)])
    voter, nominator = User.objects.bulk_create([new_user("bench_voter"), new_user("bench_nom")])
    # Console e-mail would print a message per vote: not what is measured.
    UserSettings.objects.bulk_create(
        [UserSettings(user=user, email_notifications=False) for user in (voter, nominator)],
        ignore_conflicts=True,
    )
    created = approved_nominations(
        nominator,
        [SPORT] * nominations,
        [f"bench player {i}|{SPORT}" for i in range(nominations)],
    )
    return Fixture(
        sessions=[session_for(user) for user in users],
        voter_session=session_for(voter),
        nomination_ids=[nomination.pk for nomination in created],
    )


# --- Servers ----------------------------------------------------------------------------


PREFIX = os.environ.get("REALTIME_PREFIX") or f"bench-{os.getpid()}"


def server_env() -> dict[str, str]:
    quiet = {"DJANGO_DEBUG": "0", "LOG_LEVEL": "WARNING", "PYTHONUNBUFFERED": "1"}
    return {**os.environ, **quiet, "REALTIME_PREFIX": PREFIX}


os.environ["REALTIME_PREFIX"] = PREFIX  # this process publishes with --trigger publish


def forget_prefix() -> None:
    """Delete this run's live-layer keys from Redis."""
    forget_keys(f"{PREFIX}:*")


async def serve_baseline(port: int) -> None:
    """The bare reference: the same envelope, encoded once, websockets' broadcast()."""
    from websockets.asyncio.server import ServerConnection, broadcast, serve
    from websockets.datastructures import Headers
    from websockets.http11 import Request, Response

    subscribed: set[ServerConnection] = set()
    seq = 0

    async def handler(connection: ServerConnection) -> None:
        await connection.send(json.dumps({"type": "hello", "groups": {}}))
        try:
            async for text in connection:
                message = json.loads(text)
                if message.get("type") == "subscribe":
                    subscribed.add(connection)
                    group = f"sport.{message['sport']}"
                    reply = {"type": "subscribed", "sport": message["sport"], "groups": {group: 0}}
                    await connection.send(json.dumps(reply))
                elif message.get("type") == "ping":
                    await connection.send('{"type":"pong"}')
        finally:
            subscribed.discard(connection)

    def trigger(connection: ServerConnection, request: Request) -> Response | None:
        nonlocal seq
        if not request.path.startswith("/trigger/"):
            return None
        seq += 1
        nomination_id = int(request.path.rsplit("/", 1)[1])
        envelope = {
            "type": "vote.changed",
            "group": f"sport.{SPORT}",
            "seq": seq,
            "sport": SPORT,
            "data": {"votes": [{"nominationId": nomination_id, "voteCount": 1, "version": 1}]},
        }
        broadcast(subscribed, json.dumps(envelope, separators=(",", ":")))
        return Response(200, "OK", Headers({"Content-Length": "0"}), b"")

    async with serve(handler, HOST, port, process_request=trigger, compression=None):
        await asyncio.Future()


# --- Clients ----------------------------------------------------------------------------


def voted_ids(data: dict[str, Any]) -> list[int]:
    """The nominations a ``vote.changed`` counts votes of."""
    return [vote["nominationId"] for vote in data["votes"]]


class Clients:
    """N sockets in this process, each noting when the current round's event (``vote.changed``
    unless told another, with ``ids_of`` naming the nominations its data is about) reaches
    it."""

    def __init__(
        self,
        event: str = "vote.changed",
        ids_of: Callable[[dict[str, Any]], list[int]] = voted_ids,
    ) -> None:
        self.marker = f'"{event}"'
        self.ids_of = ids_of
        self.rounds: dict[int, Round] = {}
        self.connections: list[ClientConnection] = []
        self.readers: list[asyncio.Task[None]] = []

    async def open(self, url: str, origin: str, sessions: list[str], sport: str) -> None:
        batch = 50
        for start in range(0, len(sessions), batch):
            chunk = sessions[start : start + batch]
            self.connections += await asyncio.gather(
                *(self._open_one(url, origin, key, sport) for key in chunk)
            )
        self.readers = [asyncio.create_task(self._read(ws)) for ws in self.connections]

    @staticmethod
    async def _open_one(url: str, origin: str, session_key: str, sport: str) -> ClientConnection:
        ws = await connect(
            url,
            additional_headers={"Cookie": f"sessionid={session_key}"},
            origin=origin,  # type: ignore[arg-type]
            compression=None,
            ping_interval=None,
            open_timeout=60,
            max_queue=None,
        )
        await ws.send(json.dumps({"type": "subscribe", "sport": sport}))
        await ws.send('{"type":"ping"}')
        while json.loads(await ws.recv()).get("type") != "pong":
            pass
        return ws

    async def _read(self, ws: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async for text in ws:
                if self.marker not in text:
                    continue
                at = time.perf_counter()
                for nomination_id in self.ids_of(json.loads(text)["data"]):
                    current = self.rounds.get(nomination_id)
                    if current is not None:
                        current.arrive(at)

    async def close(self) -> None:
        for task in self.readers:
            task.cancel()
        await asyncio.gather(*(ws.close() for ws in self.connections), return_exceptions=True)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run_rounds(
    name: str,
    clients: Clients,
    trigger: Any,
    nomination_ids: list[int],
    warmup: int,
    args: argparse.Namespace,
    server_pid: int,
) -> Result:
    latencies: list[float] = []
    cpu_start = 0.0
    requests: list[float] = []
    delivered = expected = 0
    sockets = len(clients.connections)
    for index, nomination_id in enumerate(nomination_ids):
        measured = index >= warmup
        if index == warmup:
            cpu_start = cpu_seconds(server_pid)
        current = Round(sent_at=time.perf_counter(), expected=sockets)
        clients.rounds[nomination_id] = current
        await trigger(nomination_id)
        answered = time.perf_counter()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(current.done.wait(), args.timeout)
        if args.verbose:
            last = max(current.arrivals, default=answered) - current.sent_at
            print(
                f"  round {index}: request {(answered - current.sent_at) * 1000:.1f} ms, "
                f"last socket {last * 1000:.1f} ms"
            )
        if len(current.arrivals) < sockets:
            print(f"  round {index}: {len(current.arrivals)}/{sockets} sockets got the event")
        if measured:
            requests.append((answered - current.sent_at) * 1000)
            latencies += [(at - current.sent_at) * 1000 for at in current.arrivals]
            delivered += len(current.arrivals)
            expected += sockets
        await asyncio.sleep(args.pause)
    rounds = len(nomination_ids) - warmup
    cpu_ms = (cpu_seconds(server_pid) - cpu_start) * 1000 / rounds
    return Result(name, sockets, rounds, latencies, delivered, expected, requests, cpu_ms)


async def bench_ours(
    fixture: Fixture, sockets: int, rounds: int, warmup: int, args: argparse.Namespace
) -> Result:
    port = free_port()
    base = f"http://{HOST}:{port}"
    with server_process(daphne_command(port), port, server_env()) as server:
        clients = Clients()
        await clients.open(f"ws://{HOST}:{port}/ws/", base, fixture.sessions[:sockets], SPORT)
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            http.cookies.set("sessionid", fixture.voter_session)
            csrf = (await http.get("/api/auth/csrf")).json()["csrfToken"]
            headers = {"X-CSRFToken": csrf, "Origin": base, "Referer": base + "/"}

            async def vote(nomination_id: int) -> None:
                response = await http.post(
                    "/api/votes", json={"nominationId": nomination_id}, headers=headers
                )
                assert response.status_code == 201, response.text

            async def publish(nomination_id: int) -> None:
                from realtime.broadcast import broadcast
                from realtime.events import Event

                data = {"votes": [{"nominationId": nomination_id, "voteCount": 1, "version": 1}]}
                await asyncio.to_thread(broadcast, Event("vote.changed", data, sport=SPORT))

            trigger = publish if args.trigger == "publish" else vote
            ids = fixture.nomination_ids[: rounds + warmup]
            result = await run_rounds("ours", clients, trigger, ids, warmup, args, server.pid)
        await clients.close()
    return result


async def bench_baseline(
    fixture: Fixture, sockets: int, rounds: int, warmup: int, args: argparse.Namespace
) -> Result:
    port = free_port()
    base = f"http://{HOST}:{port}"
    command = [sys.executable, __file__, "--serve-baseline", str(port)]
    with server_process(command, port, server_env()) as server:
        clients = Clients()
        await clients.open(f"ws://{HOST}:{port}/ws/", base, fixture.sessions[:sockets], SPORT)
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:

            async def trigger(nomination_id: int) -> None:
                response = await http.get(f"/trigger/{nomination_id}")
                assert response.status_code == 200

            ids = fixture.nomination_ids[: rounds + warmup]
            result = await run_rounds("websockets", clients, trigger, ids, warmup, args, server.pid)
        await clients.close()
    return result


# --- Main -------------------------------------------------------------------------------


def raise_file_limit(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        target = hard if hard == resource.RLIM_INFINITY else min(hard, max(needed, soft))
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        raise SystemExit(f"ulimit -n is {soft}; this bench needs {needed}: raise it first")


def describe_machine() -> str:
    cpu = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    layer = "redis" if os.environ.get("REDIS_URL") else "in-memory"
    database = "postgresql" if os.environ.get("DATABASE_URL") else "sqlite"
    return f"{os.cpu_count()} cores ({cpu}), Python {sys.version.split()[0]}, {database}, {layer}"


async def main_async(args: argparse.Namespace) -> int:
    """The run; answers how many sizes missed their target."""
    missed = 0
    sizes = [int(n) for n in args.sockets.split(",")]
    raise_file_limit(2 * max(sizes) + 256)
    django_setup(migrate=())  # prepare() migrates, off the event loop
    logging.getLogger("httpx").setLevel(logging.WARNING)
    fixture = await asyncio.to_thread(prepare, max(sizes), len(sizes) * (args.rounds + 3) * 2)
    load = os.getloadavg()[0]
    print(f"machine: {describe_machine()}; load average {load:.2f}")
    ids: Iterator[int] = iter(fixture.nomination_ids)
    results: list[Result] = []
    ratios: list[str] = []
    for sockets in sizes:
        ours = theirs = None
        if "ours" in args.servers:
            sized = Fixture(fixture.sessions, fixture.voter_session, take(ids, args.rounds + 3))
            ours = await bench_ours(sized, sockets, args.rounds, 3, args)
            print(ours.line(), flush=True)
            results.append(ours)
        if "websockets" in args.servers:
            sized = Fixture(fixture.sessions, fixture.voter_session, take(ids, args.rounds + 3))
            theirs = await bench_baseline(sized, sockets, args.rounds, 3, args)
            print(theirs.line(), flush=True)
            results.append(theirs)
        if ours and theirs:
            ratio = ours.percentile(99) / theirs.percentile(99)
            target = target_ratio(sockets)
            met = ratio <= target and ours.delivered == ours.expected
            missed += not met
            ratios.append(
                f"N={sockets}: p99 ours/websockets = {ratio:.2f} "
                f"({'within' if met else 'OVER'} the target of {target:g}, "
                f"delivered {ours.delivered_pct:.2f}%)"
            )
            print(ratios[-1], flush=True)
    forget_prefix()
    if not args.no_write and ratios and args.trigger == "vote":
        write_section(SECTION, report(results, ratios, load, args))
    return missed


def target_ratio(sockets: int) -> float:
    """The targets for p99 ours/bare: 3 up to 100 sockets, 2 from 1,000 (the bare
    server's own cost grows with the sockets, so the ratio it allows shrinks)."""
    return 3.0 if sockets < 1000 else 2.0


def report(results: list[Result], ratios: list[str], load: float, args: argparse.Namespace) -> str:
    lines = [
        SECTION,
        "",
        f"`python bench/ws_fanout.py` ({time.strftime('%Y-%m-%d %H:%M')}): {describe_machine()};",
        f"load average {load:.2f} when it started (the machine is shared: figures move with it).",
        "Each round casts one vote through `POST /api/votes`; the time runs from sending the",
        f"request to `vote.changed` at each socket. 3 warm-up rounds, {args.rounds} measured,",
        f"{args.pause} s apart. `websockets` is a bare websockets-library server broadcasting one",
        "pre-encoded message on an HTTP trigger to the same clients. Server CPU is the server",
        "process's user + system time per round (request, events, fan-out, summaries).",
        "",
        "| server | sockets | p50 ms | p99 ms | max ms | delivered | request p50 ms "
        "| server CPU ms |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for result in results:
        lines.append(
            f"| {result.server} | {result.sockets} | {result.percentile(50):.1f} | "
            f"{result.percentile(99):.1f} | {max(result.latencies_ms, default=0):.1f} | "
            f"{result.delivered_pct:.2f}% | {statistics.median(result.request_ms):.1f} | "
            f"{result.server_cpu_ms:.1f} |"
        )
    return "\n".join([*lines, "", *(f"- {ratio}" for ratio in ratios), ""])


def take(items: Iterator[int], count: int) -> list[int]:
    return [next(items) for _ in range(count)]


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", default="100,1000", help="comma-separated socket counts")
    parser.add_argument("--rounds", type=int, default=25, help="measured rounds (>= 20)")
    parser.add_argument("--servers", default="ours,websockets")
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    parser.add_argument("--verbose", action="store_true", help="print every round")
    parser.add_argument(
        "--trigger",
        choices=["vote", "publish"],
        default="vote",
        help="publish: send vote.changed straight from this process through Redis (no HTTP, "
        "no vote service): the fan-out alone",
    )
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait a round")
    parser.add_argument("--pause", type=float, default=0.5, help="seconds between rounds")
    parser.add_argument("--serve-baseline", type=int, metavar="PORT", help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    arguments = parse_args()
    if arguments.serve_baseline:
        asyncio.run(serve_baseline(arguments.serve_baseline))
    elif asyncio.run(main_async(arguments)):
        sys.exit(1)  # make bench names it among the benches that missed a target
