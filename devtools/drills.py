"""Fault drills on private servers, shared by the suite's tests and bench/drills.py.

Each drill runs a real daphne process (``project.asgi``) on a loopback port against a private
PostgreSQL cluster (``devtools.private_postgres``) and, when asked, a private
redis-server, puts load on it from threads (HTTP votes, sign-ins, password changes) and websocket
clients, breaks a server in the middle, and returns figures: requests, answers by status, events
lost, reconnects per client, recovery time, and whether every counter equals its rows afterwards.
Loops are bounded by time; everything stays on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from devtools import launcher
from devtools.private_postgres import PrivatePostgres

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
PASSWORD = "drill-pass-1"
# Answers a vote or sign-in may get in a drill besides success: a race with oneself (409/404),
# the database unreachable (503, with Retry-After). 500 never.
EXPECTED = {200, 201, 204, 404, 409, 503}


@dataclass
class Figures:
    name: str
    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    transport_errors: int = 0
    missing_retry_after: int = 0
    recovery_s: float | None = None
    counters_equal_rows: bool | None = None
    events_lost: int | None = None
    reconnects_per_client: float | None = None
    ok_during_outage: int | None = None
    seconds: float = 0.0

    def row(self) -> dict[str, Any]:
        return {
            "drill": self.name,
            "requests": self.requests,
            "by status": dict(sorted(self.statuses.items())),
            "500s": self.statuses.get(500, 0),
            "transport errors": self.transport_errors,
            "events lost": self.events_lost,
            "reconnects/client": self.reconnects_per_client,
            "2xx during outage": self.ok_during_outage,
            "recovery s": None if self.recovery_s is None else round(self.recovery_s, 2),
            "counters = rows": self.counters_equal_rows,
            "seconds": round(self.seconds, 1),
        }


def _env(database_url: str, redis_url: str = "", **extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "project.settings",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "REALTIME_PREFIX": f"drill{os.getpid()}",
        "CACHE_PREFIX": f"drill{os.getpid()}",
        "DJANGO_DEBUG": "0",
        # Production settings refuse to run a command without the address emails link to.
        "PUBLIC_BASE_URL": "http://127.0.0.1",
        "LOG_LEVEL": "CRITICAL",
        "BUDGETS": "off",
        "TRUST_ACCOUNT_AGE_HOURS": "0",
        "DB_POOL_TIMEOUT": "2",
        "PYTHONPATH": str(ROOT),
    }
    env.update(extra)
    return env


_SEED = """
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from project.accounts.services import user_create
from project.scouting.models import Nomination, NominationStatus, Player
import sys
voters, count, PASSWORD = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
nominator = user_create(username="drillnominator", email="n@drill.example",
                        password=PASSWORD, name="Nominator")
for i in range(voters):
    user_create(username=f"drill{i}", email=f"d{i}@drill.example", password=PASSWORD,
                name=f"Drill {i}")
ids = []
for i in range(count):
    player = Player.objects.create(name=f"Drill Player {i}", position="Wing",
        nationality="Norway", club="IL Fjord", sport="soccer",
        normalized_identity=f"drill player {i}|soccer")
    ids.append(Nomination.objects.create(player=player, nominated_by=nominator, sport="soccer",
        status=NominationStatus.APPROVED).pk)
