"""Link previews: the SPA's page of a nomination with its preview tags (one query) must serve
within 10% of the requests per second of the SPA's page without a player (/about: the generic
tags, no query), on one real daphne process.

    DATABASE_URL=postgres://... python bench/previews.py [--seconds 5] [--rounds 4] [--no-write]

Drops and creates the database ``scouting_bench_previews`` on that server, migrates it, adds
one live nomination and renders its share card. Then HTTP/1.1 keep-alive clients (threads, one
connection each) fetch one address as fast as the server answers for --seconds, the two
addresses turn about for --rounds rounds so both see the same machine load; the figure is
each address's total requests over its total time, with the load average at the start and the
end. Written to bench/RESULTS.md under "## Link previews". Exit status 1 beyond 10%.
"""

from __future__ import annotations

import argparse
import http.client
import os
import threading
import time

from common import (
    HOST,
    daphne_command,
    database_url,
    django_setup,
    drop_databases,
    finish,
    free_port,
    new_user,
    recreate_database,
    server_process,
)

SECTION = "## Link previews"
NAME = "scouting_bench_previews"
BAR = 0.10
CLIENTS = 4


def hammer(port: int, path: str, seconds: float) -> tuple[int, float]:
    """Requests answered (all 200) by CLIENTS keep-alive connections in ``seconds``."""
    counts = [0] * CLIENTS
    deadline = time.perf_counter() + seconds

    def client(index: int) -> None:
        connection = http.client.HTTPConnection(HOST, port, timeout=10)
        while time.perf_counter() < deadline:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            assert response.status == 200, (path, response.status)
            counts[index] += 1
        connection.close()

    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(counts), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    url = database_url(os.environ.get("DATABASE_URL", ""), NAME, "bench/previews.py")
    recreate_database(url, NAME)
    os.environ["DATABASE_URL"] = url
    django_setup()

    from project.scouting.models import Nomination, NominationStatus
    from project.scouting.services.nominations import nomination_create
    from project.sharing.services import share_card_render

    nominator = new_user("bench-previews")
    nominator.save()
    nomination = nomination_create(
        user=nominator,
        name='Zoë "Bench" <Player>',
        sport="football",
        age=16,
        graduation_year=None,
        position="Winger",
        nationality="Nowhere",
        club="Bench FC",
        skills="",
        video_link="",
    )
    # Only an approved nomination has a preview and a card (set directly, as a decision).
    Nomination.objects.filter(pk=nomination.pk).update(status=NominationStatus.APPROVED)
    share_card_render(nomination_id=nomination.pk)

    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_DEBUG": "false"}
    env["DJANGO_ALLOWED_HOSTS"] = f"{HOST},localhost"
    paths = {"preview": f"/nominations/{nomination.pk}", "plain": "/about"}
    totals = {name: [0, 0.0] for name in paths}
    load_before = os.getloadavg()
    with server_process(daphne_command(port), port, env):
        for path in paths.values():
            hammer(port, path, 1.0)  # warm-up
        for _ in range(args.rounds):
            for name, path in paths.items():
                count, elapsed = hammer(port, path, args.seconds)
                totals[name][0] += count
                totals[name][1] += elapsed
    load_after = os.getloadavg()
    drop_databases(url, NAME)

    rate = {name: count / elapsed for name, (count, elapsed) in totals.items()}
    ratio = rate["preview"] / rate["plain"]
    ok = ratio >= 1 - BAR
    text = "\n".join(
        [
            SECTION,
            "",
            f"One daphne process, {CLIENTS} keep-alive clients, {args.rounds} rounds of "
            f"{args.seconds:g} s per address, turn about (`python bench/previews.py`).",
            "",
            f"- nomination page with its preview tags: {rate['preview']:.0f} req/s",
            f"- SPA page without a player (/about): {rate['plain']:.0f} req/s",
            f"- ratio: {ratio:.3f} (bar: at least {1 - BAR:.2f}) {'PASS' if ok else 'FAIL'}",
            f"- load average (1, 5, 15 min) before: {', '.join(f'{v:.2f}' for v in load_before)}"
            f"; after: {', '.join(f'{v:.2f}' for v in load_after)}",
            "",
        ]
    )
    finish(SECTION, text, ok, write=not args.no_write)


if __name__ == "__main__":
    main()
