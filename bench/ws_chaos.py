"""Chaos: sockets on two daphne processes under a steady vote load, dropped at random for a
second to minutes, while each daphne process and Redis are restarted once.

As in the production shape (project/ops/prodshape.py), the sockets go to the daphne
processes and every REST call (the votes, the clients' reads after a resync) to an HTTP pool
of its own (gunicorn, two gthread workers), which is not restarted: a daphne restart is the
live layer's, not the REST API's.

Every client speaks the SPA's protocol (realtime/README.md): cursors per group, resume on
reconnect, resume on a gap, resync (a REST read of the sport's nominations) when told, the
epoch in hello, `skipped`, the snapshot, the 4503 backoff, the subscribe that carries the
cursor, and the bell (its notifications read at first and after a resync of its user group,
then kept from `notification.created` as the SPA keeps them). The voters are clients too, and
some of them nominated the sport's nominations, so they get `vote_received` notifications
while they vote and are dropped. Per client and group it counts:

* missed: events never applied and not closed by a resync (each group's last seq at the end
  minus the client's cursor: the sport's and the client's own user group);
* duplicated: an event at or below the client's cursor arriving (it would be applied twice by
  a client trusting the server);
* out of order: an event older than the one before it on the same connection.

At the end (the load stopped, every client back) each client's vote counts and all-time board
must equal the database, and so must its bell: the unread count and the latest notifications
it holds. Convergence: after each restart, the time until every client that was there when
the restarted process was back (not away on purpose then, and not gone away since) is
connected again and has every event published until that moment (the sport's sequence then:
chasing the moving head would measure this process's own lag in reading 1,000 sockets under
the load, not the server's recovery). Clients coming back from a drop during that time are
the run's steady churn (1% a second), not the restart's: at any moment a few dozen of them
are in their handshake or replay, so counting them would never let a restart converge.

    make bench                                      # 1,000 sockets, 4 minutes
    python bench/ws_chaos.py --sockets 100 --duration 40 --max-away 10 --no-write

Needs DATABASE_URL (PostgreSQL: a database of its own, --database or chaos_bench, is made and
dropped),
REDIS_URL (only to find redis-server's settings: the run starts a private redis-server with
an append-only file, so a restart keeps the live layer's data as a production Redis would)
and redis-server. Exits 1 when any count is not 0 or a state differs from the database.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from common import (
    HOST,
    ServerProcess,
    approved_nominations,
    client_priority,
    clients_note,
    daphne_command,
    database_url,
    django_setup,
    drop_databases,
    finish,
    free_port,
    new_user,
    private_redis,
    recreate_database,
    session_for,
)
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

SECTION = "## Chaos (bench/ws_chaos.py)"
SPORT = "soccer"
GROUP = f"sport.{SPORT}"
DATABASE = "chaos_bench"
BELL_SIZE = 20  # the notifications the SPA's bell holds (NOTIFICATIONS_SHOWN)
# An event's head as the live layer writes it (realtime/events.py): its sequence is read
# from there, and only the events whose data the client keeps are parsed whole. 1,000
# clients in this one process read ~50,000 frames a second, and parsing each one's JSON
# was a large part of its work. Reading the replays after a restart still makes this
# process, not the servers, what limits convergence (bench/RESULTS.md, "Chaos").
EVENT_HEAD = re.compile(r'\{"type":"([a-z._]+)","group":"([^"]+)","seq":(\d+)')
KEPT = {"vote.changed", "notification.created", "leaderboard.changed"}
PREFIX = "chaos"


# --- Servers ------------------------------------------------------------------------------


# --- The database -------------------------------------------------------------------------


@dataclass
class Fixture:
    sessions: list[str]
    user_ids: list[int]  # the clients' users, as sessions
    voter_sessions: list[tuple[str, str]]  # (sessionid, csrftoken): the first clients'
    nomination_ids: list[int]


def prepare(sockets: int, voters: int, nominations: int, nominators: int) -> Fixture:
    """Users with a socket each; the first ``voters`` of them vote, and the first
    ``nominators`` of those nominated the sport's nominations (in turn), so they receive
    vote_received notifications."""
    from django.middleware.csrf import _get_new_csrf_string

    from project.accounts.models import User

    users = User.objects.bulk_create([new_user(f"chaos_{i}") for i in range(sockets)])
    voters, nominators = min(voters, sockets), max(1, min(nominators, voters, sockets))
    created = []
    for first in range(nominators):
        numbers = range(first, nominations, nominators)
        created += approved_nominations(
            users[first], [SPORT] * len(numbers), [f"chaos {i}|{SPORT}" for i in numbers]
        )
    sessions = [session_for(user) for user in users]
    voter_sessions = [(key, _get_new_csrf_string()) for key in sessions[:voters]]
    return Fixture(sessions, [user.pk for user in users], voter_sessions, [n.pk for n in created])


def database_bells(user_ids: list[int]) -> dict[int, tuple[int, list[dict[str, Any]]]]:
    """Per user: the unread count and the latest notifications, as GET /api/notifications
    answers them."""
    from project.scouting import selectors
    from project.scouting.models import Notification

    bells = {}
    for user_id in user_ids:
        rows = Notification.objects.filter(user_id=user_id).order_by("-created_at", "-id")
        unread = Notification.objects.filter(user_id=user_id, read=False).count()
        bells[user_id] = (unread, [selectors.notification_data(n) for n in rows[:BELL_SIZE]])
    return bells


def bell_key(notification: dict[str, Any]) -> tuple[Any, ...]:
    """What the bell shows of a notification (its time parsed: the same instant)."""
    from datetime import datetime

    shown = datetime.fromisoformat(str(notification["createdAt"]).replace("Z", "+00:00"))
    return (
        shown,
        notification["id"],
        notification["message"],
        notification["read"],
        notification["type"],
        notification.get("relatedNominationId"),
    )


def database_counts() -> dict[int, int]:
    """Vote counts of the sport's nominations."""
    from project.scouting.models import Nomination

    return dict(Nomination.objects.filter(sport=SPORT).values_list("pk", "vote_count"))