print(json.dumps(ids))
"""


def seed(env: dict[str, str], *, voters: int, nominations: int) -> list[int]:
    """Migrate the private database and create voters and approved nominations."""
    done = subprocess.run(
        [sys.executable, "-c", _SEED, str(voters), str(nominations), PASSWORD],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    ids: list[int] = json.loads(done.stdout.strip().splitlines()[-1])
    return ids


@contextlib.contextmanager
def daphne(env: dict[str, str]) -> Iterator[tuple[int, int]]:
    """A daphne process serving project.asgi with ``env`` (devtools/launcher.py); yields
    (port, pid)."""
    with launcher.daphne(env, start_timeout=60) as server:
        yield server.port, server.pid


def signed_in(port: int, username: str, password: str = PASSWORD) -> httpx.Client:
    origin = f"http://{HOST}:{port}"
    client = httpx.Client(base_url=origin, timeout=30, headers={"Origin": origin})
    token = client.get("/api/auth/csrf").json()["csrfToken"]
    client.headers["X-CSRFToken"] = token
    response = client.post("/api/auth/login", json={"username": username, "password": password})
    assert response.status_code == 200, response.text
    client.headers["X-CSRFToken"] = client.cookies["csrftoken"]
    return client


# A keep-alive connection the server closed as the request went out (nginx's old workers
# close their idle ones on a reload; no answer was begun): browsers send such a request again,
# once, on a new connection, and so does the drill, counting it.
_RESENT_AS_BROWSERS_DO = (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError)


def _kind(error: Exception) -> str:
    return f"{type(error).__name__}: {str(error)[:60]}"


class Recorder:
    """Answers of every thread, with the time of each one that was not a success."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: Counter[int] = Counter()
        self.transport_errors = 0
        # What each transport error was (the client's exception and its first words).
        self.transport_kinds: Counter[str] = Counter()
        # Requests sent again after their connection closed without an answer, by that error.
        self.resent: Counter[str] = Counter()
        self.missing_retry_after = 0
        self.failures: list[float] = []  # monotonic times of 5xx and transport errors
        self.successes: list[float] = []

    def record(
        self, call: Callable[..., httpx.Response], *args: Any, **kwargs: Any
    ) -> httpx.Response | None:
        try:
            try:
                response = call(*args, **kwargs)
            except _RESENT_AS_BROWSERS_DO as error:
                with self.lock:
                    self.resent[_kind(error)] += 1
                response = call(*args, **kwargs)
        except httpx.HTTPError as error:
            with self.lock:
                self.transport_errors += 1
                self.transport_kinds[_kind(error)] += 1
                self.failures.append(time.monotonic())
            return None
        with self.lock:
            self.statuses[response.status_code] += 1
            if response.status_code >= 500:
                self.failures.append(time.monotonic())
                if response.status_code == 503 and not response.headers.get("Retry-After"):
                    self.missing_retry_after += 1
            elif response.status_code < 300:
                self.successes.append(time.monotonic())
        return response


def _vote_loop(
    client: httpx.Client, nominations: list[int], until: float, rec: Recorder, pace: float = 0.0
) -> None:
    """Vote (and take back a vote already given) until ``until``: as fast as answers come, or
    one vote every ``pace`` seconds."""
    rng = random.Random()
    next_at = time.monotonic()
    while time.monotonic() < until:
        nomination = rng.choice(nominations)
        response = rec.record(client.post, "/api/votes", json={"nominationId": nomination})
        if response is not None and response.status_code == 409:
            rec.record(client.delete, f"/api/votes/{nomination}")
        elif response is None or response.status_code == 503:
            time.sleep(0.2)  # what Retry-After asks, shortened: the drill wants many tries
        if pace:
            next_at = max(next_at + pace, time.monotonic() - pace)
            time.sleep(max(0.0, min(next_at, until) - time.monotonic()))


def counters_equal_rows(database_url: str) -> bool:
    import psycopg

    with psycopg.connect(database_url) as conn:
        drift = conn.execute(
            "SELECT count(*) FROM scouting_nomination n WHERE n.vote_count <> "
            "(SELECT count(*) FROM scouting_vote v WHERE v.nomination_id = n.id)"
        ).fetchone()
    return bool(drift and drift[0] == 0)


Seen = dict[int, tuple[int, int]]  # nomination id -> (version, vote count) last applied


def _apply(seen: Seen, text: str | bytes) -> None:
    message = json.loads(text)
    if message.get("type") != "vote.changed":
        return
    for vote in message["data"]["votes"]:
        nomination, count, version = vote["nominationId"], vote["voteCount"], vote["version"]
        if version >= seen.get(nomination, (-1, 0))[0]:
            seen[nomination] = (version, count)


def screens_off(database_url: str, seen: list[Seen]) -> int:
    """Counts the database settled on that a watcher does not show: an event it never got."""
    import psycopg

    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT id, vote_count FROM scouting_nomination").fetchall()
    counts: dict[int, int] = {int(row[0]): int(row[1]) for row in rows}
    return sum(
        1
        for shown in seen
        for nomination, count in counts.items()
        if shown.get(nomination, (0, 0))[1] != count
    )


