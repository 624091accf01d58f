"""Comment-to-screen fan-out beside the vote's: POST /api/nominations/{id}/comments ->
comment.created at every socket, against POST /api/votes -> vote.changed at the same sockets.

For N sockets (signed in, subscribed to one sport) and R rounds, each round casts one vote and
then posts one comment, each on a nomination of its own, through the full stack (session
cookie + CSRF, the service with its rules and screening, commit, the audience rule, the live
layer), and times, at every socket, the arrival of its event from the moment the request was
sent. Votes and comments alternate on one server and one set of sockets, so both see the same
machine; the comment's p50 and p99 are printed as ratios of the vote's.

    python bench/comment_fanout.py                       # 100 sockets, 25 rounds
    python bench/comment_fanout.py --sockets 100,1000 --no-write

Needs DATABASE_URL (PostgreSQL) and REDIS_URL like production; without them it runs the
embedded mode (SQLite, in-memory live layer, one process). The players are 16 (comments are
off under 13), the commenter is past the new-member window and the comments are plain sports
talk, so each comment publishes at once (a held one would reach its author and admins only).
The server runs with the comment budgets off (BUDGET_COMMENTS_PER_MINUTE=0: the rounds post
faster than a member may). Writes its section of bench/RESULTS.md. Exits 1 when an event did
not reach every socket.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sys
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import httpx
from common import (
    HOST,
    approved_nominations,
    daphne_command,
    django_setup,
    free_port,
    new_user,
    server_process,
    session_for,
    write_section,
)
from ws_fanout import (
    SPORT,
    Clients,
    Result,
    Round,
    cpu_seconds,
    describe_machine,
    forget_prefix,
    raise_file_limit,
    server_env,
    voted_ids,
)

SECTION = "## Comment to screen (bench/comment_fanout.py)"
# Sports talk that no rule holds (no contact details, no watched word, a low classifier score).
COMMENT = "Great first touch and a calm finish in the second half."


@dataclass
class Fixture:
    sessions: list[str]
    voter_session: str
    commenter_session: str
    vote_ids: list[int]
    comment_ids: list[int]


def prepare(sockets: int, rounds: int) -> Fixture:
    """Fresh bench users with sessions, a voter, a commenter of long standing, and two
    nominations of 16-year-olds per round (one voted for, one commented on)."""
    from django.core.management import call_command
    from django.utils import timezone

    from project.accounts.models import User, UserSettings
    from project.scouting.models import Player

    call_command("migrate", verbosity=0)
    Player.objects.filter(name__startswith="Bench Player").delete()
    User.objects.filter(username__startswith="bench_").delete()

    users = User.objects.bulk_create([new_user(f"bench_ws_{i}") for i in range(sockets)])
    voter, commenter, nominator = User.objects.bulk_create(
        [new_user("bench_voter"), new_user("bench_commenter"), new_user("bench_nom")]
    )
    User.objects.filter(pk=commenter.pk).update(
        date_joined=timezone.now() - timedelta(days=365), birth_year=1990
    )
    # Console e-mail would print a message per vote and comment: not what is measured.
    UserSettings.objects.bulk_create(
        [UserSettings(user=user, email_notifications=False) for user in (voter, nominator)],
        ignore_conflicts=True,
    )
    created = approved_nominations(
        nominator,
        [SPORT] * (2 * rounds),
        [f"bench player {i}|{SPORT}" for i in range(2 * rounds)],
        age=16,
    )
    ids = [nomination.pk for nomination in created]
    return Fixture(
        sessions=[session_for(user) for user in users],
        voter_session=session_for(voter),
        commenter_session=session_for(commenter),
        vote_ids=ids[:rounds],
        comment_ids=ids[rounds:],
    )


class BothClients(Clients):
    """The sockets, noting the arrival of both a round's ``vote.changed`` and its
    ``comment.created``."""

    async def _read(self, ws: Any) -> None:
        with contextlib.suppress(Exception):
            async for text in ws:
                if '"vote.changed"' in text:
                    ids = voted_ids(json.loads(text)["data"])
                elif '"comment.created"' in text:
                    ids = [json.loads(text)["data"]["nominationId"]]
                else:
                    continue
                at = time.perf_counter()
                for nomination_id in ids:
                    current = self.rounds.get(nomination_id)
                    if current is not None:
                        current.arrive(at)


@dataclass
class Tally:
    name: str
    latencies: list[float]
    requests: list[float]
    delivered: int = 0
    expected: int = 0
    cpu_seconds: float = 0.0


async def one_round(
    clients: BothClients, nomination_id: int, send: Any, tally: Tally, measured: bool, pid: int
) -> None:
    sockets = len(clients.connections)
    current = Round(sent_at=time.perf_counter(), expected=sockets)
    clients.rounds[nomination_id] = current
    cpu_before = cpu_seconds(pid)
    await send(nomination_id)
    answered = time.perf_counter()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(current.done.wait(), 10)
    if len(current.arrivals) < sockets:
        print(f"  {tally.name} {nomination_id}: {len(current.arrivals)}/{sockets} sockets")
    if measured:
        tally.cpu_seconds += cpu_seconds(pid) - cpu_before
        tally.requests.append((answered - current.sent_at) * 1000)
        tally.latencies += [(at - current.sent_at) * 1000 for at in current.arrivals]
        tally.delivered += len(current.arrivals)
        tally.expected += sockets


async def bench(
    fixture: Fixture, sockets: int, rounds: int, warmup: int, pause: float
) -> list[Result]:
    port = free_port()
    base = f"http://{HOST}:{port}"
    env = {
        **server_env(),
        "BUDGET_COMMENTS_PER_MINUTE": "0",
        "BUDGET_COMMENTS_PER_DAY": "0",
    }
    tallies = {name: Tally(name, [], []) for name in ("vote", "comment")}
    with server_process(daphne_command(port), port, env) as server:
        clients = BothClients()
        await clients.open(f"ws://{HOST}:{port}/ws/", base, fixture.sessions[:sockets], SPORT)
        async with (
            httpx.AsyncClient(base_url=base, timeout=30) as voter,
            httpx.AsyncClient(base_url=base, timeout=30) as commenter,
        ):
            headers = {}
            for http, session in (
                (voter, fixture.voter_session),
                (commenter, fixture.commenter_session),
            ):
                http.cookies.set("sessionid", session)
                csrf = (await http.get("/api/auth/csrf")).json()["csrfToken"]
                headers[id(http)] = {"X-CSRFToken": csrf, "Origin": base, "Referer": base + "/"}

            async def vote(nomination_id: int) -> None:
                response = await voter.post(
                    "/api/votes", json={"nominationId": nomination_id}, headers=headers[id(voter)]
                )
                assert response.status_code == 201, response.text

            async def comment(nomination_id: int) -> None:
                response = await commenter.post(
                    f"/api/nominations/{nomination_id}/comments",
                    json={"content": COMMENT},
                    headers=headers[id(commenter)],
                )
                assert response.status_code == 201, response.text
                assert response.json()["status"] == "published", response.text

            for index in range(warmup + rounds):
                measured = index >= warmup
                await one_round(
                    clients, fixture.vote_ids[index], vote, tallies["vote"], measured, server.pid
                )
                await asyncio.sleep(pause)
                await one_round(
                    clients,
                    fixture.comment_ids[index],
                    comment,
                    tallies["comment"],
                    measured,
                    server.pid,
                )
                await asyncio.sleep(pause)
        await clients.close()
    return [
        Result(
            tally.name,
            sockets,
            rounds,
            tally.latencies,
            tally.delivered,
            tally.expected,
            tally.requests,
            tally.cpu_seconds * 1000 / rounds,
        )
        for tally in tallies.values()
    ]


def report(results: list[Result], ratios: list[str], load: float, args: argparse.Namespace) -> str:
    lines = [
        SECTION,
        "",
        f"`python bench/comment_fanout.py`: {describe_machine()}; load average {load:.2f} when",
        "it started (the machine is shared: figures move with it). Each round casts one vote",
        "(`POST /api/votes`) and then posts one comment (`POST /api/nominations/{id}/comments`),",
        "each on a nomination of its own, on one server and the same sockets; the time runs from",
        f"sending the request to the event at each socket. 3 warm-up rounds, {args.rounds}",
        f"measured, {args.pause} s between requests. Server CPU is the server process's user +",
        "system time per request (request, rules, commit, events, fan-out).",
        "",
        "| event | sockets | p50 ms | p99 ms | max ms | delivered | request p50 ms "
        "| server CPU ms |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for result in results:
        lines.append(
            f"| {result.server} | {result.sockets} | {result.percentile(50):.1f} | "
            f"{result.percentile(99):.1f} | {max(result.latencies_ms, default=0):.1f} | "
            f"{result.delivered_pct:.2f}% | {median(result.request_ms):.1f} | "
            f"{result.server_cpu_ms:.1f} |"
        )
    return "\n".join([*lines, "", *(f"- {ratio}" for ratio in ratios), ""])


def median(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2] if ordered else float("nan")


async def main_async(args: argparse.Namespace) -> int:
    """The run; answers how many sizes lost an event."""
    sizes = [int(n) for n in args.sockets.split(",")]
    raise_file_limit(2 * max(sizes) + 256)
    django_setup(migrate=())
    logging.getLogger("httpx").setLevel(logging.WARNING)
    load = os.getloadavg()[0]
    print(f"machine: {describe_machine()}; load average {load:.2f}")
    missed = 0
    results: list[Result] = []
    ratios: list[str] = []
    for sockets in sizes:
        fixture = await asyncio.to_thread(prepare, max(sizes), args.rounds + 3)
        vote, comment = await bench(fixture, sockets, args.rounds, 3, args.pause)
        for result in (vote, comment):
            print(result.line(), flush=True)
        results += [vote, comment]
        lost = vote.delivered < vote.expected or comment.delivered < comment.expected
        missed += lost
        ratios.append(
            f"N={sockets}: comment/vote p50 = {comment.percentile(50) / vote.percentile(50):.2f}, "
            f"p99 = {comment.percentile(99) / vote.percentile(99):.2f}, server CPU = "
            f"{comment.server_cpu_ms / vote.server_cpu_ms:.2f}"
            + (" (an event did not reach every socket)" if lost else "")
        )
        print(ratios[-1], flush=True)
    forget_prefix()
    if not args.no_write:
        write_section(SECTION, report(results, ratios, load, args))
    return missed


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", default="100", help="comma-separated socket counts")
    parser.add_argument("--rounds", type=int, default=25, help="measured rounds (>= 20)")
    parser.add_argument("--pause", type=float, default=0.25, help="seconds between requests")
    parser.add_argument("--no-write", action="store_true", help="do not update RESULTS.md")
    return parser.parse_args()


if __name__ == "__main__":
    if asyncio.run(main_async(parse_args())):
        sys.exit(1)  # make bench names it among the benches that missed a target