# --- A client -------------------------------------------------------------------------------


@dataclass
class Tally:
    missed: int = 0
    duplicated: int = 0
    out_of_order: int = 0
    resynced_events: int = 0
    resyncs: int = 0
    resumes: int = 0
    connects: int = 0
    closes: dict[int, int] = field(default_factory=dict)


class Client:
    def __init__(
        self, index: int, session: str, user_id: int, ports: list[int], http_port: int
    ) -> None:
        self.index, self.session, self.ports, self.http_port = index, session, ports, http_port
        self.user_group = f"user.{user_id}"
        self.user_id = user_id
        self.bell: list[dict[str, Any]] = []  # newest first, as the SPA's bell holds them
        self.unread = 0
        self.cursors: dict[str, int] = {}
        self.epoch: str | None = None
        self.counts: dict[int, tuple[int, int]] = {}  # nomination -> (version, count)
        self.board: list[tuple[int, int]] = []
        self.tally = Tally()
        self.ws: ClientConnection | None = None
        self.away_until = 0.0
        self.dropped_at = 0.0  # when it last went away on purpose
        self.connected = asyncio.Event()
        self.last_code: int | None = None
        self.closing: asyncio.Future[None] | None = None
        self.failures = 0  # failed connections since the last subscribed (the backoff)

    # -- protocol --

    async def refetch(self) -> None:
        """What the SPA does on resync: read the sport's nominations again."""
        cookies = {"sessionid": self.session}
        base_url = f"http://{HOST}:{self.http_port}"
        async with httpx.AsyncClient(base_url=base_url, cookies=cookies) as http:
            response = await http.get("/api/nominations", params={"sport": SPORT, "limit": 200})
        response.raise_for_status()
        for row in response.json():
            version = self.counts.get(row["id"], (-1, 0))[0]
            self.counts[row["id"]] = (version, row["voteCount"])

    async def read_bell(self) -> None:
        """What the SPA's bell does at first and after a resync of the user group."""
        cookies = {"sessionid": self.session}
        base_url = f"http://{HOST}:{self.http_port}"
        async with httpx.AsyncClient(base_url=base_url, cookies=cookies) as http:
            response = await http.get("/api/notifications", params={"limit": BELL_SIZE})
        response.raise_for_status()
        body = response.json()
        self.bell, self.unread = body["items"], body["unreadCount"]

    def notify(self, notification: dict[str, Any]) -> None:
        """frontend/src/features/notifications/api/notification-cache.ts receiveNotification:
        on top; one already held (a coalesced vote_received) is replaced and moves up; the
        unread count follows the notification's own read state."""
        previous = next((n for n in self.bell if n["id"] == notification["id"]), None)
        was_unread = previous is not None and not previous["read"]
        self.unread = max(0, self.unread + (0 if notification["read"] else 1) - was_unread)
        others = [n for n in self.bell if n["id"] != notification["id"]]
        self.bell = [notification, *others][:BELL_SIZE]

    def apply(self, message: dict[str, Any]) -> None:
        kind, data = message["type"], message.get("data") or {}
        if kind == "notification.created":
            self.notify(data)
            return
        if kind == "vote.changed":
            for vote in data["votes"]:
                known = self.counts.get(vote["nominationId"], (-1, 0))[0]
                if vote["version"] >= known:
                    self.counts[vote["nominationId"]] = (vote["version"], vote["voteCount"])
        elif kind == "leaderboard.changed" and data.get("board") == "all":
            self.board = [(row["id"], row["voteCount"]) for row in data["players"]]

    async def session_run(self, port: int, stop: asyncio.Event) -> None:
        origin = f"http://{HOST}:{port}"
        headers = {"Cookie": f"sessionid={self.session}"}
        async with connect(
            f"ws://{HOST}:{port}/ws/",
            origin=origin,  # type: ignore[arg-type]
            additional_headers=headers,
            # A browser waits for the handshake as long as the server allows (daphne: 30 s);
            # giving up sooner would make a storm of retries out of a slow handshake.
            open_timeout=30,
            max_size=None,
        ) as ws:
            self.ws = ws
            self.tally.connects += 1
            last_seen: dict[str, int] = {}
            resuming: set[str] = set()

            async def event(kind: str, group: str, seq: int, text: str) -> None:
                if seq < last_seen.get(group, 0) and group not in resuming:
                    self.tally.out_of_order += 1  # not a replay filling a gap
                last_seen[group] = seq
                cursor = self.cursors.get(group)
                if cursor is None:
                    return
                if seq <= cursor:
                    self.tally.duplicated += 1
                elif seq > cursor + 1:
                    if group not in resuming:
                        resuming.add(group)
                        self.tally.resumes += 1
                        await ws.send(json.dumps({"type": "resume", "cursors": {group: cursor}}))
                else:
                    self.cursors[group] = seq
                    if kind in KEPT and (kind != "leaderboard.changed" or '"board":"all"' in text):
                        self.apply(json.loads(text))

            async for raw in ws:
                text = raw if isinstance(raw, str) else raw.decode()
                head = EVENT_HEAD.match(text)
                if head is not None and head.group(1) != "snapshot":
                    await event(head.group(1), head.group(2), int(head.group(3)), text)
                    if stop.is_set():
                        return
                    continue
                message = json.loads(text)
                kind = message["type"]
                if kind in ("hello", "subscribed"):
                    if kind == "hello":
                        if message.get("epoch") and self.epoch not in (None, message["epoch"]):
                            self.cursors.clear()  # another epoch: old cursors mean nothing
                        self.epoch = message.get("epoch") or self.epoch
                        # The subscribe carries the sport's cursor when the client has one:
                        # the server replays from it in the same step.
                        subscribe: dict[str, Any] = {"type": "subscribe", "sport": SPORT}
                        if GROUP in self.cursors:
                            subscribe["cursor"] = self.cursors[GROUP]
                            self.tally.resumes += 1
                        await ws.send(json.dumps(subscribe))
                    behind = {}
                    for group, position in message["groups"].items():
                        cursor = self.cursors.get(group)
                        if cursor is not None and cursor < position:
                            behind[group] = cursor
                        elif cursor != position:
                            if cursor is not None:
                                self.tally.resynced_events += abs(position - cursor)
                            self.cursors[group] = position
                            if group == GROUP:
                                await self.refetch()
                            elif group == self.user_group:
                                await self.read_bell()
                    if behind:
                        resuming.update(behind)
                        self.tally.resumes += 1
                        await ws.send(json.dumps({"type": "resume", "cursors": behind}))
                    if kind == "subscribed":
                        self.connected.set()
                        self.failures = 0
                elif kind == "resumed":
                    resuming.difference_update(message["groups"])
                elif kind == "resync":
                    self.tally.resyncs += 1
                    for group in message["groups"]:
                        resuming.discard(group)
                        position = message["cursors"][group]
                        self.tally.resynced_events += max(0, position - self.cursors.get(group, 0))
                        self.cursors[group] = position
                        if group == GROUP:
                            await self.refetch()
                        elif group == self.user_group:
                            await self.read_bell()
                elif kind == "snapshot":
                    board = message["data"]["leaderboards"].get("all")
                    if board is not None:
                        self.apply({"type": "leaderboard.changed", "data": board})
                elif "seq" in message and "group" in message:  # (written otherwise)
                    await event(kind, message["group"], message["seq"], text)
                if stop.is_set():
                    return

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            wait = self.away_until - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            port = random.choice(self.ports)
            self.last_code = None
            try:
                await self.session_run(port, stop)
            except ConnectionClosed as closed:
                self.last_code = closed.rcvd.code if closed.rcvd else 1006
            except (OSError, TimeoutError, httpx.HTTPError, Exception):
                self.last_code = 1006
            self.ws = None
            self.connected.clear()
            if self.last_code is not None:
                self.tally.closes[self.last_code] = self.tally.closes.get(self.last_code, 0) + 1
            # The SPA's reconnect delays (frontend/src/lib/live/protocol.ts).
            if self.last_code == 4001:
                self.cursors.clear()
                await asyncio.sleep(0.1 + random.random() * 0.4)
            elif self.last_code in (4503, 4429):
                await asyncio.sleep(4 + random.random())
            elif not stop.is_set():
                ceiling = min(30.0, 2.0**self.failures)
                self.failures += 1
                await asyncio.sleep(ceiling * (0.5 + random.random() / 2))

    def drop(self, seconds: float) -> None:
        """Go away (network lost, phone asleep) for ``seconds``."""
        self.dropped_at = time.monotonic()
        self.away_until = self.dropped_at + seconds
        if self.ws is not None:
            self.closing = asyncio.ensure_future(self.ws.close())


