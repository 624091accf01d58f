"""The rolling-restart drill, shared by the suite's test (tests/deploy/test_rolling_restart.py).

The production shape (project/ops/prodshape.py: nginx, the HTTP pool, the daphne processes
under supervisord) serves votes from threads and sockets watching the sport through nginx,
while each process is restarted in turn as a deploy does: every daphne process
(``supervisorctl restart ws:wsN``: it drains, realtime/drain.py), every HTTP worker (SIGTERM
to the worker: gunicorn lets it finish its requests and starts another), then nginx reloaded
(``Shape.reload_nginx``: HUP, then the daphne processes hand the sockets held by nginx's old
workers over to the new ones, 1001 spread over their window; the step lasts until the old
workers have exited). Figures: answers by status, events each socket missed (a gap in its
sport group's seq or a resync) or got twice, its reconnects and close codes per restart, and
how long after each restart every socket was back and caught up.

The watching sockets run in processes of their own (``WATCHERS_PER_PROCESS`` each): a
thousand sockets' frames are more than one Python thread beside the voting threads reads in
time, and a client that falls behind is what the drill would then measure (its keepalive
pings unanswered, closes 1006, sockets "behind"), not the servers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import random
import re
import signal
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, NamedTuple

import httpx

from devtools.drills import Recorder, _vote_loop
from project.ops.prodshape import HOST, Shape, _children

GROUP = "sport.soccer"
# An event's envelope starts with its type, group and seq (realtime/events.py Envelope).
_EVENT = re.compile(r'\{"type":"[^"]+","group":"([^"]+)","seq":(\d+)')
WATCHERS_PER_PROCESS = 250


@dataclass
class Watcher:
    """One socket's view: its cursor in the sport group and what went wrong."""

    session: str
    cursor: int | None = None
    connects: int = 0
    lost: int = 0
    duplicated: int = 0
    resyncs: int = 0
    ready: bool = False
    closes: dict[int, int] = field(default_factory=dict)
    # Why each close without a close frame from the server happened (the client's error).
    dropped: dict[str, int] = field(default_factory=dict)

    def take(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind in ("subscribed", "resumed"):
            if self.cursor is None:
                self.cursor = int(message["groups"].get(GROUP, 0))
            self.ready = True
        elif kind == "resync":
            self.resyncs += 1
            self.cursor = int(message["cursors"].get(GROUP, self.cursor or 0))
            self.ready = True
        elif message.get("group") == GROUP and "seq" in message and kind != "snapshot":
            self.seen(int(message["seq"]))

    def seen(self, seq: int) -> None:
        """An event of the group: the next one, a gap (events lost) or one seen already."""
        if self.cursor is None:
            self.cursor = seq
        elif seq <= self.cursor:
            self.duplicated += 1
        else:
            self.lost += seq - self.cursor - 1
            self.cursor = seq

    def read(self, text: str) -> None:
        """A message as it arrives: an event of the group is read from its head (the envelope
        names type, group and seq first), without decoding the rest; the protocol's own
        messages are decoded whole."""
        head = text[:120]
        if head.startswith('{"type":"snapshot"'):
            return
        found = _EVENT.match(head)
        if found is not None:
            if found.group(1) == GROUP:
                self.seen(int(found.group(2)))
            return
        self.take(json.loads(text))


async def _read(ws: Any, watcher: Watcher) -> None:
    """Every message of the socket, until its close (raised)."""
    while True:
        watcher.read(str(await ws.recv()))


async def _watch(url: str, watcher: Watcher, stop: asyncio.Event) -> None:
    """A socket that, like the SPA, reconnects after a close (1001: after 0.25-1.25 s) and
    subscribes with its cursor, so the server replays what it missed."""
    from websockets.asyncio.client import connect

    origin = url.replace("ws://", "http://").removesuffix("/ws/")
    while not stop.is_set():
        code = 1006
        try:
            async with connect(
                url,
                origin=origin,  # type: ignore[arg-type]
                additional_headers={"Cookie": f"sessionid={watcher.session}"},
                open_timeout=10,
                # Frames as they are: inflating a thousand sockets' frames is the clients'
                # CPU, on the machine the servers run on.
                compression=None,
            ) as ws:
                watcher.connects += 1
                subscribe: dict[str, Any] = {"type": "subscribe", "sport": "soccer"}
                if watcher.cursor is not None:
                    subscribe["cursor"] = watcher.cursor
                await ws.send(json.dumps(subscribe))
                # One reading task per connection, not one per message (wait_for's): the
                # clients' CPU is on the machine the servers run on.
                reading = asyncio.create_task(_read(ws, watcher))
                stopping = asyncio.create_task(stop.wait())
                done, _ = await asyncio.wait(
                    {reading, stopping}, return_when=asyncio.FIRST_COMPLETED
                )
                stopping.cancel()
                if reading not in done:
                    reading.cancel()
                    return
                reading.result()  # the close, raised as an error
        except Exception as error:
            code = int(getattr(getattr(error, "rcvd", None), "code", 1006) or 1006)
            if code == 1006:
                reason = f"{type(error).__name__}: {str(error)[:60]}"
                watcher.dropped[reason] = watcher.dropped.get(reason, 0) + 1
        watcher.ready = False
        watcher.closes[code] = watcher.closes.get(code, 0) + 1
        await asyncio.sleep(0.25 + random.random() if code == 1001 else 0.5 + random.random())


@dataclass
class RestartFigures:
    restarts: list[dict[str, Any]] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    transport_errors: int = 0
    transport_kinds: dict[str, int] = field(default_factory=dict)
    resent: dict[str, int] = field(default_factory=dict)  # sent again as browsers do
    lost: int = 0
    duplicated: int = 0
    resyncs: int = 0
    max_reconnects_per_restart: int = 0
    sockets: int = 0
    behind_at_end: int = 0
    closes: dict[int, int] = field(default_factory=dict)
    dropped: dict[str, int] = field(default_factory=dict)
    # Events between the furthest and the furthest-behind socket just before the first restart
    # (a socket reading its frames late shows here, restarts or not).
    steady_lag: int = 0
    # Successful answers a second before the first restart (the baseline) and while the
    # restarts ran.
    steady_per_s: float = 0.0
    during_per_s: float = 0.0

    @property
    def server_errors(self) -> int:
        return sum(n for code, n in self.statuses.items() if code >= 500)


def _watch_process(url: str, sessions: list[str], pipe: Connection) -> None:
    """A watching process: one socket per session; answers ``state`` with each socket's
    (ready, connects, closes by code, cursor) and ``stop`` with its watchers."""
    import resource

    import uvloop

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, max(soft, len(sessions) + 256))
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))

    async def main() -> None:
        watchers = [Watcher(session) for session in sessions]
        stop = asyncio.Event()
        tasks = []
        for i, watcher in enumerate(watchers):
            tasks.append(asyncio.create_task(_watch(url, watcher, stop)))
            if i % 50 == 49:
                await asyncio.sleep(0.1)  # a crowd arriving, not one SYN flood
        loop = asyncio.get_running_loop()
        while True:
            command = await loop.run_in_executor(None, pipe.recv)
            if command == "state":
                pipe.send([State(w.ready, w.connects, dict(w.closes), w.cursor) for w in watchers])
            elif command == "stop":
                stop.set()
                await asyncio.gather(*tasks, return_exceptions=True)
                pipe.send(watchers)
                return

    # libuv's loop reads the sockets at a fraction of asyncio's selector loop's CPU.
    uvloop.run(main())


