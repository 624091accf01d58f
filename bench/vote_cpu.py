"""CPU per vote in one process: the services' own cost of a cast and of its removal, without
HTTP, sockets or other processes.

    DATABASE_URL=postgres://... python bench/vote_cpu.py [--votes 2000] [--rounds 3]

Against its own database (``scouting_bench_vote_cpu`` on the DATABASE_URL server, dropped and
created, dropped at the end), with the in-memory live layer: ``--votes`` voters each cast one
vote (on 100 approved nominations of another user, every nominator notification on) and then
take it back. Printed: the process's CPU (user + system) per cast and per removal, the best
of ``--rounds`` rounds, and the wall time of each. Nothing is written to bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import os
import time

from common import (
    SPORTS,
    approved_nominations,
    database_url,
    django_setup,
    drop_databases,
    new_user,
    recreate_database,
)

NAME = "scouting_bench_vote_cpu"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--votes", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    url = database_url(os.environ.get("DATABASE_URL", ""), NAME, "bench/vote_cpu.py")
    recreate_database(url, NAME)
    os.environ["DATABASE_URL"] = url
    os.environ.pop("REDIS_URL", None)
    django_setup()
    try:
        run(args.votes, args.rounds)
    finally:
        drop_databases(url, NAME)


def run(count: int, rounds: int) -> None:
    from django.conf import settings
    from django.db import transaction

    from project.accounts.models import User
    from project.scouting.services import votes

    # The notification emails go nowhere: their sending is not the vote's cost.
    settings.EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
    nominator = new_user("nominator")
    nominator.save()
    nominations = approved_nominations(
        nominator,
        [SPORTS[i % len(SPORTS)] for i in range(100)],
        [f"cpu-{i}" for i in range(100)],
    )
    voters = User.objects.bulk_create([new_user(f"voter{i}") for i in range(count)])
    targets = [nominations[i % len(nominations)].pk for i in range(count)]
    casts: list[tuple[float, float]] = []
    removals: list[tuple[float, float]] = []
    for _ in range(rounds):
        for sink, work in (
            (casts, votes.vote_cast),
            (removals, votes.vote_remove),
        ):
            cpu, wall = time.process_time(), time.perf_counter()
            for voter, nomination_id in zip(voters, targets, strict=True):
                work(user=voter, nomination_id=nomination_id)
            sink.append((time.process_time() - cpu, time.perf_counter() - wall))
    assert not transaction.get_connection().in_atomic_block
    for name, runs in (("cast", casts), ("removal", removals)):
        best = min(cpu for cpu, _ in runs)
        walls = ", ".join(f"{wall / count * 1e3:.3f}" for _, wall in runs)
        print(
            f"{name}: CPU {best / count * 1e3:.3f} ms per vote (best of {rounds}); wall ms {walls}"
        )


if __name__ == "__main__":
    main()