# --- The run --------------------------------------------------------------------------------


@dataclass
class Load:
    requests: int = 0
    seconds: float = 0.0
    errors: dict[str, int] = field(default_factory=dict)


async def vote_load(
    fixture: Fixture, http_port: int, rate: float, stop: asyncio.Event, load: Load
) -> None:
    voted: set[tuple[int, int]] = set()
    clients = [
        httpx.AsyncClient(
            cookies={"sessionid": session, "csrftoken": csrf},
            timeout=10,
            headers={"X-CSRFToken": csrf},
        )
        for session, csrf in fixture.voter_sessions
    ]

    async def one() -> None:
        voter = random.randrange(len(clients))
        nomination = random.choice(fixture.nomination_ids)
        http = clients[voter]
        origin = f"http://{HOST}:{http_port}"
        try:
            if (voter, nomination) in voted:
                response = await http.delete(
                    f"{origin}/api/votes/{nomination}", headers={"Origin": origin}
                )
                if response.status_code in (200, 204, 404):
                    voted.discard((voter, nomination))
            else:
                response = await http.post(
                    f"{origin}/api/votes",
                    json={"nominationId": nomination},
                    headers={"Origin": origin},
                )
                if response.status_code in (201, 409):
                    voted.add((voter, nomination))
            load.requests += 1
            key = str(response.status_code)
        except httpx.HTTPError as error:
            key = type(error).__name__
        if not key.startswith("2"):
            load.errors[key] = load.errors.get(key, 0) + 1

    pending: set[asyncio.Task[None]] = set()
    started, sent = time.monotonic(), 0
    while not stop.is_set():
        task = asyncio.ensure_future(one())
        pending.add(task)
        task.add_done_callback(pending.discard)
        sent += 1
        # On a schedule, not a sleep after each: a late wake-up does not lower the rate.
        await asyncio.sleep(max(0.0, started + sent / rate - time.monotonic()))
    if pending:
        await asyncio.wait(pending)
    for http in clients:
        await http.aclose()


