"""Notifications outside the tab cost the vote nothing it waits for: votes with every nominator
opted in to email and push against notifications off, the same votes with an SMTP server that
accepts connections and never answers, and the fold rule's bound on one nominator's inbox.

    DATABASE_URL=postgres://... python bench/notify.py [--votes 1200] [--passes 2] [--no-write]

Drops and creates the database ``scouting_bench_notify`` on that server, migrates it, and adds
one approved nomination per nominator and fresh voters for each round. One daphne process
serves the votes (keep-alive clients, ``bench/votes.py``'s HTTP client) while the background
worker (``manage.py run_worker``) runs beside it, as in production, sending to a local SMTP
server (aiosmtpd) and a local push service. Rounds, in turn so they see the same machine load:

- off: the nominators' email and vote notifications off, no push devices;
- on: every nominator opted in to email and vote notifications, with one push device each;
- stalled: as "on", but the worker's SMTP server accepts connections and never answers.

Each round's votes/s and request p99 are compared with the "off" rounds of the same run
(bars: on within 10% of off for both; stalled p99 within 10% of on). Then 300 votes on one
nomination, and the minute's dispatch run for each minute of the next hour and one beyond
(``events_dispatch`` with its clock moved): the emails that nominator receives in that hour
(bar: 2, the fold rule's bound: the first within a minute, the rest folded into one).
Written to bench/RESULTS.md under "## Notifications outside the tab". Exit status 1 on a
missed bar.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from email import message_from_bytes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from common import (
    HOST,
    ROOT,
    check_lines,
    daphne_command,
    database_url,
    django_setup,
    drop_databases,
    finish,
    free_port,
    load_line,
    new_user,
    percentile,
    recreate_database,
    server_process,
    session_for,
)

SECTION = "## Notifications outside the tab"
NAME = "scouting_bench_notify"
BAR = 0.10
FOLD_BOUND = 2
BURST = 300
CONCURRENCY = 16
NOMINATIONS = 60
PER_VOTER = 20


# --- The outside world: an SMTP server, one that never answers, a push service ----------


@dataclass
class Inbox:
    """What the local SMTP server accepted: recipients of each message."""

    recipients: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content)
        assert message["List-Unsubscribe-Post"] or "unsubscribe" not in str(message["Subject"])
        with self.lock:
            self.recipients.extend(envelope.rcpt_tos)
        return "250 Message accepted for delivery"

    def count(self, address: str) -> int:
        with self.lock:
            return self.recipients.count(address)


@contextlib.contextmanager
def smtp_server() -> Iterator[tuple[int, Inbox]]:
    from aiosmtpd.controller import Controller

    logging.getLogger("mail.log").setLevel(logging.WARNING)  # aiosmtpd's line per command
    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname=HOST, port=port)
    controller.start()
    try:
        yield port, inbox
    finally:
        controller.stop()


@contextlib.contextmanager
def silent_smtp_server() -> Iterator[int]:
    """Accepts connections and never sends a byte (not even the greeting)."""
    listener = socket.create_server((HOST, 0))
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            with contextlib.suppress(TimeoutError, OSError):
                held.append(listener.accept()[0])

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join()
        for connection in held:
            connection.close()
        listener.close()


@contextlib.contextmanager
def push_service() -> Iterator[tuple[int, list[int]]]:
    """Answers every push 201 and counts them (one item per push)."""
    received: list[int] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            received.append(1)
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer((HOST, 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield int(server.server_address[1]), received
    finally:
        server.shutdown()
        server.server_close()


# --- The product's side ----------------------------------------------------------------


@dataclass
class Fixture:
    nominations: list[int]
    nominators: list[Any]
    hot: int
    hot_nominator: Any
    voters: list[str]

    def take_voters(self, count: int) -> list[str]:
        if count > len(self.voters):
            raise SystemExit(f"not enough bench voters: {count} > {len(self.voters)}")
        taken, self.voters = self.voters[:count], self.voters[count:]
        return taken


def prepare(voters: int) -> Fixture:
    from common import SPORTS, approved_nominations

    from project.accounts.models import User, UserSettings

    voting = User.objects.bulk_create([new_user(f"bench_voter_{i}") for i in range(voters)])
    nominators = User.objects.bulk_create(
        [new_user(f"bench_nominator_{i}") for i in range(NOMINATIONS + 1)]
    )
    UserSettings.objects.bulk_create(
        [UserSettings(user=user, email_notifications=False) for user in voting]
        + [UserSettings(user=user) for user in nominators]
    )
    created = [
        approved_nominations(nominator, [SPORTS[i % 5]], [f"bench player {i}"], age=15)[0]
        for i, nominator in enumerate(nominators)
    ]
    *uniform, hot = created
    *uniform_nominators, hot_nominator = nominators
    return Fixture(
        nominations=[n.pk for n in uniform],
        nominators=uniform_nominators,
        hot=hot.pk,
        hot_nominator=hot_nominator,
        voters=[session_for(user) for user in voting],
    )


def notifications(fixture: Fixture, *, on: bool, push_port: int) -> None:
    """Every nominator opted in to email and vote notifications with one push device, or
    all of it off and no devices."""
    from project.accounts.models import UserSettings
    from project.push.models import PushSubscription

    users = [*fixture.nominators, fixture.hot_nominator]
    UserSettings.objects.filter(user__in=users).update(
        email_notifications=on, vote_notifications=on
    )
    PushSubscription.objects.filter(user__in=users).delete()
    if on:
        keys = device_keys()
        PushSubscription.objects.bulk_create(
            [
                PushSubscription(
                    user=user, endpoint=f"http://{HOST}:{push_port}/push/{user.pk}", **keys
                )
                for user in users
            ]
        )


def device_keys() -> dict[str, str]:
    """A browser's keys for a subscription (the push service here does not decrypt)."""
    import base64

    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    point = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    )
    return {"p256dh": b64(point), "auth": b64(os.urandom(16))}


