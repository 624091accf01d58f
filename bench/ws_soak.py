"""Soak: 1,000 sockets on one daphne process taking 100 events a second for 10 minutes, and
the wall display open in Chromium for 30 minutes under the same load.

The sockets side reports the server's RSS after the warm-up and at the end (target: growth
under 10%), its CPU per event minute by minute (steady: the last minutes cost what the first
did) and whether every socket got every event (each client checks that its sport's sequence
has no gap; `skipped` counts as an event; a close is counted, never silent). The browser side
reads, after a forced garbage collection, the JS heap (`performance.memory`, Chromium's precise
figures) and the number of DOM nodes at the start and at the end (targets: heap growth under
10%, DOM nodes flat).

    make bench                                       # 1,000 sockets 600 s, /wall 1,800 s
    python bench/ws_soak.py --sockets 200 --duration 60 --browser-duration 60 --no-write

The sockets are raw connections read by one asyncio process (`Client`: frames cut in place,
an event's seq read from its prefix): 1,000 `websockets` clients parsing every message with
`json` could not read 100,000 messages a second here, fell 1 MiB behind and were closed.

Runs its own redis-server (events are published from this process through it, as another
process would; nothing another job does to the shared Redis reaches the figures); the database
is DATABASE_URL's or the embedded SQLite file. The wall is the built SPA
(frontend/dist) in Debian's Chromium. Exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from common import (
    HOST,
    ROOT,
    approved_nominations,
    client_priority,
    clients_note,
    daphne_command,
    django_setup,
    finish,
    free_port,
    new_user,
    private_redis,
    server_process,
    session_for,
)

from devtools.wsframes import masked_frame, server_frames, upgrade_request

SECTION = "## Soak (bench/ws_soak.py)"
SPORT = "soccer"
GROUP = f"sport.{SPORT}"
PREFIX = "soak"


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Socket:
    cursor: int | None = None
    received: int = 0
    gaps: int = 0
    closes: list[int] = field(default_factory=list)


class Client(asyncio.Protocol):
    """One socket of the SPA's kind on a raw connection: at 1,000 sockets x 100 events/s the
    client reads 100,000 messages a second, more than one Python process parsing each with
    `websockets` and `json` keeps up with on this machine (its sockets fell 1 MiB behind and
    were closed). Frames are cut from the stream in place; an event's group and seq are read
    from its fixed prefix (`{"type":...,"group":...,"seq":N,`), control messages with json."""

    def __init__(self, host: str, session: str, socket: Socket) -> None:
        self.host, self.session, self.socket = host, session, socket
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.upgraded = False
        self.resuming = False
        self.done: asyncio.Future[int] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        host, port = self.host.rsplit(":", 1)
        transport.write(upgrade_request(host, int(port), self.session))

    def send(self, message: dict[str, Any]) -> None:
        self.frame(0x81, json.dumps(message).encode())

    def frame(self, first: int, payload: bytes) -> None:
        """A client frame (masked) of up to 125 bytes."""
        assert self.transport is not None
        self.transport.write(masked_frame(payload, first))

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        if not self.upgraded:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buffer.startswith(b"HTTP/1.1 101"):
                self.finish(1006)
                return
            del buffer[: end + 4]
            self.upgraded = True
        frames, used = server_frames(buffer)
        del buffer[:used]
        for first, payload in frames:
            opcode = first & 0x0F
            if opcode == 8:
                self.finish(int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005)
                return
            if opcode == 9:  # daphne's keepalive ping: answer as a browser does
                self.frame(0x8A, payload)
            elif opcode == 1:
                self.message(payload)

    def message(self, payload: bytes) -> None:
        socket = self.socket
        kind_end = payload.find(b'"', 9)
        kind_bytes = payload[9:kind_end]
        if kind_bytes in CONTROL:
            self.control(payload)
            return
        if kind_bytes != b"snapshot":  # an event or skipped: its position in its group
            seq_at = payload.find(b'"seq":', kind_end)
            if payload.find(GROUP_BYTES, kind_end, seq_at) < 0:
                return  # another group (the user's)
            seq_end = seq_at + 6
            while payload[seq_end] in DIGITS:
                seq_end += 1
            seq = int(payload[seq_at + 6 : seq_end])
            if socket.cursor is None or seq <= socket.cursor:
                return
            if self.resuming and seq > socket.cursor + 1:
                return  # live events racing the replay: the replay brings them in order
            if seq != socket.cursor + 1:
                socket.gaps += 1
            socket.cursor = seq
            socket.received += 1

    def control(self, payload: bytes) -> None:
        socket = self.socket
        message = json.loads(payload)
        kind = message["type"]
        if kind == "hello":
            subscribe: dict[str, Any] = {"type": "subscribe", "sport": SPORT}
            if socket.cursor is not None:
                subscribe["cursor"] = socket.cursor  # the server replays from it
                self.resuming = True
            self.send(subscribe)
        elif kind == "subscribed":
            position = message["groups"][GROUP]
            if socket.cursor is None:
                socket.cursor = position
            elif socket.cursor < position:  # a server that ignored the cursor
                self.resuming = True
                self.send({"type": "resume", "cursors": {GROUP: socket.cursor}})
        elif kind == "resumed":
            self.resuming = False
        elif kind == "resync":
            socket.gaps += 1  # a resync would lose events for this client
            socket.cursor = message["cursors"][GROUP]
            self.resuming = False

    def finish(self, code: int) -> None:
        if not self.done.done():
            self.done.set_result(code)
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.done.done():
            self.done.set_result(1006)


CONTROL = {b"hello", b"subscribed", b"resumed", b"resync", b"pong", b"error"}
CONTROL |= {b"presence.changed", b"review.changed"}
DIGITS = b"0123456789"
GROUP_BYTES = f'"group":"{GROUP}"'.encode()


def factory(client: Client) -> Callable[[], Client]:
    return lambda: client


async def hold(port: int, session: str, socket: Socket, stop: asyncio.Event) -> None:
    """A client of the SPA's kind: on a close it comes back after a second and resumes from
    its cursor (in the subscribe)."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        client = Client(f"{HOST}:{port}", session, socket)
        try:
            await asyncio.wait_for(loop.create_connection(factory(client), HOST, port), 30)
        except (OSError, TimeoutError):
            socket.closes.append(1006)
            await asyncio.sleep(1)
            continue
        stopping: asyncio.Future[Any] = asyncio.ensure_future(stop.wait())
        waiting: set[asyncio.Future[Any]] = {client.done, stopping}
        await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        stopping.cancel()
        if client.done.done() and not stop.is_set():
            socket.closes.append(client.done.result())
            await asyncio.sleep(1)
        elif client.transport is not None:
            client.transport.close()