def vote_load_process(
    fixture: Fixture, http_port: int, rate: float, stop: Any, results: Any
) -> None:
    """``vote_load`` in a process of its own (multiprocessing, spawned): the process reading
    1,000 sockets has no time left to send 20 votes a second as well (it sent 7.5)."""

    async def main() -> None:
        stopping, load = asyncio.Event(), Load()

        async def watch() -> None:
            while not stop.is_set():
                await asyncio.sleep(0.1)
            stopping.set()

        await asyncio.gather(watch(), vote_load(fixture, http_port, rate, stopping, load))
        results.put((load.requests, load.errors))

    logging.getLogger("httpx").setLevel(logging.WARNING)
    asyncio.run(main())


async def voting(
    fixture: Fixture, http_port: int, rate: float, stop: asyncio.Event, load: Load
) -> None:
    """Run the vote load in its own process until ``stop``; its figures land in ``load``."""
    context = multiprocessing.get_context("spawn")
    stop_flag, results = context.Event(), context.Queue()
    process = context.Process(
        target=vote_load_process, args=(fixture, http_port, rate, stop_flag, results), daemon=True
    )
    process.start()
    started = time.monotonic()
    await stop.wait()
    load.seconds = time.monotonic() - started
    stop_flag.set()
    load.requests, load.errors = await asyncio.to_thread(results.get, True, 60)
    await asyncio.to_thread(process.join, 10)