async def _watch(
    port: int, session: str, stop: asyncio.Event, reconnects: list[int], seen: Seen, index: int
) -> None:
    """A signed-in socket on soccer that reconnects whenever it is closed, applying every
    vote.changed it receives (the newest version wins, as the SPA does)."""
    from websockets.asyncio.client import connect

    url = f"ws://{HOST}:{port}/ws/"
    origin = f"http://{HOST}:{port}"
    first = True
    while not stop.is_set():
        try:
            async with connect(
                url,
                origin=origin,  # type: ignore[arg-type]
                additional_headers={"Cookie": f"sessionid={session}"},
                open_timeout=5,
            ) as ws:
                if not first:
                    reconnects[index] += 1
                first = False
                await ws.send(json.dumps({"type": "subscribe", "sport": "soccer"}))
                while not stop.is_set():
                    with contextlib.suppress(TimeoutError):
                        _apply(seen, await asyncio.wait_for(ws.recv(), 0.5))
        except Exception:  # closed or refused: back off like the SPA, then try again
            if not first:
                reconnects[index] += 1
                first = True
            await asyncio.sleep(0.5 + random.random())


def _watchers(
    port: int, sessions: list[str], stop_at: float, reconnects: list[int], seen: list[Seen]
) -> threading.Thread:
    async def main() -> None:
        stop = asyncio.Event()

        async def stopper() -> None:
            await asyncio.sleep(max(0.0, stop_at - time.monotonic()))
            stop.set()

        await asyncio.gather(
            stopper(),
            *(
                _watch(port, session, stop, reconnects, seen[i], i)
                for i, session in enumerate(sessions)
            ),
        )

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    return thread


def postgres_restart_drill(
    *,
    voters: int = 6,
    seconds: float = 8.0,
    restart_at: float | None = 2.5,
    down_for: float = 3.0,
    watchers: int = 0,
    name: str = "PostgreSQL restart under votes",
) -> Figures:
    """Votes from ``voters`` threads while the private PostgreSQL stops for ``down_for`` seconds
    and starts again (``restart_at=None``: no fault, a soak). Recovery: from the server's
    return to the last failed answer."""
    figures = Figures(name)
    pg = PrivatePostgres()
    started = time.monotonic()
    try:
        pg.create()
        env = _env(pg.url)
        nominations = seed(env, voters=voters, nominations=4)
        with daphne(env) as (port, _):
            clients = [signed_in(port, f"drill{i}") for i in range(voters)]
            rec = Recorder()
            begin = time.monotonic()
            until = begin + seconds
            reconnects = [0] * watchers
            sessions = [clients[i % voters].cookies["sessionid"] for i in range(watchers)]
            seen: list[Seen] = [{} for _ in range(watchers)]
            # Watchers stay 3 s past the votes, for the last merged events to arrive.
            watching = _watchers(port, sessions, until + 3, reconnects, seen) if watchers else None
            threads = [
                threading.Thread(target=_vote_loop, args=(client, nominations, until, rec))
                for client in clients
            ]
            for thread in threads:
                thread.start()
            back = begin
            if restart_at is not None:
                time.sleep(max(0.0, begin + restart_at - time.monotonic()))
                pg.stop()
                time.sleep(down_for)
                pg.start()
                back = time.monotonic()
            for thread in threads:
                thread.join()
            if watching is not None:
                watching.join(15)
                figures.reconnects_per_client = round(sum(reconnects) / watchers, 2)
                figures.events_lost = screens_off(pg.url, seen)
            for client in clients:
                client.close()
        figures.requests = sum(rec.statuses.values()) + rec.transport_errors
        figures.statuses = rec.statuses
        figures.transport_errors = rec.transport_errors
        figures.missing_retry_after = rec.missing_retry_after
        late = [t for t in rec.failures if t >= back]
        figures.recovery_s = (max(late) - back) if late else 0.0
        figures.counters_equal_rows = counters_equal_rows(pg.url)
    finally:
        pg.destroy()
    figures.seconds = time.monotonic() - started
    return figures


def _account_loop(
    port: int, index: int, until: float, rec: Recorder, attempts: Counter[str]
) -> None:
    """Sign in (a new session each time) and change the password back and forth."""
    origin = f"http://{HOST}:{port}"
    password = PASSWORD
    while time.monotonic() < until:
        with httpx.Client(base_url=origin, timeout=30, headers={"Origin": origin}) as client:
            csrf = rec.record(client.get, "/api/auth/csrf")
            if csrf is None or csrf.status_code != 200:
                time.sleep(0.2)  # a client's pause before it tries again, as above
                continue
            client.headers["X-CSRFToken"] = csrf.json()["csrfToken"]
            body = {"username": f"drill{index}", "password": password}
            login = rec.record(client.post, "/api/auth/login", json=body)
            attempts["sign-in"] += 1
            if login is None or login.status_code != 200:
                time.sleep(0.2)  # a client's pause before it tries again, as above
                continue
            client.headers["X-CSRFToken"] = client.cookies["csrftoken"]
            new = PASSWORD + "x" if password == PASSWORD else PASSWORD
            change = {"currentPassword": password, "newPassword": new}
            changed = rec.record(client.put, "/api/settings/password", json=change)
            attempts["password change"] += 1
            if changed is not None and changed.status_code == 200:
                password = new