def publisher(rate: float, stop_at: float, counter: list[int], board: dict[str, Any]) -> None:
    """Publish ``rate`` events a second through the live layer (every tenth the sport's real
    board with moving counts, the others votes on its nominations)."""
    from realtime.broadcast import send
    from realtime.events import Event

    players: list[dict[str, Any]] = board["players"]
    started, sent = time.monotonic(), 0
    while time.monotonic() < stop_at:
        due = int((time.monotonic() - started) * rate)
        batch = []
        while sent < due:
            sent += 1
            player = players[sent % len(players)]
            if sent % 10 == 0:
                player["voteCount"] = sent
                board = {**board, "players": sorted(players, key=lambda p: -p["voteCount"])}
                batch.append(Event("leaderboard.changed", board, sport=SPORT))
            else:
                votes = [{"nominationId": player["id"], "voteCount": sent, "version": sent}]
                batch.append(Event("vote.changed", {"votes": votes}, sport=SPORT))
        if batch:
            send(*batch)
            counter[0] = sent
        time.sleep(0.02)


def browser_soak(url: str, session: str, seconds: float, samples: list[dict[str, float]]) -> None:
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("CHROMIUM_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    args = ["--enable-precise-memory-info", "--js-flags=--expose-gc", "--no-sandbox"]
    measure = """() => { window.gc(); return {
        heap: performance.memory.usedJSHeapSize,
        nodes: document.getElementsByTagName('*').length } }"""
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=args)
        context = browser.new_context(viewport={"width": 1920, "height": 1080}, base_url=url)
        context.add_cookies([{"name": "sessionid", "value": session, "url": url}])
        page = context.new_page()
        page.goto(f"/wall?sport={SPORT}&board=all")  # one board: no rotation
        page.get_by_title("Live updates: live").wait_for(timeout=30_000)
        page.wait_for_timeout(5_000)
        started = time.monotonic()
        while True:
            sample = page.evaluate(measure)
            sample["at"] = time.monotonic() - started
            samples.append(sample)
            if time.monotonic() - started >= seconds:
                break
            page.wait_for_timeout(min(30_000, max(1_000, seconds * 1000 / 10)))
        browser.close()