class State(NamedTuple):
    """A socket's state as its watching process reports it."""

    ready: bool
    connects: int
    closes: dict[int, int]
    cursor: int | None


def lag(states: list[State]) -> int:
    """Events between the furthest socket's cursor and the furthest behind's (0: all even)."""
    cursors = [state.cursor or 0 for state in states]
    return max(cursors) - min(cursors) if cursors else 0


class WatchingProcesses:
    """The drill's sockets, ``WATCHERS_PER_PROCESS`` to a process."""

    def __init__(self, url: str, sessions: list[str]) -> None:
        context = multiprocessing.get_context("spawn")
        size = math.ceil(len(sessions) / max(1, math.ceil(len(sessions) / WATCHERS_PER_PROCESS)))
        self.pipes: list[Connection] = []
        self.processes: list[Any] = []
        for start in range(0, len(sessions), size):
            pipe, child = context.Pipe()
            process = context.Process(
                target=_watch_process,
                args=(url, sessions[start : start + size], child),
                daemon=True,
            )
            process.start()
            self.pipes.append(pipe)
            self.processes.append(process)

    def states(self) -> list[State]:
        """Each socket's (ready, connects, closes by code, cursor), in the sessions' order."""
        for pipe in self.pipes:
            pipe.send("state")
        return [state for pipe in self.pipes for state in pipe.recv()]

    def caught_up(self, timeout: float) -> tuple[float | None, int]:
        """Seconds until every socket is connected and replayed (None: not within timeout),
        and how many were not at the end of the timeout."""
        started = time.monotonic()
        waiting = 0
        while time.monotonic() - started < timeout:
            waiting = sum(not state.ready for state in self.states())
            if not waiting:
                return time.monotonic() - started, 0
            time.sleep(0.1)
        return None, waiting

    def stop(self) -> list[Watcher]:
        for pipe in self.pipes:
            pipe.send("stop")
        watchers = [watcher for pipe in self.pipes for watcher in pipe.recv()]
        for process in self.processes:
            process.join(30)
        return watchers

    def kill(self) -> None:
        for process in self.processes:
            if process.is_alive():
                process.kill()


