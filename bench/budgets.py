"""The cost of a budget gate on the vote path: one Redis round trip.

Times ``budget_spend("VOTES", user, "MINUTE", "DAY")`` (one Lua script that trims, counts and
appends to a sliding log per window) against a baseline measured in the same run: one plain
cache read (one round trip) through the same Django Redis cache. Passes when the gate costs at
most 1.5x the baseline.
Needs REDIS_URL (its keys are prefixed and deleted after).

    REDIS_URL=redis://127.0.0.1:6379/0 python bench/budgets.py [--no-write]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import uuid
from collections.abc import Callable

import common

ROUNDS = 5
CALLS = 2000


def per_call_us(call: Callable[[int], object]) -> float:
    """Median over ROUNDS of the mean time of CALLS calls, in microseconds."""
    rounds = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for n in range(CALLS):
            call(n)
        rounds.append((time.perf_counter() - start) / CALLS * 1e6)
    return statistics.median(rounds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-write", action="store_true", help="leave bench/RESULTS.md alone")
    args = parser.parse_args()
    if not os.environ.get("REDIS_URL"):
        sys.exit("bench/budgets.py needs REDIS_URL")
    prefix = f"bench-budget-{uuid.uuid4().hex[:8]}"
    os.environ["CACHE_PREFIX"] = prefix
    os.environ["BUDGETS"] = "on"
    common.django_setup(migrate=())
    from django.conf import settings
    from django.core.cache import cache

    from project.common.budgets import budget_spend

    settings.BUDGETS = {**settings.BUDGETS, "VOTES_PER_MINUTE": 10**9, "VOTES_PER_DAY": 10**9}
    try:
        baseline = per_call_us(lambda n: cache.get(f"baseline:{n % 100}"))
        one_window = per_call_us(lambda n: budget_spend("VOTES", n % 100, "DAY"))
        two_windows = per_call_us(lambda n: budget_spend("VOTES", n % 100, "MINUTE", "DAY"))
    finally:
        client = cache._cache.get_client(write=True)  # type: ignore[attr-defined]
        keys = list(client.scan_iter(f"{prefix}:*", count=1000))
        if keys:
            client.delete(*keys)
    ratio = two_windows / baseline
    ok = ratio <= 1.5
    text = "\n".join(
        [
            "## Budget gate on the vote path (bench/budgets.py)",
            "",
            f"Median of {ROUNDS} rounds of {CALLS:,} calls each, one process, local Redis, "
            "in the same run:",
            "",
            "| call | per call | vs one cache read |",
            "|---|---|---|",
            f"| one cache read (baseline: one round trip) | {baseline:.0f} us | 1.00x |",
            f"| budget, one window (one script: trim, count, append) | {one_window:.0f} us | "
            f"{one_window / baseline:.2f}x |",
            f"| votes budget, minute + day (one script, two logs) | {two_windows:.0f} us | "
            f"{ratio:.2f}x |",
            "",
            f"The votes gate costs {ratio:.2f}x one round trip (bar: at most 1.5x): "
            + ("one round trip, as required." if ok else "MORE than one round trip."),
        ]
    )
    common.finish(
        "## Budget gate on the vote path (bench/budgets.py)", text, ok, write=not args.no_write
    )


if __name__ == "__main__":
    main()