def worker_command() -> list[str]:
    import sys

    return [sys.executable, str(ROOT / "manage.py"), "run_worker"]


@contextlib.contextmanager
def worker(env: dict[str, str]) -> Iterator[None]:
    import subprocess
    import sys

    process = subprocess.Popen(worker_command(), cwd=ROOT, env=env, stdout=sys.stderr)
    try:
        yield
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Round:
    label: str
    votes_per_s: float
    p99_ms: float
    ok: int
    sent: int


def vote_round(label: str, base_url: str, fixture: Fixture, count: int) -> Round:
    from votes import uniform_jobs, votes

    sessions = fixture.take_voters(count // PER_VOTER)
    jobs = uniform_jobs(sessions, fixture.nominations, PER_VOTER, seed=len(fixture.voters))
    answers = votes(base_url, CONCURRENCY, jobs)
    if answers.failures:
        print(f"{label}: failures {answers.failures}", flush=True)
    return Round(
        label=label,
        votes_per_s=answers.rate(),
        p99_ms=percentile(answers.latencies_ms, 0.99),
        ok=answers.ok,
        sent=len(jobs),
    )


def fold_check(base_url: str, fixture: Fixture, inbox: Inbox) -> tuple[int, int]:
    """BURST votes on one nomination, then the minute's dispatch for each minute of the hour
    after them and one beyond. Returns (emails to its nominator, events folded)."""
    from django.utils import timezone
    from votes import votes

    from project.notify.services import events_dispatch

    sessions = fixture.take_voters(BURST)
    answers = votes(base_url, CONCURRENCY, [(s, fixture.hot) for s in sessions])
    assert answers.ok == BURST, (answers.statuses, answers.failures)
    start = timezone.now()
    for minute in range(62):
        events_dispatch(now=start + timedelta(minutes=minute, seconds=1))
    address = fixture.hot_nominator.email
    deadline = time.monotonic() + 60
    # The worker sends what the dispatches enqueued; then nothing more comes.
    while inbox.count(address) < FOLD_BOUND and time.monotonic() < deadline:
        time.sleep(0.5)
    time.sleep(3)
    from project.notify.models import NotificationEmail

    events = sum(
        NotificationEmail.objects.filter(user=fixture.hot_nominator).values_list(
            "events", flat=True
        )
    )
    return inbox.count(address), events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--votes", type=int, default=1200, help="votes per round")
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    url = database_url(os.environ.get("DATABASE_URL", ""), NAME, "bench/notify.py")
    recreate_database(url, NAME)
    os.environ["DATABASE_URL"] = url
    django_setup()
    from project.push.vapid import new_key_pair

    rounds_per_pass = 3
    voters = args.passes * rounds_per_pass * (args.votes // PER_VOTER) + BURST
    print(f"Preparing {voters:,} voters and {NOMINATIONS + 1} nominations...", flush=True)
    fixture = prepare(voters)

    keys = new_key_pair()
    port = free_port()
    base_url = f"http://{HOST}:{port}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_DEBUG": "false",
        "PUBLIC_BASE_URL": base_url,
        "DJANGO_ALLOWED_HOSTS": f"{HOST},localhost",
        "LOG_LEVEL": "WARNING",
        "VAPID_PUBLIC_KEY": keys.public_key,
        "VAPID_PRIVATE_KEY": keys.private_key,
        "PUSH_ALLOW_PRIVATE_ENDPOINTS": "true",
        "EMAIL_TIMEOUT": "5",
    }
    rounds: list[Round] = []
    load_before = os.getloadavg()
    with (
        smtp_server() as (smtp_port, inbox),
        silent_smtp_server() as silent_port,
        push_service() as (push_port, pushes),
        server_process(daphne_command(port), port, env),
    ):
        answering = {**env, "EMAIL_URL": f"smtp://{HOST}:{smtp_port}"}
        stalled = {**env, "EMAIL_URL": f"smtp://{HOST}:{silent_port}"}
        for _ in range(args.passes):
            for label, on, worker_env in (
                ("off", False, answering),
                ("on", True, answering),
                ("stalled", True, stalled),
            ):
                notifications(fixture, on=on, push_port=push_port)
                with worker(worker_env):
                    rounds.append(vote_round(label, base_url, fixture, args.votes))
                print(
                    f"{label}: {rounds[-1].votes_per_s:.0f} votes/s, "
                    f"p99 {rounds[-1].p99_ms:.0f} ms",
                    flush=True,
                )
        notifications(fixture, on=True, push_port=push_port)
        with worker(answering):
            emails, folded = fold_check(base_url, fixture, inbox)
        push_count = len(pushes)
    load_after = os.getloadavg()
    drop_databases(url, NAME)

    def mean(label: str, attribute: str) -> float:
        values = [getattr(r, attribute) for r in rounds if r.label == label]
        return sum(values) / len(values)

    off_rate, on_rate = mean("off", "votes_per_s"), mean("on", "votes_per_s")
    off_p99, on_p99, stalled_p99 = (mean(x, "p99_ms") for x in ("off", "on", "stalled"))
    rate_ratio = on_rate / off_rate
    p99_ratio = on_p99 / off_p99
    stalled_ratio = stalled_p99 / on_p99
    all_ok = all(r.ok == r.sent for r in rounds)
    checks = {
        "throughput on/off": rate_ratio >= 1 - BAR,
        "p99 on/off": p99_ratio <= 1 + BAR,
        "p99 stalled SMTP/on": stalled_ratio <= 1 + BAR,
        "emails to one nominator in the hour of a 300-vote burst": 0 < emails <= FOLD_BOUND,
        "every vote answered 201": all_ok,
    }
    ok = all(checks.values())
    rows = [
        f"| {r.label} | {r.votes_per_s:.0f} | {r.p99_ms:.0f} | {r.ok}/{r.sent} |" for r in rounds
    ]
    text = "\n".join(
        [
            SECTION,
            "",
            f"One daphne process and the worker, {CONCURRENCY} keep-alive voters, "
            f"{args.votes} votes a round over {NOMINATIONS} nominations, rounds in turn "
            f"(`python bench/notify.py`).",
            "",
            "| round | votes/s | p99 ms | answered 201 |",
            "|---|---:|---:|---:|",
            *rows,
            "",
            f"- throughput, notifications on / off: {rate_ratio:.3f} (bar: at least {1 - BAR:.2f})",
            f"- request p99, on / off: {p99_ratio:.3f} (bar: at most {1 + BAR:.2f})",
            f"- request p99, SMTP server that never answers / answering: {stalled_ratio:.3f} "
            f"(bar: at most {1 + BAR:.2f})",
            f"- {BURST} votes on one nomination: {emails} emails to its nominator in the hour "
            f"(bar: at most {FOLD_BOUND}), telling of {folded} votes; pushes sent in the run: "
            f"{push_count}",
            load_line(load_before, load_after),
            "",
            *check_lines(checks),
            "",
        ]
    )
    finish(SECTION, text, ok, write=not args.no_write)


if __name__ == "__main__":
    main()