def _restart_ws(shape: Shape, index: int, timeout: float = 180) -> None:
    """Restart daphne process ``index`` and return once the new one answers ``/readyz``:
    supervisord calls it running a second after it starts, while it still loads Django, and
    restarting the next one before then would leave none to take the sockets."""
    shape.control("restart", f"ws:ws{index + 1}", timeout=120)
    url = f"http://{HOST}:{shape.ws_ports[index]}/readyz"
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=2) as answer:
            if answer.status == 200:
                return
        if time.monotonic() > deadline:
            raise RuntimeError(f"ws{index + 1} was not ready in time after its restart")
        time.sleep(0.2)


def _workers(shape: Shape) -> list[int]:
    return sorted(_children(shape.pid("http")))


def _restart_worker(shape: Shape, worker: int, timeout: float = 60) -> None:
    """SIGTERM one gunicorn worker; returns once the arbiter has replaced it."""
    count = len(_workers(shape))
    os.kill(worker, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while True:
        now = _workers(shape)
        if worker not in now and len(now) >= count:
            return
        if time.monotonic() > deadline:
            raise RuntimeError("the HTTP pool did not replace its worker in time")
        time.sleep(0.1)


def _closes(states: list[State]) -> Counter[int]:
    return sum((Counter(state.closes) for state in states), Counter())


def session_client(port: int, session: str) -> httpx.Client:
    """An HTTP client of the signed-in session ``session`` through nginx, with its CSRF token."""
    origin = f"http://{HOST}:{port}"
    client = httpx.Client(base_url=origin, timeout=30, headers={"Origin": origin})
    client.cookies.set("sessionid", session)
    client.headers["X-CSRFToken"] = client.get("/api/auth/csrf").json()["csrfToken"]
    return client


def rolling_restart_drill(
    shape: Shape,
    *,
    voters: list[str],
    sessions: list[str],
    nominations: list[int],
    settle: float = 2.0,
    catch_up_within: float = 10.0,
    rate: float = 0.0,
) -> RestartFigures:
    """Run on a shape already ``running``: votes from one thread per session in ``voters``
    (through nginx; ``rate`` votes a second between them, or as fast as they are answered)
    and one socket per session in ``sessions``, while every daphne process, every HTTP
    worker and nginx are restarted in turn."""
    figures = RestartFigures(sockets=len(sessions))
    watching = WatchingProcesses(f"ws://{HOST}:{shape.port}/ws/", sessions)
    watchers: list[Watcher] = []
    try:
        if watching.caught_up(120)[0] is None:
            raise RuntimeError("the watching sockets did not connect")
        clients = [session_client(shape.port, session) for session in voters]
        rec = Recorder()
        voting_until = [time.monotonic() + 3600.0]
        threads = []
        for client in clients:

            def vote(client: Any = client) -> None:
                while time.monotonic() < voting_until[0]:
                    _vote_loop(
                        client,
                        nominations,
                        min(voting_until[0], time.monotonic() + 1),
                        rec,
                        pace=len(voters) / rate if rate else 0.0,
                    )

            threads.append(threading.Thread(target=vote, daemon=True))
        for thread in threads:
            thread.start()
        steady_from = time.monotonic()
        during: tuple[float, float] | None = None
        try:
            time.sleep(settle)
            figures.steady_lag = lag(watching.states())
            restarts_from = time.monotonic()
            steps: list[tuple[str, Any]] = [
                (f"ws{i + 1}", lambda n=i: _restart_ws(shape, n))
                for i in range(len(shape.ws_ports))
            ]
            for index, worker in enumerate(_workers(shape)):
                steps.append(
                    (f"http worker {index + 1}", lambda w=worker: _restart_worker(shape, w))
                )
            steps.append(("nginx (reload)", shape.reload_nginx))
            for name, restart in steps:
                before = watching.states()
                began = time.monotonic()
                restart()
                took = time.monotonic() - began
                caught, waiting = watching.caught_up(catch_up_within)
                time.sleep(settle)
                now = watching.states()
                moved = [a.connects - b.connects for a, b in zip(now, before, strict=True)]
                closes = dict(sorted((_closes(now) - _closes(before)).items()))
                reconnects = max(moved)
                figures.max_reconnects_per_restart = max(
                    figures.max_reconnects_per_restart, reconnects
                )
                figures.restarts.append(
                    {
                        "process": name,
                        "restart s": round(took, 2),
                        "caught up s": None if caught is None else round(caught, 2),
                        "not caught up": waiting,
                        "max reconnects/socket": reconnects,
                        "sockets reconnected": sum(n > 0 for n in moved),
                        "closes": closes,
                        "lag at end": lag(now),
                    }
                )
            during = (restarts_from, time.monotonic())
        finally:
            voting_until[0] = 0.0
            for thread in threads:
                thread.join(30)
            time.sleep(settle)  # the last merged events reach every socket
            watchers = watching.stop()
            for client in clients:
                client.close()
    finally:
        watching.kill()

    def per_s(since: float, until: float) -> float:
        return sum(since <= t < until for t in rec.successes) / max(until - since, 1e-9)

    figures.steady_per_s = per_s(steady_from, steady_from + settle)
    if during is not None:
        figures.during_per_s = per_s(*during)
    head = max((w.cursor or 0) for w in watchers)
    figures.statuses = dict(sorted(rec.statuses.items()))
    figures.transport_errors = rec.transport_errors
    figures.transport_kinds = dict(rec.transport_kinds)
    figures.resent = dict(rec.resent)
    figures.lost = sum(w.lost for w in watchers)
    figures.duplicated = sum(w.duplicated for w in watchers)
    figures.resyncs = sum(w.resyncs for w in watchers)
    figures.behind_at_end = sum((w.cursor or 0) < head for w in watchers)
    for w in watchers:
        for code, n in w.closes.items():
            figures.closes[code] = figures.closes.get(code, 0) + n
        for reason, n in w.dropped.items():
            figures.dropped[reason] = figures.dropped.get(reason, 0) + n
    return figures
