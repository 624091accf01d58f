"""Votes at match-day scale: votes per second through the production shape, with
1,000 sockets watching, none lost (rows = counters = 201 answers = last pushed count).

    DATABASE_URL=postgres://... REDIS_URL=redis://... python bench/votes.py

Starts the production shape (project/ops/prodshape.py, what ``make serve-prod`` runs: nginx
in front of the HTTP pool and two daphne processes for ``/ws/``) against its own database
(``scouting_bench_votes`` on the DATABASE_URL server, dropped and created) and its own Redis
key prefix. A second process holds the watching sockets (1,000, through nginx, spread over
the five sports, each signed in as a user of its own; websocket frames read by hand, see
``_Socket``, offering permessage-deflate as browsers do, on uvloop) and records every
``vote.changed`` they are pushed. The bench's processes run ahead of the servers on the CPU
(bench/common.py ``client_priority``), as phones with CPUs of their own would. Then, in one
run, through nginx:

* ``GET /api/health`` (a constant JSON answer that touches no table) at each concurrency: the
  stack's own ceiling, req/s;
* uniform votes at concurrency 32 and 128: signed-in voters (10 votes each, so a per-user
  budget would not be what is measured) ``POST /api/votes`` on 100 nominations over the five
  sports, each in its own order;
* a crowd arriving: uniform votes sent as a Poisson process at 50% and 75% of the first
  round's votes/s (``--arrival``), each timed from its arrival: the latency below saturation;
* one hot nomination: every voter votes for the same nomination (one contended row), at 32.

For every vote the time from sending its request to the first ``vote.changed`` carrying its
count (or a later one) is taken at every socket of its sport: vote-to-screen. Printed: votes/s,
request p50/p99, vote-to-screen p99, votes/s over the constant endpoint's req/s, hot over
uniform, the machine's load, and the checks (every answer 201; vote rows = sum of counters =
201 answers; every socket's last pushed count of every nomination = its counter), and where the
two cores went: the CPU each process group (HTTP pool, daphne, PostgreSQL, Redis, nginx, the
bench's voters and watchers) took per answer in each round, from /proc. Written to
bench/RESULTS.md under "## Votes through the production shape".

``--compare-http`` instead runs the constant endpoint and the uniform round at 32 once per HTTP
server (gunicorn gthread, gunicorn + uvicorn workers, daphne processes) and writes "## HTTP
pool: the server chosen by measurement"; ``--compare-gc`` runs the uniform round with CPython's
stock collector and with project/common/heap.py's tuning and writes "## Garbage collection of
the server processes"; ``--compare-pgbouncer`` runs it directly on PostgreSQL, directly with
``DB_POOLER=transaction`` (no prepared statements, values bound in the client) and through a
PgBouncer in transaction mode, and writes the CPU each took per vote against the first, with
the machine's load beside it, under "## Behind PgBouncer: CPU per vote"; ``--compare-metrics``
runs it with every process exporting Prometheus metrics and with none, and writes the CPU per
vote of each, their ratio (target: within 3%) and the HTTP pool's scraped ``votes_cast_total``
against the 201 answers under "## The metrics' own cost". The main run also checks the scraped
counter against its 201 answers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import platform
import random
import re
import resource
import signal
import statistics
import sys
import tempfile
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import uvloop
from common import (
    ROOT,
    SPORTS,
    approved_nominations,
    client_priority,
    clients_note,
    cpu_by_component,
    cpu_spent,
    database_url,
    django_setup,
    drop_databases,
    finish,
    forget_keys,
    new_user,
    percentile,
    recreate_database,
    session_for,
    write_section,
)

from devtools.wsframes import masked_frame, server_frames, upgrade_request

SECTION = "## Votes through the production shape"
HOT = "one hot nomination"
HTTP_SECTION = "## HTTP pool: the server chosen by measurement"
GC_SECTION = "## Garbage collection of the server processes"
PGBOUNCER_SECTION = "## Behind PgBouncer: CPU per vote"
METRICS_SECTION = "## The metrics' own cost: CPU per vote with metrics on and off"
PREFIX = f"benchvotes{os.getpid()}"
CSRF = "benchcsrftoken0123456789abcdefgh"  # 32 letters and digits, as Django's are
TARGETS = {
    "votes_per_s": 200,
    "p99_ms": 250,
    "screen_p99_ms": 300,
    "ratio_constant": 0.4,
    "ratio_hot": 0.5,
}
STOCK_GC = {"GC_FREEZE": "0", "GC_THRESHOLD": "700,10,10"}


# --- Setup ------------------------------------------------------------------------------


def server_env(url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_DEBUG": "0",
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
        "REALTIME_PREFIX": PREFIX,
        "CACHE_PREFIX": PREFIX,
        "LOGIN_THROTTLE_LIMIT": "100000",
        # Fresh accounts voting far beyond a person's budgets (README: BUDGETS).
        "BUDGETS": "off",
        "TRUST_ACCOUNT_AGE_HOURS": "0",
    }


@dataclass
class Fixture:
    nominations: dict[int, str]  # id -> sport
    hot: int  # the nomination every voter of the hot round votes for
    watchers: list[tuple[str, str]]  # (session, sport) per watching socket
    voters: list[str] = field(default_factory=list)  # sessions, used up round by round

    def take_voters(self, count: int) -> list[str]:
        if count > len(self.voters):
            raise SystemExit(f"not enough bench voters: {count} > {len(self.voters)}")
        taken, self.voters = self.voters[:count], self.voters[count:]
        return taken


def prepare(voters: int, watchers: int, nominations: int) -> Fixture:
    from project.accounts.models import User, UserSettings

    voting = User.objects.bulk_create([new_user(f"bench_voter_{i}") for i in range(voters)])
    watching = User.objects.bulk_create([new_user(f"bench_watcher_{i}") for i in range(watchers)])
    # Each nomination by a scout of its own: a vote also adds to its nominator's points, so
    # one nominator for all would make every vote wait for that one user row.
    nominators = User.objects.bulk_create(
        [new_user(f"bench_nominator_{i}") for i in range(nominations + 1)]
    )
    # The console e-mail backend would print one message per vote: not what is measured.
    UserSettings.objects.bulk_create(
        [UserSettings(user=user, email_notifications=False) for user in [*voting, *nominators]]
    )
    created = [
        approved_nominations(nominator, [SPORTS[i % 5]], [f"bench player {i}"], age=15)[0]
        for i, nominator in enumerate(nominators)
    ]
    *uniform, hot = created
    return Fixture(
        nominations={n.pk: n.sport for n in uniform},
        hot=hot.pk,
        watchers=[(session_for(u), SPORTS[i % 5]) for i, u in enumerate(watching)],
        voters=[session_for(user) for user in voting],
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


def raise_file_limit(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < needed:
        target = hard if hard == resource.RLIM_INFINITY else min(hard, max(needed, soft))
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    if resource.getrlimit(resource.RLIMIT_NOFILE)[0] < needed:
        raise SystemExit(f"ulimit -n is below {needed}: raise it first")


# --- The watching sockets (a process of their own) --------------------------------------

# Pushed counts per socket: for each socket, (arrival time, [(nomination, count), ...]).
Arrivals = list[tuple[float, list[tuple[int, int]]]]


# An event's envelope starts {"type":...,"group":"sport.soccer","seq":1043 (realtime/events.py).
# What Chromium offers on every websocket (the SPA's too): the server deflates each message once
# for every socket that took it (realtime/connection.py). `--no-compress` offers nothing.
BROWSER_OFFER = "permessage-deflate; client_max_window_bits"
SEQ = re.compile(r'"group": ?"([^"]+)", ?"seq": ?(\d+)')


@dataclass
class Reconnects:
    """Sockets the server closed (e.g. 4008: the client fell behind) and how they came back."""

    closed: int = 0
    resumed: int = 0
    resynced: int = 0


class _Socket(asyncio.Protocol):
    """One watching socket without a websocket library: the handshake and the frames by hand
    (devtools/wsframes.py), each text frame handed to ``on_text`` as it is parsed. 1,000
    sockets in one process read tens of thousands of frames a second here (the merged votes, the
    activity and the boards of their sport); through the websockets library's per-message machinery
    this process, not the server, had set the screens' figure. The process runs on uvloop: asyncio's
    selector loop spent most of its CPU readying and reading the sockets (py-spy), CPU the servers
    need."""

    def __init__(self, request: bytes, on_text: Any) -> None:
        self.request, self.on_text = request, on_text
        self.buffer = bytearray()
        # A compressed message (RSV1) is inflated as a browser does: one decompressor per
        # connection, its context kept (RFC 7692).
        self.inflater = zlib.decompressobj(-15)
        self.transport: asyncio.Transport | None = None
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # uvloop's transports are not asyncio.Transport subclasses, but are one in all but name.
        self.transport = cast(asyncio.Transport, transport)
        self.transport.write(self.request)

    def send(self, text: str) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(masked_frame(text))

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.opened.done():
            head_end = self.buffer.find(b"\r\n\r\n")
            if head_end < 0:
                return
            status = bytes(self.buffer[: self.buffer.find(b"\r\n")]).split()
            if len(status) < 2 or status[1] != b"101":
                self.opened.set_exception(ConnectionError(f"handshake answered {status!r}"))
                assert self.transport is not None
                self.transport.close()
                return
            del self.buffer[: head_end + 4]
            self.opened.set_result(None)
        frames, used = server_frames(self.buffer)
        del self.buffer[:used]
        for first, payload in frames:
            opcode = first & 0x0F
            if first & 0x40:
                payload = self.inflater.decompress(payload + b"\x00\x00\xff\xff")
            if opcode == 0x1:
                self.on_text(self, payload.decode())
            elif opcode == 0x9:  # ping: pong with its payload
                assert self.transport is not None
                self.transport.write(masked_frame(payload, 0x8A))
            elif opcode == 0x8:  # the server's close: answer it and go
                assert self.transport is not None
                self.transport.write(masked_frame(payload[:2], 0x88))
                self.transport.close()
                return

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(exc or ConnectionError("closed during the handshake"))
        if not self.closed.done():
            self.closed.set_result(None)


async def _open(host: str, port: int, request: bytes, on_text: Any) -> _Socket:
    """A socket through its handshake (60 s at most for each step), or the error."""
    socket = _Socket(request, on_text)
    try:
        await asyncio.wait_for(
            asyncio.get_running_loop().create_connection(lambda: socket, host, port), 60
        )
        await asyncio.wait_for(socket.opened, 60)
    except BaseException:
        if socket.transport is not None:
            socket.transport.close()
        raise
    return socket


async def _watch(
    url: str,
    session: str,
    sport: str,
    log: Arrivals,
    ready: asyncio.Event,
    again: Reconnects,
    latest: dict[int, int],
    offer: str,
) -> None:
    """One watching screen, as the SPA's live client: connects (again, with a growing pause,
    when a handshake fails or the server closes it), subscribes to its sport, resumes from the
    last seq it applied after a reconnect, and records the vote.changed it is pushed."""
    group = f"sport.{sport}"
    parts = urlsplit(url)
    host, port = parts.hostname or "127.0.0.1", parts.port or 80
    cursor: int | None = None
    pause = 0.5

    def on_text(socket: _Socket, text: str) -> None:
        nonlocal cursor
        head = text[:60]
        found = SEQ.search(text, 0, 120)
        if found and found.group(1) == group:
            seq = int(found.group(2))
            if cursor is not None and seq <= cursor:
                return  # already applied (a replay overlapping what came live)
            cursor = seq
            if '"vote.changed"' in head:
                now = time.perf_counter()
                votes = json.loads(text)["data"]["votes"]
                pairs = [(int(v["nominationId"]), int(v["voteCount"])) for v in votes]
                log.append((now, pairs))
                for n, count in pairs:
                    if count > latest.get(n, 0):
                        latest[n] = count
        elif '"subscribed"' in head:
            position = int(json.loads(text)["groups"][group])
            if cursor is None:
                cursor = position
                ready.set()
            elif position > cursor:  # a server that ignored the cursor
                socket.send(json.dumps({"type": "resume", "cursors": {group: cursor}}))
        elif '"resumed"' in head:
            again.resumed += 1
        elif '"resync"' in head:
            again.resynced += 1
            cursor = int(json.loads(text)["cursors"][group])

    while True:
        try:
            socket = await _open(host, port, upgrade_request(host, port, session, offer), on_text)
        except (OSError, TimeoutError):
            await asyncio.sleep(pause * random.uniform(0.5, 1.5))
            pause = min(pause * 2, 8)
            continue
        pause = 0.5
        try:
            # Back after a close: the subscribe carries the cursor, as the SPA's does, and the
            # server replays from it before anything live. (Subscribing first and resuming
            # after, this watcher took the live events past the announced position first,
            # moved its cursor past the replay and dropped the replayed votes as already
            # applied: the "never shown" pairs of earlier runs.)
            subscribe: dict[str, Any] = {"type": "subscribe", "sport": sport}
            if cursor is not None:
                subscribe["cursor"] = cursor
            socket.send(json.dumps(subscribe))
            await socket.closed
        finally:
            if socket.transport is not None:
                socket.transport.close()
        again.closed += 1


async def _watchers(url: str, sockets: list[tuple[str, str]], offer: str, pipe: Connection) -> None:
    logs: list[Arrivals] = [[] for _ in sockets]
    latest: list[dict[int, int]] = [{} for _ in sockets]  # the highest count shown, per socket
    again = Reconnects()
    readies = [asyncio.Event() for _ in sockets]
    tasks = []
    for i, (session, sport) in enumerate(sockets):
        tasks.append(
            asyncio.create_task(
                _watch(url, session, sport, logs[i], readies[i], again, latest[i], offer)
            )
        )
        if i % 10 == 9:
            await asyncio.sleep(0.1)  # a crowd arriving (100 a second), not one SYN flood
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 300)
    pipe.send(("ready", len(sockets)))
    loop = asyncio.get_running_loop()
    while True:
        command, argument = await loop.run_in_executor(None, pipe.recv)
        if command == "mark":  # the start of a round: only what arrives from now on
            for log in logs:
                log.clear()
            pipe.send(("marked", None))
        elif command == "behind":  # (socket, nomination) pairs not yet showing the count
            counts, sports = argument
            behind = sum(
                1
                for shown, (_, sport) in zip(latest, sockets, strict=True)
                for n, count in counts.items()
                if sports[n] == sport and shown.get(n, 0) < count
            )
            pipe.send(("behind", behind))
        elif command == "measure":
            pipe.send(("measured", _screen_times(logs, sockets, argument)))
        elif command == "stop":
            failed = sum(1 for t in tasks if t.done())  # a socket that gave up: none should
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            pipe.send(("stopped", (failed, again.closed, again.resumed, again.resynced)))
            return


def _screen_times(
    logs: list[Arrivals], sockets: list[tuple[str, str]], sent: dict[str, Any]
) -> dict[str, Any]:
    """Vote-to-screen times: for each vote (its nomination's count after it) and each socket
    of its sport, the first arrival of that count or a later one, minus the request's send
    time. Also the last count each socket holds per nomination, and the frames received."""
    send_times: dict[tuple[int, int], float] = {
        (n, c): t for n, c, t in sent["votes"]
    }  # (nomination, count) -> sent at
    sport_of: dict[int, str] = {int(k): v for k, v in sent["sports"].items()}
    expected: dict[str, int] = {}
    for (n, _), _t in send_times.items():
        expected[sport_of[n]] = expected.get(sport_of[n], 0) + 1
    latencies: list[float] = []
    missing = 0
    frames = 0
    last_counts: list[dict[int, int]] = []
    for log, (_, sport) in zip(logs, sockets, strict=True):
        seen: dict[int, int] = {}
        shown = 0
        frames += len(log)
        for arrived, votes in log:
            for n, count in votes:
                before = seen.get(n, 0)
                if count <= before:
                    continue
                for k in range(before + 1, count + 1):
                    sent_at = send_times.get((n, k))
                    if sent_at is not None:
                        latencies.append((arrived - sent_at) * 1000)
                        shown += 1
                seen[n] = count
        missing += expected.get(sport, 0) - shown
        last_counts.append(seen)
    latencies.sort()
    return {
        "p50": percentile(latencies, 50),
        "p99": percentile(latencies, 99),
        "max": latencies[-1] if latencies else float("nan"),
        "samples": len(latencies),
        "missing": missing,
        "frames": frames,
        "last": last_counts,
    }


def watcher_main(url: str, sockets: list[tuple[str, str]], offer: str, pipe: Connection) -> None:
    raise_file_limit(len(sockets) + 256)
    uvloop.run(_watchers(url, sockets, offer, pipe))


class Watchers:
    def __init__(
        self, url: str, sockets: list[tuple[str, str]], offer: str = BROWSER_OFFER
    ) -> None:
        self.sockets = sockets
        self.pipe, child = multiprocessing.Pipe()
        self.process = multiprocessing.get_context("spawn").Process(
            target=watcher_main, args=(url, sockets, offer, child), daemon=True
        )
        self.process.start()
        self._expect("ready", 360)

    def _expect(self, answer: str, timeout: float) -> Any:
        if not self.pipe.poll(timeout):
            raise RuntimeError(f"the watching sockets did not answer {answer!r}")
        got, value = self.pipe.recv()
        assert got == answer, got
        return value

    def mark(self) -> None:
        self.pipe.send(("mark", None))
        self._expect("marked", 30)

    def wait_until_shown(self, counts: dict[int, int], sports: dict[int, str], limit: float) -> int:
        """Wait (at most ``limit`` s) until every socket shows ``counts`` for the nominations
        of its sport: the screens catching up is part of vote-to-screen. Returns how many
        (socket, nomination) pairs are still behind."""
        deadline = time.monotonic() + limit
        while True:
            self.pipe.send(("behind", (counts, sports)))
            behind = int(self._expect("behind", 60))
            if behind == 0 or time.monotonic() > deadline:
                return behind
            time.sleep(1)

    def measure(self, votes: list[tuple[int, int, float]], sports: dict[int, str]) -> Any:
        self.pipe.send(("measure", {"votes": votes, "sports": sports}))
        return self._expect("measured", 120)

    def stop(self) -> int:
        self.pipe.send(("stop", None))
        failed, *again = self._expect("stopped", 30)
        self.process.join(10)
        self.again = Reconnects(*again)
        return int(failed)


# --- Load -------------------------------------------------------------------------------


@dataclass
class Answers:
    statuses: dict[int, int] = field(default_factory=dict)
    latencies_ms: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    votes: list[tuple[int, int, float]] = field(default_factory=list)  # (nomination, count, t)
    elapsed: float = 0.0
    peak: int = 0  # most requests in flight at once (a crowd arriving at a rate)
    cpu: dict[str, float] = field(default_factory=dict)  # seconds by component (cpu_spent)

    @property
    def ok(self) -> int:
        return self.statuses.get(200, 0) + self.statuses.get(201, 0)

    def rate(self) -> float:
        return self.ok / self.elapsed if self.elapsed else 0.0


class _Http:
    """One keep-alive HTTP/1.1 connection, written by hand as the watchers' sockets are. The
    voters stand for phones with CPUs of their own; on this machine httpx spent ~1.7 ms of
    CPU per request (more than the constant endpoint's server side), taken from the servers
    it measured. This reads what the bench needs (status, body by Content-Length or chunks)
    at a few per cent of that."""

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.authority = f"{self.host}:{self.port}".encode()
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> tuple[int, bytes]:
        """(status, body); a connection the server closed is opened again."""
        if self.writer is None or self.writer.is_closing():
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        head = [f"{method} {path} HTTP/1.1".encode(), b"Host: " + self.authority]
        head += [f"{name}: {value}".encode() for name, value in (headers or {}).items()]
        if body or method in ("POST", "PUT", "PATCH"):
            head.append(b"Content-Length: " + str(len(body)).encode())
        self.writer.write(b"\r\n".join(head) + b"\r\n\r\n" + body)
        async with asyncio.timeout(120):
            status_line, *lines = (await self.reader.readuntil(b"\r\n\r\n")).split(b"\r\n")
            fields = {}
            for line in lines:
                name, _, value = line.partition(b":")
                fields[name.strip().lower()] = value.strip().lower()
            closing = fields.get(b"connection") == b"close"
            if b"content-length" in fields:
                answer = await self.reader.readexactly(int(fields[b"content-length"]))
            elif fields.get(b"transfer-encoding") == b"chunked":
                answer = await self._chunks()
            else:  # the body runs to the end of the connection
                answer, closing = await self.reader.read(), True
        if closing:
            self.close()
        return int(status_line.split(b" ", 2)[1]), answer

    async def _chunks(self) -> bytes:
        assert self.reader is not None
        chunks = []
        while size := int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16):
            chunks.append(await self.reader.readexactly(size))
            await self.reader.readexactly(2)
        await self.reader.readuntil(b"\r\n")  # the empty trailer
        return b"".join(chunks)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def _vote(
    http: _Http, session: str, nomination_id: int, answers: Answers, started: float
) -> None:
    """One vote; its latency and vote-to-screen run from ``started`` (when it was sent, or
    when it arrived, for a crowd arriving at a rate)."""
    status, body = await http.request(
        "POST",
        "/api/votes",
        {
            "Cookie": f"sessionid={session}; csrftoken={CSRF}",
            "X-CSRFToken": CSRF,
            "Content-Type": "application/json",
        },
        json.dumps({"nominationId": nomination_id}).encode(),
    )
    answers.latencies_ms.append((time.perf_counter() - started) * 1000)
    answers.statuses[status] = answers.statuses.get(status, 0) + 1
    if status == 201:
        answers.votes.append((nomination_id, int(json.loads(body)["voteCount"]), started))
    elif len(answers.failures) < 5:
        answers.failures.append(f"{status} {body[:200].decode(errors='replace')}")


async def _vote_worker(base_url: str, jobs: list[tuple[str, int]], answers: Answers) -> None:
    http = _Http(base_url)
    try:
        for session, nomination_id in jobs:
            await _vote(http, session, nomination_id, answers, time.perf_counter())
    finally:
        http.close()


async def _arrivals(
    base_url: str, jobs: list[tuple[str, int]], rate: float, answers: Answers, seed: int
) -> None:
    """``jobs`` arriving as a crowd does, independently of the answers (a Poisson process of
    ``rate`` votes/s): each is sent when it arrives on an idle keep-alive connection, or a new
    one, and its time runs from its arrival, so a server that falls behind is measured by
    what its voters wait, not hidden by sending less (no coordinated omission)."""
    rng = random.Random(seed)
    idle: list[_Http] = []
    opened: list[_Http] = []
    tasks: list[asyncio.Task[None]] = []
    in_flight = 0

    async def one(session: str, nomination_id: int, arrived: float) -> None:
        nonlocal in_flight
        if idle:
            http = idle.pop()
        else:
            http = _Http(base_url)
            opened.append(http)
        in_flight += 1
        answers.peak = max(answers.peak, in_flight)
        try:
            await _vote(http, session, nomination_id, answers, arrived)
        finally:
            in_flight -= 1
            idle.append(http)

    arrival = time.perf_counter()
    try:
        for session, nomination_id in jobs:
            arrival += rng.expovariate(rate)
            await asyncio.sleep(max(0.0, arrival - time.perf_counter()))
            tasks.append(asyncio.create_task(one(session, nomination_id, arrival)))
        # Every task, so a vote that failed fails the round as in the closed loops.
        await asyncio.gather(*tasks)
    finally:
        for http in opened:
            http.close()


async def _get_worker(base_url: str, count: int, answers: Answers) -> None:
    http = _Http(base_url)
    try:
        for _ in range(count):
            started = time.perf_counter()
            status, _body = await http.request("GET", "/api/health")
            answers.latencies_ms.append((time.perf_counter() - started) * 1000)
            answers.statuses[status] = answers.statuses.get(status, 0) + 1
    finally:
        http.close()


# The bench's own processes, by name, in the CPU samples (cpu_by_component).
BENCH_PIDS: dict[int, str] = {os.getpid(): "bench: voters"}


async def _gather(coroutines: Sequence[Any], answers: Answers) -> Answers:
    cpu = cpu_by_component(BENCH_PIDS)
    started = time.perf_counter()
    await asyncio.gather(*coroutines)
    answers.elapsed = time.perf_counter() - started
    answers.cpu = cpu_spent(cpu, cpu_by_component(BENCH_PIDS))
    return answers


def constant(base_url: str, concurrency: int, requests: int) -> Answers:
    answers = Answers()
    per_worker = max(1, requests // concurrency)
    workers = [_get_worker(base_url, per_worker, answers) for _ in range(concurrency)]
    return uvloop.run(_gather(workers, answers))


def votes(base_url: str, concurrency: int, jobs: list[tuple[str, int]]) -> Answers:
    """``jobs`` (session, nomination) dealt to ``concurrency`` connections, each in turn."""
    answers = Answers()
    shares = [jobs[i::concurrency] for i in range(concurrency)]
    return uvloop.run(_gather([_vote_worker(base_url, s, answers) for s in shares], answers))


def arriving(base_url: str, rate: float, jobs: list[tuple[str, int]]) -> Answers:
    """``jobs`` sent as they arrive, ``rate`` a second on average (``_arrivals``)."""
    answers = Answers()
    return uvloop.run(_gather([_arrivals(base_url, jobs, rate, answers, seed=7)], answers))


def uniform_jobs(
    voters: list[str], nominations: list[int], per_voter: int, seed: int
) -> list[tuple[str, int]]:
    """Each voter votes for ``per_voter`` distinct nominations in an order of its own; the
    voters' turns are interleaved so each connection carries several voters."""
    rng = random.Random(seed)
    picks = [rng.sample(nominations, per_voter) for _ in voters]
    return [(voters[v], picks[v][k]) for k in range(per_voter) for v in range(len(voters))]


# --- Rounds -----------------------------------------------------------------------------


@dataclass
class Round:
    name: str
    concurrency: int  # for a crowd arriving at a rate: the most requests in flight at once
    answers: Answers
    screen: dict[str, Any]
    arriving: bool = False

    @property
    def label(self) -> str:
        if self.arriving:
            return f"{self.name} (at most {self.concurrency})"
        return f"{self.name} @{self.concurrency}"

    def row(self, baseline: float | None) -> str:
        a, s = self.answers, self.screen
        ratio = f"{a.rate() / baseline:.2f}" if baseline else "-"
        concurrency = f"<= {self.concurrency}" if self.arriving else str(self.concurrency)
        return (
            f"| {self.name} | {concurrency} | {a.ok:,} | **{a.rate():.0f}** | "
            f"{statistics.median(a.latencies_ms):.0f} / {percentile(a.latencies_ms, 99):.0f} | "
            f"{s['p50']:.0f} / **{s['p99']:.0f}** | {s['frames']:,} | {ratio} |"
        )


def vote_round(
    name: str,
    base_url: str,
    watchers: Watchers,
    fixture: Fixture,
    concurrency: int,
    jobs: list[tuple[str, int]],
    rate: float | None = None,
) -> Round:
    """``jobs`` from ``concurrency`` clients each sending its next vote on the answer to its
    last; or, given ``rate``, as a crowd arriving at that rate (``arriving``)."""
    watchers.mark()
    if rate is None:
        answers = votes(base_url, concurrency, jobs)
    else:
        answers = arriving(base_url, rate, jobs)
        concurrency = answers.peak
    sports = {**fixture.nominations, fixture.hot: SPORTS[len(fixture.nominations) % 5]}
    voted = {n for n, _, _ in answers.votes}
    counts = {n: c for n, c in database_state()["counts"].items() if n in voted}
    watchers.wait_until_shown(counts, sports, 180)
    screen = watchers.measure(answers.votes, sports)
    done = Round(name, concurrency, answers, screen, arriving=rate is not None)
    print(
        f"  {done.label}: {answers.rate():.0f} votes/s, p99 "
        f"{percentile(answers.latencies_ms, 99):.0f} ms, screen p99 {screen['p99']:.0f} ms "
        f"(load {os.getloadavg()[0]:.1f})",
        flush=True,
    )
    return done


# --- Main -------------------------------------------------------------------------------


@dataclass
class Stack:
    url: str
    shape: Any
    process: Any
    log: Path


def start_stack(
    own_url: str,
    http_server: str,
    extra_env: dict[str, str],
    http_threads: int | None = None,
    http_workers: int | None = None,
    pgbouncer: bool = False,
    metrics: bool = True,
) -> Stack:
    from project.ops.prodshape import Shape, running

    shape = Shape(port=0, http_server=http_server, metrics=metrics)
    if pgbouncer:
        shape.with_pgbouncer(own_url)
    if http_threads:
        shape.http_threads = http_threads
    if http_workers:
        shape.http_workers = http_workers
    log = Path(tempfile.gettempdir()) / f"bench-votes-{os.getpid()}-{http_server}.log"
    out = log.open("ab")
    context = running(shape, {**server_env(own_url), **extra_env}, output=out.fileno())
    process = context.__enter__()
    stack = Stack(url=shape.url, shape=shape, process=process, log=log)
    stack.context = context  # type: ignore[attr-defined]
    return stack


def scraped_votes(stack: Stack) -> float:
    """``votes_cast_total`` as the HTTP pool's metrics port serves it (the sum of its
    workers')."""
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(stack.shape.metrics_url("http"), timeout=10) as answer:
        text = answer.read().decode()
    return sum(
        sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
        if sample.name == "votes_cast_total"
    )


def stop_stack(stack: Stack) -> None:
    stack.context.__exit__(None, None, None)  # type: ignore[attr-defined]


def machine() -> str:
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{os.cpu_count()} cores ({cpu or platform.machine()}), Python "
        f"{platform.python_version()}, PostgreSQL and Redis on localhost"
    )


def checks(fixture: Fixture, rounds: list[Round], watched: list[dict[int, int]]) -> list[str]:
    """The none-lost checks over the whole run; an empty list when everything holds."""
    state = database_state()
    created = sum(r.answers.statuses.get(201, 0) for r in rounds)
    total = sum(sum(r.answers.statuses.values()) for r in rounds)
    problems = []
    if created != total:
        problems.append(f"{total - created} answers were not 201")
    if not state["rows"] == state["counters"] == created:
        problems.append(
            f"rows {state['rows']}, counters {state['counters']}, 201 answers {created}"
        )
    if state["drifting"]:
        problems.append(f"{state['drifting']} nominations' counters differ from their rows")
    sports = {**fixture.nominations, fixture.hot: SPORTS[len(fixture.nominations) % 5]}
    stale = 0
    for last, (_, sport) in zip(watched, fixture.watchers, strict=True):
        for n, s in sports.items():
            if s == sport and state["counts"].get(n, 0) and last.get(n, 0) != state["counts"][n]:
                stale += 1
    if stale:
        problems.append(f"{stale} (socket, nomination) pairs show a count other than the counter")
    missing = sum(r.screen["missing"] for r in rounds)
    if missing:
        problems.append(f"{missing} (vote, socket) pairs never showed the vote")
    return problems


def main_run(args: argparse.Namespace, own_url: str, fixture: Fixture) -> None:
    stack = start_stack(
        own_url, args.http, {}, http_threads=args.http_threads, http_workers=args.http_workers
    )
    rounds: list[Round] = []
    constants: dict[int, Answers] = {}
    last_counts: list[dict[int, int]] = [{} for _ in fixture.watchers]
    ids = list(fixture.nominations)
    try:
        watchers = watch(stack, fixture, args)
        BENCH_PIDS[watchers.process.pid or 0] = "bench: watchers"
        print(f"{len(fixture.watchers):,} sockets watching through nginx", flush=True)
        for concurrency in args.concurrency:
            constants[concurrency] = constant(stack.url, concurrency, args.constant_requests)
            print(
                f"  GET /api/health @{concurrency}: {constants[concurrency].rate():.0f} req/s",
                flush=True,
            )
            voters = fixture.take_voters(args.votes // args.votes_per_voter)
            jobs = uniform_jobs(voters, ids, args.votes_per_voter, seed=concurrency)
            rounds.append(vote_round("uniform", stack.url, watchers, fixture, concurrency, jobs))
            _merge_last(last_counts, rounds[-1].screen["last"])
        # A crowd below what the machine carries: votes arriving at a share of the first
        # round's votes/s, whatever the answers (a closed loop keeps the machine saturated,
        # so its latency is its clients over its throughput).
        capacity = rounds[0].answers.rate()
        for share in args.arrival:
            voters = fixture.take_voters(args.votes // args.votes_per_voter)
            jobs = uniform_jobs(voters, ids, args.votes_per_voter, seed=round(share * 100))
            rate = share * capacity
            rounds.append(
                vote_round(
                    f"uniform, arriving at {rate:.0f}/s ({share:.0%})",
                    stack.url,
                    watchers,
                    fixture,
                    args.concurrency[0],
                    jobs,
                    rate=rate,
                )
            )
            _merge_last(last_counts, rounds[-1].screen["last"])
        hot_voters = fixture.take_voters(args.hot_votes)
        hot = vote_round(
            HOT,
            stack.url,
            watchers,
            fixture,
            args.concurrency[0],
            [(s, fixture.hot) for s in hot_voters],
        )
        rounds.append(hot)
        _merge_last(last_counts, hot.screen["last"])
        dropped = watchers.stop()
        scraped = scraped_votes(stack)
    finally:
        stop_stack(stack)
        forget_keys(f"{PREFIX}*", f":*:{PREFIX}*", f"*{PREFIX}*")
    problems = checks(fixture, rounds, last_counts)
    if dropped:
        problems.append(f"{dropped} watching sockets gave up during the run")
    created = sum(r.answers.statuses.get(201, 0) for r in rounds)
    if scraped != created:
        problems.append(f"the pool's scraped votes_cast_total is {scraped:.0f}, not {created}")
    text, ok = report(args, rounds, constants, problems, watchers.again)
    text += (
        f"\nThe HTTP pool's scraped `votes_cast_total`: {scraped:,.0f}; 201 answers: {created:,}.\n"
    )
    finish(SECTION, text, ok, write=not args.no_write)


def _merge_last(into: list[dict[int, int]], new: list[dict[int, int]]) -> None:
    for held, got in zip(into, new, strict=True):
        held.update(got)


def report(
    args: argparse.Namespace,
    rounds: list[Round],
    constants: dict[int, Answers],
    problems: list[str],
    again: Reconnects,
) -> tuple[str, bool]:
    load = os.getloadavg()
    uniform = {r.concurrency: r for r in rounds if r.name == "uniform"}
    hot = next(r for r in rounds if r.name == HOT)
    first = args.concurrency[0]
    base = uniform[first]
    ratio_constant = base.answers.rate() / constants[first].rate()
    ratio_hot = hot.answers.rate() / base.answers.rate()
    base_p99 = percentile(base.answers.latencies_ms, 99)
    figures = [
        (
            f"votes/s, concurrency {first}, {len(args.watchers_list):,} sockets watching",
            f"{base.answers.rate():.0f}",
            f">= {TARGETS['votes_per_s']}",
            base.answers.rate() >= TARGETS["votes_per_s"],
        ),
        (
            f"vote request p99 at concurrency {first}",
            f"{base_p99:.0f} ms",
            f"<= {TARGETS['p99_ms']} ms",
            base_p99 <= TARGETS["p99_ms"],
        ),
        (
            "vote-to-screen p99 at every socket under that load",
            f"{base.screen['p99']:.0f} ms",
            f"<= {TARGETS['screen_p99_ms']} ms",
            base.screen["p99"] <= TARGETS["screen_p99_ms"],
        ),
        (
            "votes/s / constant-endpoint req/s",
            f"{ratio_constant:.2f}",
            f">= {TARGETS['ratio_constant']}",
            ratio_constant >= TARGETS["ratio_constant"],
        ),
        (
            "one hot nomination / uniform",
            f"{ratio_hot:.2f}",
            f">= {TARGETS['ratio_hot']}",
            ratio_hot >= TARGETS["ratio_hot"],
        ),
        ("lost votes or events", "; ".join(problems) or "0", "0", not problems),
    ]
    ok = all(f[3] for f in figures)
    lines = [
        SECTION,
        "",
        f"Machine: {machine()}. Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by `bench/votes.py` "
        f"(`make bench`); load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (1 / 5 / "
        "15 min) when it finished: the machine is shared, absolute figures move with it, the "
        "ratios are from this one run.",
        "",
        f"The production shape (`make serve-prod`'s launcher): nginx -> HTTP pool "
        f"({args.http}, {workers(args)} workers{threads(args)}) and /ws/ -> 2 daphne processes; "
        "PostgreSQL, Redis. "
        f"{len(args.watchers_list):,} sockets watching through nginx (one signed-in user each, "
        "spread over the five sports, held by a second bench process); every vote by a "
        f"voter of its own making {args.votes_per_voter} votes (uniform) or 1 (hot), cookie "
        "and CSRF header like the SPA, one keep-alive connection per concurrent client. "
        f"The sockets {offered(args)}. {clients_note(args.clients_first)}",
        "",
        "| figure | this run | target | |",
        "|---|---|---|---|",
        *(
            f"| {name} | {value} | {target} | {'met' if met else '**missed**'} |"
            for name, value, target, met in figures
        ),
        "",
        "| round | concurrency | 201 answers | votes/s | request p50 / p99 ms | "
        "vote-to-screen p50 / p99 ms | vote.changed frames | votes/s / constant |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rounds:
        baseline = None if r.arriving else constants[r.concurrency].rate()
        lines.append(r.row(baseline))
    for c, a in constants.items():
        lines.append(
            f"| `GET /api/health` (constant) | {c} | {a.ok:,} (200) | {a.rate():.0f} req/s | "
            f"{statistics.median(a.latencies_ms):.0f} / {percentile(a.latencies_ms, 99):.0f} | "
            "- | - | 1.00 |"
        )
    hot_vs = ", ".join(
        f"@{c}: {r.answers.rate() / constants[c].rate():.2f}" for c, r in uniform.items()
    )
    lines += [
        "",
        f"- votes/s over the constant endpoint's req/s at the same concurrency: {hot_vs}; one "
        f"hot nomination over uniform (both @{first}): {ratio_hot:.2f}.",
        "- vote-to-screen: from sending the request to the first `vote.changed` at a socket "
        "carrying the vote's count or a later one, for every vote and every socket of its "
        "sport.",
        "- A crowd arriving (`--arrival`): votes sent as they arrive, a Poisson process at the "
        f"share of the uniform round @{first}'s votes/s in the round's name, on as many "
        "keep-alive connections as are busy at once (the concurrency column: the most in "
        "flight); request and vote-to-screen times run from each vote's arrival. The rounds "
        f"@{first} and @128 are closed loops (each client sends on its last answer): they keep "
        "the machine saturated, so their latency is their clients over their throughput.",
        f"- Sockets the server closed during the run (a client fallen behind: 4008) and that "
        f"came back as the SPA does: {again.closed:,}; resumed from their cursor: "
        f"{again.resumed:,}; told to resync: {again.resynced:,} (a resync refetches, so its "
        "votes count as never shown).",
        f"- Checks over the whole run: {'none lost' if not problems else '; '.join(problems)} "
        "(every answer 201; vote rows = sum of counters = 201 answers; every socket's last "
        "pushed count of every nomination of its sport = the counter; every vote shown at "
        "every socket of its sport).",
        "",
        f"Result: {'PASS' if ok else 'FAIL'}.",
        "",
    ]
    lines += cpu_table(rounds, constants)
    failures = [f for r in rounds for f in r.answers.failures]
    if failures:
        lines += ["Failures (first 5):", "", *(f"- `{f}`" for f in failures[:5]), ""]
    return "\n".join(lines), ok


CPU_ORDER = (
    "http pool",
    "daphne (/ws/)",
    "postgres",
    "redis",
    "nginx",
    "bench: voters",
    "bench: watchers",
    "other",
)


def cpu_table(rounds: list[Round], constants: dict[int, Answers]) -> list[str]:
    """Where the two cores went: CPU ms per answer by process group in each round, and the
    cores busy in all (the machine's total over the round's time)."""
    runs = [(r.label, r.answers) for r in rounds] + [
        (f"constant @{c}", a) for c, a in constants.items()
    ]
    lines = [
        "CPU per answer by process (ms; user + system from /proc, sampled around each round):",
        "",
        "| round | " + " | ".join(CPU_ORDER) + " | all | cores busy |",
        "|---|" + "---:|" * (len(CPU_ORDER) + 2),
    ]
    for name, answers in runs:
        if not answers.ok or not answers.cpu:
            continue
        total = sum(answers.cpu.values())
        cells = [f"{answers.cpu.get(c, 0.0) * 1000 / answers.ok:.1f}" for c in CPU_ORDER]
        lines.append(
            f"| {name} | " + " | ".join(cells) + f" | **{total * 1000 / answers.ok:.1f}** | "
            f"{total / answers.elapsed:.2f} |"
        )
    return [*lines, ""]


def compare_http(args: argparse.Namespace, own_url: str, fixture: Fixture) -> None:
    rows: list[tuple[str, Answers, Round, float]] = []
    ids = list(fixture.nominations)
    concurrency = args.concurrency[0]
    # A, B, C, C, B, A: a load that drifts during the run weighs on every server alike.
    servers = ("gthread", "uvicorn", "daphne")
    for server in [*servers, *reversed(servers)][: 3 * args.compare_passes]:
        stack = start_stack(own_url, server, {})
        try:
            watchers = watch(stack, fixture, args)
            base = constant(stack.url, concurrency, args.constant_requests)
            voters = fixture.take_voters(args.votes // args.votes_per_voter)
            jobs = uniform_jobs(voters, ids, args.votes_per_voter, seed=len(rows))
            r = vote_round(server, stack.url, watchers, fixture, concurrency, jobs)
            watchers.stop()
        finally:
            stop_stack(stack)
            forget_keys(f"{PREFIX}*", f":*:{PREFIX}*", f"*{PREFIX}*")
        rows.append((server, base, r, os.getloadavg()[0]))
    names = {
        "gthread": "gunicorn, 2 gthread workers x 8 threads (WSGI, project.wsgi)",
        "uvicorn": "gunicorn, 2 uvicorn workers (ASGI, project.asgi)",
        "daphne": "2 daphne processes (ASGI, project.asgi)",
    }
    lines = [
        HTTP_SECTION,
        "",
        f"Machine: {machine()}. Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by "
        "`bench/votes.py --compare-http`; the same stack but for the HTTP pool (nginx, two "
        f"daphne processes for /ws/ with {len(fixture.watchers):,} sockets watching), one "
        f"after the other at concurrency {concurrency} in the order of the rows ({args.votes:,} "
        "votes a row), so a load drifting during the run weighs on each server alike; the "
        "last rows are each server's means.",
        "",
        "| HTTP pool | `GET /api/health` req/s | votes/s | vote p50 / p99 ms | "
        "vote-to-screen p99 ms | votes/s / constant | load |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for server, base, r, load in rows:
        a = r.answers
        lines.append(
            f"| {names[server]} | {base.rate():.0f} | **{a.rate():.0f}** | "
            f"{statistics.median(a.latencies_ms):.0f} / {percentile(a.latencies_ms, 99):.0f} | "
            f"{r.screen['p99']:.0f} | {a.rate() / base.rate():.2f} | {load:.1f} |"
        )
    for server in servers:
        mine = [(base, r) for name, base, r, _ in rows if name == server]
        lines.append(
            f"| **mean: {server}** | {statistics.mean(b.rate() for b, _ in mine):.0f} | "
            f"**{statistics.mean(r.answers.rate() for _, r in mine):.0f}** | "
            f"- / {statistics.mean(percentile(r.answers.latencies_ms, 99) for _, r in mine):.0f}"
            f" | {statistics.mean(r.screen['p99'] for _, r in mine):.0f} | "
            f"{statistics.mean(r.answers.rate() / b.rate() for b, r in mine):.2f} | |"
        )
    lines += ["", f"The sockets {offered(args)}. {clients_note(args.clients_first)}"]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        write_section(HTTP_SECTION, text)


def compare_gc(args: argparse.Namespace, own_url: str, fixture: Fixture) -> None:
    rows: list[tuple[str, Round, list[float], list[float], float]] = []
    ids = list(fixture.nominations)
    concurrency = args.concurrency[0]
    for label, env in (("stock (threshold 700,10,10, nothing frozen)", STOCK_GC), ("tuned", {})):
        pauses = Path(tempfile.gettempdir()) / f"bench-gc-{os.getpid()}-{len(rows)}.log"
        pauses.unlink(missing_ok=True)
        stack = start_stack(own_url, args.http, {**env, "GC_PAUSE_LOG": str(pauses)})
        try:
            watchers = watch(stack, fixture, args)
            mark = pauses.stat().st_size if pauses.exists() else 0
            voters = fixture.take_voters(args.votes // args.votes_per_voter)
            jobs = uniform_jobs(voters, ids, args.votes_per_voter, seed=100 + len(rows))
            r = vote_round(label, stack.url, watchers, fixture, concurrency, jobs)
            watchers.stop()
            ws_pids = set(_ws_pids(stack))
        finally:
            stop_stack(stack)
            forget_keys(f"{PREFIX}*", f":*:{PREFIX}*", f"*{PREFIX}*")
        with pauses.open(encoding="utf-8") as stream:
            stream.seek(mark)
            entries = [line.split() for line in stream if line.strip()]
        ws = [e for e in entries if int(e[0]) in ws_pids]
        full = [float(e[2]) for e in ws if e[1] == "2"]
        mid = [float(e[2]) for e in ws if e[1] == "1"]
        rows.append((label, r, full, mid, os.getloadavg()[0]))
    lines = [
        GC_SECTION,
        "",
        f"Machine: {machine()}. Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by "
        "`bench/votes.py --compare-gc`: the production shape with "
        f"{len(fixture.watchers):,} sockets watching, the uniform round at concurrency "
        f"{concurrency} ({args.votes:,} votes), once with CPython's stock collector "
        "(`GC_FREEZE=0 GC_THRESHOLD=700,10,10`) and once with project/common/heap.py's tuning "
        "(start-up heap frozen, threshold 50000,20,100). Collections of the two daphne "
        "processes during the round (`GC_PAUSE_LOG`).",
        "",
        "| collector | full (gen 2) collections | full pause p50 / max ms | gen 1 collections "
        "| gen 1 max ms | votes/s | vote-to-screen p99 ms | load |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, r, full, mid, load in rows:
        lines.append(
            f"| {label} | {len(full)} | "
            f"{(statistics.median(full) if full else 0):.1f} / {max(full, default=0):.1f} | "
            f"{len(mid)} | {max(mid, default=0):.1f} | {r.answers.rate():.0f} | "
            f"{r.screen['p99']:.0f} | {load:.1f} |"
        )
    lines += ["", f"The sockets {offered(args)}. {clients_note(args.clients_first)}"]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        write_section(GC_SECTION, text)


# The stack's own processes: what a vote costs the servers (not the bench's clients).
STACK = ("http pool", "daphne (/ws/)", "postgres", "pgbouncer", "redis", "nginx")


def compare_pgbouncer(args: argparse.Namespace, own_url: str, fixture: Fixture) -> None:
    """The uniform round (watchers pushed every vote) directly, directly with the settings a
    transaction pooler needs, and through PgBouncer; with two passes in the order A, B, C, C,
    B, A, so a load that drifts weighs on each alike. CPU per vote from /proc by component."""
    configs = {
        "direct": ({}, False),
        "direct, DB_POOLER=transaction": ({"DB_POOLER": "transaction"}, False),
        "through PgBouncer (transaction mode)": ({}, True),
    }
    ids = list(fixture.nominations)
    concurrency = args.concurrency[0]
    rows: list[tuple[str, Round, float]] = []
    names = list(configs)
    for name in [*names, *reversed(names)][: 3 * args.compare_passes]:
        env, through = configs[name]
        stack = start_stack(own_url, args.http, env, pgbouncer=through)
        try:
            watchers = watch(stack, fixture, args)
            BENCH_PIDS[watchers.process.pid or 0] = "bench: watchers"
            voters = fixture.take_voters(args.votes // args.votes_per_voter)
            jobs = uniform_jobs(voters, ids, args.votes_per_voter, seed=200 + len(rows))
            r = vote_round(name, stack.url, watchers, fixture, concurrency, jobs)
            watchers.stop()
        finally:
            stop_stack(stack)
            forget_keys(f"{PREFIX}*", f":*:{PREFIX}*", f"*{PREFIX}*")
        rows.append((name, r, os.getloadavg()[0]))

    def per_vote(r: Round, component: str | None = None) -> float:
        cpu, ok = r.answers.cpu, max(1, r.answers.ok)
        spent = cpu.get(component, 0.0) if component else sum(cpu.get(c, 0.0) for c in STACK)
        return spent * 1000 / ok

    baseline = statistics.mean(per_vote(r) for name, r, _ in rows if name == names[0])
    lines = [
        PGBOUNCER_SECTION,
        "",
        f"Machine: {machine()}. Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by "
        "`bench/votes.py --compare-pgbouncer`: the production shape with "
        f"{len(fixture.watchers):,} sockets watching, the uniform round at concurrency "
        f"{concurrency} ({args.votes:,} votes a row) in the order of the rows. CPU ms per vote "
        "(user + system from /proc) of the stack's processes (HTTP pool, daphne, PostgreSQL, "
        "PgBouncer, Redis, nginx; not the bench's clients); the ratio is against the mean of "
        "the direct rows of this run; load is the 1-minute load average after the row.",
        "",
        "| database | votes/s | vote p99 ms | http pool | postgres | pgbouncer | stack | "
        "ratio | load |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, r, load in rows:
        a = r.answers
        lines.append(
            f"| {name} | {a.rate():.0f} | {percentile(a.latencies_ms, 99):.0f} | "
            f"{per_vote(r, 'http pool'):.1f} | {per_vote(r, 'postgres'):.1f} | "
            f"{per_vote(r, 'pgbouncer'):.1f} | **{per_vote(r):.1f}** | "
            f"**{per_vote(r) / baseline:.2f}** | {load:.1f} |"
        )
    if args.compare_passes > 1:
        for name in names:
            mine = [r for n, r, _ in rows if n == name]
            mean = statistics.mean(per_vote(r) for r in mine)
            lines.append(
                f"| **mean: {name}** | {statistics.mean(r.answers.rate() for r in mine):.0f} | "
                f"| | | | **{mean:.1f}** | **{mean / baseline:.2f}** | |"
            )
    lines += ["", f"The sockets {offered(args)}. {clients_note(args.clients_first)}"]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        write_section(PGBOUNCER_SECTION, text)


def compare_metrics(args: argparse.Namespace, own_url: str, fixture: Fixture) -> None:
    """The uniform round (watchers pushed every vote) with every process exporting metrics
    (the shape as served: the pool in multiprocess mode, a metrics port per process, the
    delivery probe) and with none exporting them, in the order on, off, off, on so a load
    that drifts weighs on each alike. CPU per vote of the stack's processes from /proc, and
    the pool's scraped ``votes_cast_total`` against the round's 201 answers."""
    ids = list(fixture.nominations)
    concurrency = args.concurrency[0]
    order = [True, False, False, True][: 2 * args.compare_passes]
    rows: list[tuple[bool, Round, float, float | None]] = []
    for on in order:
        stack = start_stack(own_url, args.http, {}, metrics=on)
        try:
            watchers = watch(stack, fixture, args)
            BENCH_PIDS[watchers.process.pid or 0] = "bench: watchers"
            voters = fixture.take_voters(args.votes // args.votes_per_voter)
            jobs = uniform_jobs(voters, ids, args.votes_per_voter, seed=300 + len(rows))
            label = "metrics on" if on else "metrics off"
            r = vote_round(label, stack.url, watchers, fixture, concurrency, jobs)
            watchers.stop()
            scraped = scraped_votes(stack) if on else None
        finally:
            stop_stack(stack)
            forget_keys(f"{PREFIX}*", f":*:{PREFIX}*", f"*{PREFIX}*")
        rows.append((on, r, os.getloadavg()[0], scraped))

    def per_vote(r: Round, component: str | None = None) -> float:
        cpu, ok = r.answers.cpu, max(1, r.answers.ok)
        spent = cpu.get(component, 0.0) if component else sum(cpu.get(c, 0.0) for c in STACK)
        return spent * 1000 / ok

    off = statistics.mean(per_vote(r) for on, r, _, _ in rows if not on)
    on_mean = statistics.mean(per_vote(r) for on, r, _, _ in rows if on)
    lines = [
        METRICS_SECTION,
        "",
        f"Machine: {machine()}. Run {datetime.now(UTC):%Y-%m-%d %H:%M} UTC by "
        "`bench/votes.py --compare-metrics`: the production shape with "
        f"{len(fixture.watchers):,} sockets watching, the uniform round at concurrency "
        f"{concurrency} ({args.votes:,} votes a row) in the order of the rows, with every "
        "process exporting metrics (the pool in multiprocess mode, a metrics port per process, "
        "the delivery probe) and with none (no metrics port, no multiprocess files, no probe; "
        "the counters still count in each process's memory). CPU ms per vote (user + system "
        "from /proc) of the stack's processes; the ratio is against the mean of the off rows; "
        "load is the 1-minute load average after the row.",
        "",
        "| metrics | votes/s | vote p99 ms | http pool | daphne | stack | ratio | "
        "scraped votes_cast_total / 201 answers | load |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    mismatched = []
    for on, r, load, scraped in rows:
        a = r.answers
        created = a.statuses.get(201, 0)
        if on and scraped != created:
            mismatched.append(f"scraped {scraped} != {created} answers")
        counted = f"{scraped:,.0f} / {created:,}" if on and scraped is not None else "-"
        lines.append(
            f"| {'on' if on else 'off'} | {a.rate():.0f} | {percentile(a.latencies_ms, 99):.0f} "
            f"| {per_vote(r, 'http pool'):.2f} | {per_vote(r, 'daphne (/ws/)'):.2f} | "
            f"**{per_vote(r):.2f}** | **{per_vote(r) / off:.3f}** | {counted} | {load:.1f} |"
        )
    ratio = on_mean / off
    lines += [
        f"| **mean: on over off** | | | | | | **{ratio:.3f}** | | |",
        "",
        f"Target: on within 3% of off ({'met' if ratio <= 1.03 else 'missed'}); the scraped "
        f"counter equals the answers ({'yes' if not mismatched else '; '.join(mismatched)}).",
        "",
        f"The sockets {offered(args)}. {clients_note(args.clients_first)}",
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.no_write:
        write_section(METRICS_SECTION, text)
    if mismatched or ratio > 1.03:
        raise SystemExit(1)


def _ws_pids(stack: Stack) -> list[int]:
    """The daphne /ws/ processes' pids: the processes listening on the ws ports."""
    ports = {f"{p:04X}" for p in stack.shape.ws_ports}
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            for line in Path(table).read_text().splitlines()[1:]:
                parts = line.split()
                if parts[3] == "0A" and parts[1].rsplit(":", 1)[1] in ports:
                    inodes.add(parts[9])
        except OSError:
            continue
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:[") and target[8:-1] in inodes:
                    pids.append(int(entry.name))
                    break
        except OSError:
            continue
    return pids


def watch(stack: Stack, fixture: Fixture, args: argparse.Namespace) -> Watchers:
    """The fixture's watching sockets on ``stack``'s /ws/, offering what browsers offer
    (nothing with ``--no-compress``)."""
    offer = "" if args.no_compress else BROWSER_OFFER
    return Watchers(stack.url.replace("http://", "ws://") + "/ws/", fixture.watchers, offer)


def offered(args: argparse.Namespace) -> str:
    if args.no_compress:
        return "offer no compression (`--no-compress`): plain frames, unlike browsers"
    return "offer permessage-deflate as browsers do, and inflate what comes compressed"


def workers(args: argparse.Namespace) -> int:
    """The HTTP pool's processes, as the report names them."""
    from project.ops.prodshape import Shape

    return int(args.http_workers or Shape.http_workers)


def threads(args: argparse.Namespace) -> str:
    """The gthread workers' threads, as the report names them."""
    if args.http != "gthread":
        return ""
    from project.ops.prodshape import Shape

    return f" x {args.http_threads or Shape.http_threads} threads"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=1000, help="sockets watching (1000)")
    parser.add_argument(
        "--concurrency",
        type=lambda text: [int(c) for c in text.split(",")],
        default=[32, 128],
        help="comma-separated; the first is also the hot round's (32,128)",
    )
    parser.add_argument("--votes", type=int, default=3000, help="votes per uniform round")
    parser.add_argument(
        "--arrival",
        type=lambda text: [float(c) for c in text.split(",") if c],
        default=[0.5, 0.75],
        help="comma-separated shares of the first round's votes/s at which a crowd's votes "
        "then arrive, one uniform round each (0.5,0.75; empty: none)",
    )
    parser.add_argument("--votes-per-voter", type=int, default=10)
    parser.add_argument("--hot-votes", type=int, default=2000, help="votes of the hot round")
    parser.add_argument("--nominations", type=int, default=100)
    parser.add_argument("--constant-requests", type=int, default=3000)
    parser.add_argument("--http", default="gthread", choices=("gthread", "uvicorn", "daphne"))
    parser.add_argument(
        "--http-threads", type=int, help="gthread: threads per HTTP worker (the shape's: 16)"
    )
    parser.add_argument(
        "--http-workers", type=int, help="processes of the HTTP pool (the shape's: 2)"
    )
    parser.add_argument("--compare-http", action="store_true")
    parser.add_argument(
        "--compare-passes",
        type=int,
        default=2,
        help="--compare-http, --compare-pgbouncer, --compare-metrics: 1 or 2",
    )
    parser.add_argument("--compare-gc", action="store_true")
    parser.add_argument("--compare-pgbouncer", action="store_true")
    parser.add_argument("--compare-metrics", action="store_true")
    parser.add_argument("--database", default="scouting_bench_votes")
    parser.add_argument(
        "--no-compress",
        action="store_true",
        help="the watching sockets offer no permessage-deflate (plain frames), unlike browsers",
    )
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    return parser.parse_args()


def main() -> None:
    # SIGTERM as Ctrl-C: the servers, the watching process and the database are cleaned up.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args = parse_args()
    url, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not url or not redis_url:
        sys.exit("bench/votes.py needs DATABASE_URL (PostgreSQL) and REDIS_URL")
    raise_file_limit(args.watchers + 512)
    own_url = database_url(url, args.database, "bench/votes.py")
    recreate_database(url, args.database)
    os.environ.update(server_env(own_url))
    django_setup()
    sys.path.insert(0, str(ROOT))
    rounds = len(args.concurrency) + len(args.arrival)
    if args.compare_http or args.compare_gc or args.compare_pgbouncer:
        rounds = 3 * args.compare_passes
    if args.compare_metrics:
        rounds = 2 * args.compare_passes
    voters = rounds * (args.votes // args.votes_per_voter) + args.hot_votes
    print(f"Preparing {voters:,} voters and {args.watchers:,} watchers...", flush=True)
    fixture = prepare(voters, args.watchers, args.nominations)
    args.watchers_list = fixture.watchers
    try:
        with client_priority() as raised:
            args.clients_first = raised
            if args.compare_http:
                compare_http(args, own_url, fixture)
            elif args.compare_gc:
                compare_gc(args, own_url, fixture)
            elif args.compare_pgbouncer:
                compare_pgbouncer(args, own_url, fixture)
            elif args.compare_metrics:
                compare_metrics(args, own_url, fixture)
            else:
                main_run(args, own_url, fixture)
    finally:
        if not args.keep:
            drop_databases(url, args.database)


if __name__ == "__main__":
    main()