def group_seqs(redis_url: str, groups: list[str]) -> dict[str, int]:
    import redis

    client = redis.Redis.from_url(redis_url, socket_connect_timeout=2, socket_timeout=5)
    try:
        values = client.mget([f"{PREFIX}:seq:{group}" for group in groups])
        return {group: int(value or 0) for group, value in zip(groups, values, strict=True)}
    finally:
        client.close()


def sport_seq(redis_url: str) -> int:
    import redis

    client = redis.Redis.from_url(redis_url, socket_connect_timeout=0.5, socket_timeout=0.5)
    try:
        return int(client.get(f"{PREFIX}:seq:{GROUP}") or 0)
    finally:
        client.close()


async def head_seq(redis_url: str) -> int:
    """The sport's seq, once Redis answers (a restarted one accepts connections while it is
    still loading its append-only file, and answers BUSY LOADING meanwhile)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return await asyncio.to_thread(sport_seq, redis_url)
        except Exception:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


async def converged(
    clients: list[Client], redis_url: str, limit: float, *, target: int | None = None
) -> tuple[float, str]:
    """Seconds until every client is connected and has the sport's events up to ``target``
    (its seq when the restarted process was back), or, without one, is within two of the
    current seq (checked against Redis); ``limit`` if never. Counted: with a ``target``, the
    clients there at the start (not away on purpose then, nor gone away since); without,
    every client not away on purpose. With it, who was still out at the limit: clients not
    connected (and in how long a backoff) and clients connected but behind."""
    since = time.monotonic()
    late: list[Client] = []
    wanted = -1

    def counted(client: Client, now: float) -> bool:
        if target is None:
            return client.away_until <= now
        return client.away_until <= since and client.dropped_at <= since

    while time.monotonic() - since < limit:
        await asyncio.sleep(0.2)
        with contextlib.suppress(Exception):
            wanted = (
                target if target is not None else await asyncio.to_thread(sport_seq, redis_url) - 2
            )
            now = time.monotonic()
            late = [
                client
                for client in clients
                if counted(client, now)
                and not (client.connected.is_set() and client.cursors.get(GROUP, -1) >= wanted)
            ]
            if not late:
                return time.monotonic() - since, ""
    away = [client for client in late if not client.connected.is_set()]
    behind = [client.cursors.get(GROUP, 0) for client in late if client.connected.is_set()]
    detail = f"at {limit:.0f} s: {len(away)} not connected"
    if away:
        detail += f" (failed connects in a row: up to {max(c.failures for c in away)})"
    if behind:
        detail += f", {len(behind)} connected but up to {wanted - min(behind)} events behind"
    return limit, detail


async def run(
    args: argparse.Namespace, fixture: Fixture, env: dict[str, str], redis: ServerProcess
) -> tuple[str, bool]:
    from project.ops.prodshape import Shape

    ports, http_port = [free_port(), free_port()], free_port()
    http_pool = ServerProcess(
        Shape(port=http_port, http_ports=[http_port], ws_processes=0).http_commands()["http"],
        http_port,
        env,
        name="HTTP pool",
        stop_timeout=10,
    )
    log = open(args.server_log, "ab") if args.server_log else subprocess.DEVNULL  # noqa: SIM115
    servers = [
        ServerProcess(
            daphne_command(port), port, env, name=f"daphne {i + 1}", stop_timeout=5, output=log
        )
        for i, port in enumerate(ports)
    ]
    try:
        for server in [http_pool, *servers]:
            await asyncio.to_thread(server.start)
        return await exercise(args, fixture, env, redis, servers, http_port)
    finally:  # a run that fails leaves no server behind
        for server in [*servers, http_pool]:
            await asyncio.to_thread(server.stop)
        if not isinstance(log, int):
            log.close()


async def exercise(
    args: argparse.Namespace,
    fixture: Fixture,
    env: dict[str, str],
    redis: ServerProcess,
    servers: list[ServerProcess],
    http_port: int,
) -> tuple[str, bool]:
    """The run itself, on servers started (and stopped) by ``run``."""
    ports = [server.port for server in servers]
    clients = [
        Client(i, session, user_id, ports, http_port)
        for i, (session, user_id) in enumerate(zip(fixture.sessions, fixture.user_ids, strict=True))
    ]
    stop = asyncio.Event()
    tasks = []
    for client in clients:
        tasks.append(asyncio.ensure_future(client.run(stop)))
        await asyncio.sleep(args.connect_spread / len(clients))
    await asyncio.wait_for(
        asyncio.gather(*(client.connected.wait() for client in clients)), timeout=120
    )
    print(f"{len(clients)} sockets connected; load {args.rate} votes/s for {args.duration} s")

    load, load_stop = Load(), asyncio.Event()
    load_task = asyncio.ensure_future(voting(fixture, http_port, args.rate, load_stop, load))
    started = time.monotonic()
    restarts: list[tuple[str, float, tuple[float, str]]] = []

    async def restart_each() -> None:
        """One at a time, as a rolling deploy does: each is back, and its clients have
        converged, before the next goes down."""
        for at, server in [(0.2, servers[0]), (0.45, servers[1]), (0.7, redis)]:
            await asyncio.sleep(max(0.0, started + at * args.duration - time.monotonic()))
            print(f"restarting {server.name}")
            down = time.monotonic()
            await asyncio.to_thread(server.stop)
            await asyncio.to_thread(server.start)
            up = time.monotonic() - down
            target = await head_seq(env["REDIS_URL"])
            took = await converged(clients, env["REDIS_URL"], 60, target=target)
            restarts.append((server.name, up, took))

    restarting = [asyncio.ensure_future(restart_each())]
    dropped = 0
    while time.monotonic() - started < args.duration:
        await asyncio.sleep(1)
        for client in random.sample(clients, max(1, len(clients) * args.drop_pct // 100)):
            if client.away_until <= time.monotonic():
                client.drop(
                    min(args.max_away, random.expovariate(1 / max(1.0, args.max_away / 4))) + 1
                )
                dropped += 1
    await asyncio.gather(*restarting)
    load_stop.set()
    await load_task
    # Everyone comes back; then the state must equal the database.
    for client in clients:
        client.away_until = 0
    settle, settle_late = await converged(clients, env["REDIS_URL"], 120)
    await asyncio.sleep(2)  # the trailing board of the last window
    final_seq = await asyncio.to_thread(sport_seq, env["REDIS_URL"])
    user_seqs = await asyncio.to_thread(
        group_seqs, env["REDIS_URL"], [client.user_group for client in clients]
    )
    from asgiref.sync import sync_to_async

    counts = await sync_to_async(database_counts)()
    board = await sync_to_async(top_board)()
    bells = await sync_to_async(database_bells)(fixture.user_ids)
    stop.set()
    for client in clients:
        if client.ws is not None:
            await client.ws.close()
    await asyncio.gather(*tasks, return_exceptions=True)

    total = Tally()
    wrong_counts = wrong_boards = wrong_bells = 0
    for client in clients:
        client.tally.missed = max(0, final_seq - client.cursors.get(GROUP, 0)) + max(
            0, user_seqs[client.user_group] - client.cursors.get(client.user_group, 0)
        )
        unread, latest = bells[client.user_id]
        held = sorted(map(bell_key, client.bell), reverse=True)
        if (client.unread, held) != (unread, sorted(map(bell_key, latest), reverse=True)):
            wrong_bells += 1
        for name in (
            "missed",
            "duplicated",
            "out_of_order",
            "resynced_events",
            "resyncs",
            "resumes",
            "connects",
        ):
            setattr(total, name, getattr(total, name) + getattr(client.tally, name))
        for code, number in client.tally.closes.items():
            total.closes[code] = total.closes.get(code, 0) + number
        mine = {nomination: count for nomination, (_, count) in client.counts.items()}
        if any(mine.get(nomination, 0) != count for nomination, count in counts.items()):
            wrong_counts += 1
        if client.board != board:
            wrong_boards += 1
    ok = (
        total.missed,
        total.duplicated,
        total.out_of_order,
        wrong_counts,
        wrong_boards,
        wrong_bells,
    ) == (0,) * 6
    notified = sum(1 for unread, latest in bells.values() if latest)
    notifications = sum(unread for unread, _ in bells.values())
    lines = [
        SECTION,
        "",
        f"{len(clients)} sockets on two daphne processes sharing Redis (append-only file), "
        f"{args.rate} votes/s for {args.duration} s through an HTTP pool (gunicorn, two gthread "
        f"workers, not restarted); every second "
        f"{args.drop_pct}% of the clients drop for 1 s to {args.max_away:.0f} s "
        f"({dropped} drops); daphne 1, daphne 2 and Redis restarted once each.",
        "",
        "| figure | value |",
        "|---|---:|",
        f"| events in the sport group | {final_seq} |",
        f"| vote requests (per second, of {args.rate:.0f} asked) / not 2xx | {load.requests} "
        f"({load.requests / max(load.seconds, 1):.1f}/s) / {sum(load.errors.values())} "
        f"{load.errors or ''} |",
        "| missed / duplicated / out of order (all clients) | "
        f"{total.missed} / {total.duplicated} / {total.out_of_order} |",
        "| clients whose counts / board differ from the database | "
        f"{wrong_counts} / {wrong_boards} |",
        f"| clients whose bell (unread count, latest {BELL_SIZE}) differs from the database | "
        f"{wrong_bells} (of {len(clients)}; {notified} nominators hold {notifications} unread "
        "vote_received) |",
        "| connects, resumes, resyncs (events closed by resync) | "
        f"{total.connects}, {total.resumes}, {total.resyncs} ({total.resynced_events}) |",
        f"| close codes seen | {dict(sorted(total.closes.items()))} |",
    ]
    for name, down, (took, late) in restarts:
        figures = f"{down:.1f} s / {took:.1f} s" + (f" ({late})" if late else "")
        lines.append(f"| {name} down / the clients there converged after it was back | {figures} |")
    lines.append(
        "| converged after the load stopped and every client came back | "
        f"{settle:.1f} s{f' ({settle_late})' if settle_late else ''} |"
    )
    lines.append("")
    lines.append("PASS" if ok else "FAIL")
    return "\n".join(lines), ok


def top_board() -> list[tuple[int, int]]:
    from realtime.snapshot import compute

    board = compute(SPORT)["leaderboards"]["all"]
    return [(row["id"], row["voteCount"]) for row in board["players"]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--voters", type=int, default=40)
    parser.add_argument("--nominations", type=int, default=30)
    parser.add_argument("--nominators", type=int, default=10, help="voters who nominated")
    parser.add_argument("--database", default=DATABASE, help="the PostgreSQL database made")
    parser.add_argument("--rate", type=float, default=20, help="votes per second")
    parser.add_argument("--duration", type=float, default=240, help="seconds of load")
    parser.add_argument("--max-away", type=float, default=120, help="longest drop, seconds")
    parser.add_argument("--drop-pct", type=int, default=1, help="clients dropped per second, %")
    parser.add_argument("--connect-spread", type=float, default=5.0)
    parser.add_argument(
        "--server-log", help="append the daphne processes' output (warnings and up) to this file"
    )
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    logging.getLogger("httpx").setLevel(logging.WARNING)
    if not shutil.which("redis-server"):
        sys.exit("ws_chaos.py needs redis-server")
    base = os.environ.get("DATABASE_URL", "")
    url = database_url(base, args.database, "ws_chaos.py")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.sockets * 3 + 256)), hard))
    recreate_database(base, args.database)
    with private_redis("chaos", appendonly=True) as redis:
        redis_url = f"redis://{HOST}:{redis.port}/0"

        def configure() -> None:
            os.environ["DATABASE_URL"] = url
            os.environ["REDIS_URL"] = redis_url
            os.environ["REALTIME_PREFIX"] = PREFIX

        django_setup(configure)
        fixture = prepare(args.sockets, args.voters, args.nominations, args.nominators)
        env = {
            **os.environ,
            "DATABASE_URL": url,
            "REDIS_URL": redis_url,
            "REALTIME_PREFIX": PREFIX,
            "DJANGO_DEBUG": "0",
            "LOG_LEVEL": "WARNING" if args.server_log else "ERROR",
            "LOGIN_THROTTLE_LIMIT": "100000",
        }
        try:
            with client_priority() as raised:
                text, ok = asyncio.run(run(args, fixture, env, redis))
            text += "\n\n" + clients_note(raised)
        finally:
            drop_databases(base, args.database)
    finish(SECTION, text, ok, write=not args.no_write)


if __name__ == "__main__":
    main()
