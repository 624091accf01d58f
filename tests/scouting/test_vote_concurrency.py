"""Counters equal rows under real concurrency: real threads, separate clients, real
transactions (PostgreSQL in CI)."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection
from django.db.models import Count

from project.accounts.models import User
from project.common.errors import Conflict
from project.scouting.models import Nomination, Vote
from project.scouting.services import votes
from realtime.events import Event
from realtime.merge import get_merger
from tests.builders import make_nomination, make_user
from tests.helpers import ApiClient, unless_available

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # SQLite's in-memory test database locks whole tables across threads; CI runs PostgreSQL.
    unless_available(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL",
    ),
]


def run_threads(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads released together; each closes its connection."""
    barrier = threading.Barrier(count)

    def run(index: int) -> Any:
        try:
            barrier.wait(timeout=30)
            return work(index)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=count) as pool:
        return list(pool.map(run, range(count)))


def signed_in_clone(client: ApiClient) -> ApiClient:
    """Another client (own cookie jar, own thread) on the same session and CSRF token."""
    clone = ApiClient()
    clone.client.cookies = client.client.cookies.__class__(client.client.cookies)
    clone.user = client.user
    return clone


def test_fifty_identical_votes_make_one(scout: User, other_scout: User) -> None:
    nomination = make_nomination(other_scout)
    User.objects.filter(pk__in=[scout.pk, other_scout.pk]).update(points=0)
    base = ApiClient().login(scout)
    base.csrf_token()
    clients = [signed_in_clone(base) for _ in range(50)]

    statuses = run_threads(
        50,
        lambda i: clients[i].post("/api/votes", {"nominationId": nomination.pk}).status_code,
    )

    assert sorted(set(statuses)) == [201, 409], statuses
    assert statuses.count(201) == 1
    assert Vote.objects.filter(nomination=nomination).count() == 1
    nomination.refresh_from_db()
    assert nomination.vote_count == 1
    scout.refresh_from_db()
    other_scout.refresh_from_db()
    assert scout.points == 1
    assert other_scout.points == 2


def test_toggle_storm_ends_consistent() -> None:
    users = [make_user(name=f"Storm {n}") for n in range(5)]
    nominations = [make_nomination(user) for user in users[:4]]
    User.objects.update(points=0)
    clients = []
    for user in users:
        client = ApiClient().login(user)
        client.csrf_token()
        clients.append(client)
    threads = 10
    per_thread = [signed_in_clone(clients[i % len(clients)]) for i in range(threads)]

    def storm(index: int) -> list[int]:
        chooser = random.Random(index)
        client = per_thread[index]
        statuses = []
        for _ in range(25):
            nomination = chooser.choice(nominations)
            if chooser.random() < 0.55:
                response = client.post("/api/votes", {"nominationId": nomination.pk})
            else:
                response = client.delete(f"/api/votes/{nomination.pk}")
            statuses.append(response.status_code)
        return statuses

    results = run_threads(threads, storm)

    every_status = {status for statuses in results for status in statuses}
    assert every_status <= {200, 201, 404, 409}, every_status
    for nomination in Nomination.objects.annotate(rows=Count("votes")):
        assert nomination.vote_count == nomination.rows
    owner = {n.pk: n.nominated_by_id for n in nominations}
    expected = {user.pk: 0 for user in users}
    for vote in Vote.objects.all():
        expected[vote.user_id] += 1
        if owner[vote.nomination_id] != vote.user_id:
            expected[owner[vote.nomination_id]] += 2
    assert {user.pk: user.points for user in User.objects.all()} == expected


def test_published_counts_end_at_the_database_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """Votes commit in one order and reach the live layer in another (each thread runs its
    on-commit work itself); what goes out per nomination still rises in version and ends at
    the database's count and version."""
    assert get_merger().drain()
    sent: list[Event] = []
    monkeypatch.setattr("realtime.broadcast.broadcast_now", lambda *events: sent.extend(events))
    owners = [make_user(name=f"Owner {n}") for n in range(2)]
    nominations = [make_nomination(owner) for owner in owners]
    voters = [make_user(name=f"Crowd {n}") for n in range(12)]

    def toggle(index: int) -> None:
        chooser = random.Random(index)
        voter = voters[index]
        for _ in range(6):
            nomination = chooser.choice(nominations)
            try:
                votes.vote_cast(user=voter, nomination_id=nomination.pk)
            except Conflict:
                votes.vote_remove(user=voter, nomination_id=nomination.pk)

    run_threads(len(voters), toggle)
    assert get_merger().drain()

    published: dict[int, list[tuple[int, int]]] = {}
    for event in sent:
        if event.type == "vote.changed":
            for vote in event.data["votes"]:
                published.setdefault(vote["nominationId"], []).append(
                    (vote["version"], vote["voteCount"])
                )
    for nomination in Nomination.objects.filter(pk__in=[n.pk for n in nominations]):
        versions = [version for version, _ in published[nomination.pk]]
        assert versions == sorted(set(versions)), versions
        assert published[nomination.pk][-1] == (nomination.version, nomination.vote_count)
        assert nomination.vote_count == Vote.objects.filter(nomination=nomination).count()