def redis_outage_drill(
    *,
    redis: Any,
    users: int = 4,
    seconds: float = 6.0,
    stop_at: float = 1.5,
    down_for: float = 3.0,
    watchers: int = 0,
) -> Figures:
    """Sign-ins and password changes while the private Redis (the throttle's cache and the live
    layer) is stopped for ``down_for`` seconds. ``redis`` has start(), stop() and url. With
    ``watchers``, that many signed-in sockets (accounts of their own) count their reconnects:
    the hub closes every socket when it loses Redis."""
    figures = Figures("Redis outage: sign-in, password change")
    pg = PrivatePostgres()
    started = time.monotonic()
    try:
        pg.create()
        env = _env(pg.url, redis.url)
        seed(env, voters=users + watchers, nominations=1)
        with daphne(env) as (port, _):
            rec = Recorder()
            attempts: Counter[str] = Counter()
            sessions = []
            for i in range(users, users + watchers):
                client = signed_in(port, f"drill{i}")
                sessions.append(client.cookies["sessionid"])
                client.close()
            begin = time.monotonic()
            until = begin + seconds
            reconnects = [0] * watchers
            watching = None
            if watchers:
                seen: list[Seen] = [{} for _ in range(watchers)]
                watching = _watchers(port, sessions, until, reconnects, seen)
            threads = [
                threading.Thread(target=_account_loop, args=(port, i, until, rec, attempts))
                for i in range(users)
            ]
            for thread in threads:
                thread.start()
            time.sleep(max(0.0, begin + stop_at - time.monotonic()))
            redis.stop()
            down = time.monotonic()
            time.sleep(down_for)
            with rec.lock:
                during = [t for t in rec.successes if t >= down]
            redis.start()
            back = time.monotonic()
            for thread in threads:
                thread.join()
            if watching is not None:
                watching.join(15)
                figures.reconnects_per_client = round(sum(reconnects) / watchers, 2)
        figures.requests = sum(rec.statuses.values()) + rec.transport_errors
        figures.statuses = rec.statuses
        figures.transport_errors = rec.transport_errors
        late = [t for t in rec.failures if t >= back]
        figures.recovery_s = (max(late) - back) if late else 0.0
        figures.counters_equal_rows = counters_equal_rows(pg.url)
        figures.ok_during_outage = len(during)
    finally:
        pg.destroy()
    figures.seconds = time.monotonic() - started
    return figures


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def hashing_memory_drill(*, parallel: int = 100, concurrency: int = 4) -> dict[str, Any]:
    """Peak RSS of one daphne process while ``parallel`` registrations, then as many sign-ins,
    arrive at once (each hashes a password once). Returns MiB figures."""
    pg = PrivatePostgres()
    figures: dict[str, Any] = {"parallel": parallel, "hash concurrency": concurrency}
    try:
        pg.create()
        env = _env(pg.url, PASSWORD_HASH_CONCURRENCY=str(concurrency))
        env["DB_POOL_TIMEOUT"] = "60"
        env["LOGIN_THROTTLE_LIMIT"] = "1000"
        seed(env, voters=0, nominations=0)
        with daphne(env) as (port, pid):
            origin = f"http://{HOST}:{port}"
            # Warm up: the first request imports and connects.
            with httpx.Client(base_url=origin, timeout=60) as warm:
                warm.get("/api/auth/csrf")
            idle = rss_bytes(pid)
            peak = idle
            stop = threading.Event()

            def sample() -> None:
                nonlocal peak
                while not stop.is_set():
                    peak = max(peak, rss_bytes(pid))
                    time.sleep(0.01)  # the sampling interval of another process's memory

            sampler = threading.Thread(target=sample)
            sampler.start()
            statuses: Counter[str] = Counter()
            lock = threading.Lock()

            def burst(kind: str) -> float:
                barrier = threading.Barrier(parallel)

                def one(n: int) -> None:
                    with httpx.Client(
                        base_url=origin, timeout=120, headers={"Origin": origin}
                    ) as client:
                        client.headers["X-CSRFToken"] = client.get("/api/auth/csrf").json()[
                            "csrfToken"
                        ]
                        barrier.wait()
                        if kind == "register":
                            body = {
                                "username": f"mem{n}",
                                "email": f"mem{n}@drill.example",
                                "password": PASSWORD,
                                "name": f"Mem {n}",
                                "birthYear": 1990,
                            }
                            response = client.post("/api/auth/register", json=body)
                        else:
                            body = {"username": f"mem{n}", "password": PASSWORD}
                            response = client.post("/api/auth/login", json=body)
                        with lock:
                            statuses[f"{kind} {response.status_code}"] += 1

                threads = [threading.Thread(target=one, args=(n,)) for n in range(parallel)]
                started = time.monotonic()
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                return time.monotonic() - started

            register_s = burst("register")
            register_peak = peak
            login_s = burst("login")
            stop.set()
            sampler.join()
        mib = 1 << 20
        figures.update(
            {
                "idle MiB": round(idle / mib, 1),
                "peak MiB (registrations)": round(register_peak / mib, 1),
                "peak MiB (sign-ins)": round(peak / mib, 1),
                "growth MiB": round((peak - idle) / mib, 1),
                "registrations s": round(register_s, 2),
                "sign-ins s": round(login_s, 2),
                "answers": dict(sorted(statuses.items())),
            }
        )
    finally:
        pg.destroy()
    return figures