async def run(
    args: argparse.Namespace, sessions: list[str], env: dict[str, str], board: dict[str, Any]
) -> tuple[str, bool]:
    port = free_port()
    with server_process(daphne_command(port), port, env) as process:
        stop = asyncio.Event()
        sockets = [Socket() for _ in sessions]
        tasks = []
        for socket, session in zip(sockets, sessions[1:], strict=False):
            tasks.append(asyncio.ensure_future(hold(port, session, socket, stop)))
            await asyncio.sleep(5 / len(sessions))
        while sum(socket.cursor is not None for socket in sockets[: len(tasks)]) < len(tasks):
            await asyncio.sleep(0.2)
        total = max(args.duration, args.browser_duration) + args.warmup
        counter = [0]
        load = asyncio.ensure_future(
            asyncio.to_thread(publisher, args.rate, time.monotonic() + total, counter, board)
        )
        samples: list[dict[str, float]] = []
        browser = (
            asyncio.ensure_future(
                asyncio.to_thread(
                    browser_soak,
                    f"http://{HOST}:{port}",
                    sessions[0],
                    args.browser_duration,
                    samples,
                )
            )
            if args.browser_duration
            else None
        )
        await asyncio.sleep(args.warmup)
        rss_start, cpu_start, events_start = rss(process.pid), cpu_seconds(process.pid), counter[0]
        minutes: list[float] = []
        memory: list[float] = []  # RSS at each step, MiB: a leak rises, a warm-up flattens
        mark_cpu, mark_events = cpu_start, events_start
        step = min(60.0, args.duration / 5)
        started = time.monotonic()
        while time.monotonic() - started < args.duration:
            await asyncio.sleep(step)
            cpu, events = cpu_seconds(process.pid), counter[0]
            memory.append(rss(process.pid) / 2**20)
            if events > mark_events:
                minutes.append(1000 * (cpu - mark_cpu) / (events - mark_events))
            mark_cpu, mark_events = cpu, events
        rss_end = rss(process.pid)
        await load
        if browser is not None:
            await browser
        # Sockets closed on the way (too slow, say) come back and resume: give them time.
        for _ in range(150):
            await asyncio.sleep(0.2)
            cursors = [socket.cursor or 0 for socket in sockets[: len(tasks)]]
            if min(cursors) == max(cursors):
                break
        stop.set()
        published = counter[0]
        final = max((socket.cursor or 0) for socket in sockets[: len(tasks)])
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    held = sockets[: len(tasks)]
    behind = sum(1 for socket in held if (socket.cursor or 0) < final)
    gaps = sum(socket.gaps for socket in held)
    closes = sum(len(socket.closes) for socket in held)
    codes: dict[int, int] = {}
    for socket in held:
        for code in socket.closes:
            codes[code] = codes.get(code, 0) + 1
    growth = (rss_end - rss_start) / rss_start * 100
    steady = max(minutes) / min(minutes) if minutes else float("nan")
    ok = growth < 10 and behind == 0 and gaps == 0
    lines = [
        SECTION,
        "",
        f"{len(held)} sockets on one daphne process, {args.rate:.0f} events/s "
        f"(every tenth a board) for {args.duration:.0f} s after a {args.warmup:.0f} s warm-up.",
        "",
        "| figure | value |",
        "|---|---:|",
        f"| events published / last seq every socket reached | {published} / {final} |",
        f"| sockets behind / gaps / closes (reconnected and resumed) | {behind} / {gaps} / "
        f"{closes} {dict(sorted(codes.items()))} |",
        f"| server RSS after warm-up / at the end | {rss_start / 2**20:.1f} / "
        f"{rss_end / 2**20:.1f} MiB ({growth:+.1f}%) |",
        "| server RSS at each step (MiB) | " + ", ".join(f"{value:.1f}" for value in memory) + " |",
        "| server CPU per event, each step (ms) | "
        + ", ".join(f"{value:.2f}" for value in minutes)
        + f" (max/min {steady:.2f}) |",
    ]
    if samples:
        heap_growth = (samples[-1]["heap"] - samples[0]["heap"]) / samples[0]["heap"] * 100
        nodes = [int(sample["nodes"]) for sample in samples]
        lines.append(
            f"| /wall for {samples[-1]['at']:.0f} s: JS heap after GC, first / last | "
            f"{samples[0]['heap'] / 2**20:.1f} / {samples[-1]['heap'] / 2**20:.1f} MiB "
            f"({heap_growth:+.1f}%) |"
        )
        lines.append(f"| /wall DOM nodes, each sample | {', '.join(map(str, nodes))} |")
        ok = ok and heap_growth < 10 and max(nodes) - min(nodes) <= max(10, nodes[0] // 50)
    lines += ["", "PASS" if ok else "FAIL"]
    return "\n".join(lines), ok


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=100, help="events per second")
    parser.add_argument("--duration", type=float, default=600, help="seconds measured")
    parser.add_argument("--browser-duration", type=float, default=1800, help="0: no browser")
    parser.add_argument("--warmup", type=float, default=30)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    if not shutil.which("redis-server"):
        sys.exit("ws_soak.py needs redis-server: the run has a Redis of its own")
    if args.browser_duration and not (ROOT / "frontend" / "dist" / "index.html").exists():
        sys.exit("ws_soak.py needs the built SPA (make run or npm run build in frontend/)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.sockets * 2 + 256)), hard))

    with private_redis("soak") as redis:
        redis_url = f"redis://{HOST}:{redis.port}/0"

        def configure() -> None:
            os.environ["REDIS_URL"] = redis_url
            os.environ["REALTIME_PREFIX"] = PREFIX

        django_setup(configure)
        from project.accounts.models import User
        from project.scouting.models import Player
        from realtime.snapshot import compute

        Player.objects.filter(name__startswith="Bench Player").delete()
        User.objects.filter(username__startswith="soak_").delete()
        users = User.objects.bulk_create([new_user(f"soak_{i}") for i in range(args.sockets + 1)])
        sessions = [session_for(user) for user in users]
        approved_nominations(users[0], [SPORT] * 10, [f"soak {i}|{SPORT}" for i in range(10)])
        board = compute(SPORT)["leaderboards"]["all"]
        env = {
            **os.environ,
            "REDIS_URL": redis_url,
            "REALTIME_PREFIX": PREFIX,
            "DJANGO_DEBUG": "0",
            # The server's warnings go to this run's output: why a socket was closed.
            "LOG_LEVEL": "WARNING",
        }
        try:
            with client_priority() as raised:
                text, ok = asyncio.run(run(args, sessions, env, board))
            text += "\n\n" + clients_note(raised)
        finally:
            Player.objects.filter(name__startswith="Bench Player").delete()
            User.objects.filter(username__startswith="soak_").delete()
    finish(SECTION, text, ok, write=not args.no_write)


if __name__ == "__main__":
    main()