def _load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.2f} {five:.2f} {fifteen:.2f}"


def avatar_memory_drill(
    *, parallel: int = 100, concurrency: int = 2, side: int = 4000
) -> dict[str, Any]:
    """Peak RSS of one daphne process while ``parallel`` avatar confirmations arrive at once,
    each of a ``side`` x ``side`` PNG of one colour (a few kilobytes that decode to 4 bytes a
    pixel), against the process's idle RSS in the same run (after the uploads, before the
    confirmations), with the machine's load average before and after."""
    import io
    import tempfile

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (side, side), "teal").save(out, format="PNG")
    png = out.getvalue()
    pg = PrivatePostgres()
    media = tempfile.mkdtemp(prefix="scoutvote-media-")
    figures: dict[str, Any] = {
        "parallel": parallel,
        "decode concurrency": concurrency,
        "image": f"{side}x{side} PNG, {len(png) / 1024:.0f} KiB",
    }
    try:
        pg.create()
        env = _env(pg.url, AVATAR_DECODE_CONCURRENCY=str(concurrency), MEDIA_ROOT=media)
        env["DB_POOL_TIMEOUT"] = "60"
        env["LOGIN_THROTTLE_LIMIT"] = "1000"
        seed(env, voters=parallel, nominations=0)
        with daphne(env) as (port, pid):
            clients = [signed_in(port, f"drill{n}") for n in range(parallel)]
            object_urls = []
            for client in clients:
                client.timeout = httpx.Timeout(300)
                ticket = client.post("/api/objects/upload").json()
                sent = client.post(
                    ticket["uploadURL"],
                    data=ticket["fields"],
                    files={"file": ("avatar.png", png, "image/png")},
                )
                assert sent.status_code == 204, sent.text
                object_urls.append(ticket["objectURL"])
            idle = rss_bytes(pid)
            load_before = _load_average()
            peak = idle
            stop = threading.Event()

            def sample() -> None:
                nonlocal peak
                while not stop.is_set():
                    peak = max(peak, rss_bytes(pid))
                    time.sleep(0.01)

            sampler = threading.Thread(target=sample)
            sampler.start()
            statuses: Counter[int] = Counter()
            lock = threading.Lock()
            barrier = threading.Barrier(parallel)

            def one(client: httpx.Client, object_url: str) -> None:
                barrier.wait()
                response = client.put("/api/profile/avatar", json={"avatarURL": object_url})
                with lock:
                    statuses[response.status_code] += 1

            threads = [
                threading.Thread(target=one, args=pair)
                for pair in zip(clients, object_urls, strict=True)
            ]
            started = time.monotonic()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            burst_s = time.monotonic() - started
            stop.set()
            sampler.join()
            load_after = _load_average()
            for client in clients:
                client.close()
        mib = 1 << 20
        figures.update(
            {
                "idle MiB": round(idle / mib, 1),
                "peak MiB": round(peak / mib, 1),
                "peak/idle": round(peak / idle, 2),
                "confirmations s": round(burst_s, 2),
                "load before": load_before,
                "load after": load_after,
                "answers": dict(sorted(statuses.items())),
            }
        )
    finally:
        pg.destroy()
        shutil.rmtree(media, ignore_errors=True)
    return figures
