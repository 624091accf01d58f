"""Live detection: each rule on a seeded shape raises one flag (updated as the evidence grows,
pushed to the admins); a synthetic organic set raises none."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import timedelta
from typing import Any

import pytest
from django.test import TestCase
from django.utils import timezone

from project.accounts.models import User
from project.common.addresses import prefix_key
from project.integrity.models import FlagRule, IntegrityFlag
from project.integrity.services.detection import vote_inspect
from project.scouting.models import Nomination, NominationStatus, Player, Vote
from tests.builders import aged_user, make_nomination, make_user
from tests.helpers import ApiClient, EventRecorder
from tests.integrity.helpers import vote

pytestmark = pytest.mark.django_db


def test_accounts_of_one_network_voting_one_nomination(
    admin_api: ApiClient, events: EventRecorder
) -> None:
    nomination = make_nomination(aged_user(), status=NominationStatus.APPROVED)
    ring = [aged_user() for _ in range(6)]
    with TestCase.captureOnCommitCallbacks(execute=True):
        for index, member in enumerate(ring[:5]):
            response = (
                ApiClient()
                .login(member)
                .post(
                    "/api/votes",
                    {"nominationId": nomination.pk},
                    REMOTE_ADDR=f"203.0.113.{10 + index}",
                )
            )
            assert response.status_code == 201
    flag = IntegrityFlag.objects.get()
    (flagged,) = events.of_type("integrity.flagged")
    assert flagged.admins and not flagged.user_ids and flagged.sport is None
    assert flagged.data["id"] == flag.pk and flagged.data["rule"] == "shared_prefix"
    assert flag.rule == FlagRule.SHARED_PREFIX
    assert flag.nomination_id == nomination.pk
    assert flag.accounts == sorted(member.pk for member in ring[:5])
    assert flag.evidence["accounts"] == 5
    assert flag.evidence["cluster"] == prefix_key("203.0.113.1")
    assert "203.0.113" not in str(flag.evidence)

    # Another network adds nothing; one more account of the ring grows the same flag.
    vote(aged_user(), nomination, "198.51.100.4")
    vote(ring[5], nomination, "203.0.113.200")
    flag = IntegrityFlag.objects.get()
    assert flag.evidence["accounts"] == 6 and len(flag.accounts) == 6

    body = admin_api.get("/api/admin/integrity/flags").json()
    assert [item["id"] for item in body] == [flag.pk]
    assert body[0]["explanation"].startswith("6 accounts from one network")
    assert body[0]["playerName"] == nomination.player.name


def test_a_voter_whose_votes_go_to_one_nominator() -> None:
    favourite, others = aged_user(), aged_user()
    voter = aged_user()
    for _ in range(5):
        vote(voter, make_nomination(favourite, status=NominationStatus.APPROVED))
    for _ in range(4):
        vote(voter, make_nomination(others, status=NominationStatus.APPROVED))
    assert not IntegrityFlag.objects.exists()  # 9 votes: too few to judge
    vote(voter, make_nomination(favourite, status=NominationStatus.APPROVED))
    flag = IntegrityFlag.objects.get()
    assert flag.rule == FlagRule.ONE_NOMINATOR
    assert (flag.accounts, flag.nominators) == ([voter.pk], [favourite.pk])
    assert flag.evidence == {
        "voter": voter.pk,
        "nominator": favourite.pk,
        "votes": 10,
        "toNominator": 6,
        "sharePercent": 60,
    }


def test_a_burst_of_new_accounts_on_one_nomination(settings: Any) -> None:
    settings.TRUST_ACCOUNT_AGE_HOURS = 24.0  # as the environment sets it
    nomination = make_nomination(aged_user(), status=NominationStatus.APPROVED)
    newcomers = [make_user() for _ in range(6)]
    for index, newcomer in enumerate(newcomers):
        vote(newcomer, nomination, f"192.0.{index}.1")  # every one from its own network
    flag = IntegrityFlag.objects.get()
    assert flag.rule == FlagRule.NEW_ACCOUNT_BURST
    assert flag.accounts == sorted(newcomer.pk for newcomer in newcomers)
    assert flag.evidence["accounts"] == 6
    assert flag.explanation.startswith("6 accounts younger than 24 hours voted")


def test_two_nominators_voting_for_each_other() -> None:
    first, second = aged_user(), aged_user()
    firsts = [make_nomination(first, status=NominationStatus.APPROVED) for _ in range(3)]
    seconds = [make_nomination(second, status=NominationStatus.APPROVED) for _ in range(3)]
    for nomination in seconds:
        vote(first, nomination)
    for nomination in firsts[:2]:
        vote(second, nomination)
    assert not IntegrityFlag.objects.exists()
    vote(second, firsts[2])
    flag = IntegrityFlag.objects.get()
    assert flag.rule == FlagRule.RECIPROCAL
    assert flag.accounts == sorted([first.pk, second.pk])
    assert flag.evidence["firstToSecond"] == 3 and flag.evidence["secondToFirst"] == 3


def test_an_organic_set_raises_no_flag(settings: Any) -> None:
    """10,000 votes of 500 aged accounts over many networks, with the skew of a real board:
    a few nominations draw most votes, a few nominators own more nominations, households and
    schools share a network. Every rule is evaluated at each voter's and each network's worst
    moment."""
    settings.TRUST_ACCOUNT_AGE_HOURS = 24
    rng = random.Random(15)
    now = timezone.now()
    joined = now - timedelta(days=60)
    users = User.objects.bulk_create(
        User(
            username=f"organic{n}",
            email=f"organic{n}@example.com",
            name=f"Organic {n}",
            date_joined=joined,
        )
        for n in range(500)
    )
    nominators = users[:80]
    players = Player.objects.bulk_create(
        Player(
            name=f"Organic Player {n}",
            position="Guard",
            nationality="Chile",
            club="Club",
            sport="football",
            normalized_identity=f"organic player {n}",
        )
        for n in range(300)
    )
    # Nominators' output is skewed too: the first ones nominated more.
    owner_weights = [1 / (rank + 1) ** 0.7 for rank in range(len(nominators))]
    nominations = Nomination.objects.bulk_create(
        Nomination(
            player=player,
            nominated_by=rng.choices(nominators, owner_weights)[0],
            sport="football",
            status=NominationStatus.APPROVED,
        )
        for player in players
    )
    popularity = [1 / (rank + 1) ** 0.9 for rank in range(len(nominations))]
    # 3,000 networks; a household or a school puts up to four accounts on one.
    prefixes = [prefix_key(f"10.{n // 250}.{n % 250}.1") for n in range(3000)]
    network = {
        user.pk: rng.choice(prefixes[: 2600 if n % 5 else 400]) for n, user in enumerate(users)
    }
    votes = []
    for user in users:
        chosen: set[int] = set()
        while len(chosen) < 20:
            nomination = rng.choices(nominations, popularity)[0]
            if nomination.nominated_by_id != user.pk:
                chosen.add(nomination.pk)
        for nomination_id in chosen:
            votes.append(
                Vote(
                    nomination_id=nomination_id,
                    user_id=user.pk,
                    created_at=now - timedelta(seconds=rng.uniform(0, 86400)),
                    counted=True,
                    ip_prefix=network[user.pk],
                )
            )
    Vote.objects.bulk_create(votes, batch_size=2000)
    assert Vote.objects.count() == 10_000

    owner = {nomination.pk: nomination.nominated_by_id for nomination in nominations}
    worst: dict[tuple[str, Any], tuple[int, int, int]] = {}
    # Rules b and d: each voter's vote on the nominator it favours most.
    given: dict[int, dict[int, int]] = defaultdict(lambda: defaultdict(int))
    for row in votes:
        given[row.user_id][owner[row.nomination_id]] += 1
    for row in votes:
        favourite = max(given[row.user_id].items(), key=lambda item: item[1])[0]
        if owner[row.nomination_id] == favourite:
            worst[("voter", row.user_id)] = (row.user_id, row.nomination_id, 0)
    # Rule a: for each nomination and network, the vote ending its busiest hour.
    by_group: dict[tuple[int, str], list[Vote]] = defaultdict(list)
    for row in votes:
        by_group[(row.nomination_id, row.ip_prefix)].append(row)
    for (nomination_id, prefix), group in by_group.items():
        if len(group) > 1:
            group.sort(key=lambda row: row.created_at)
            busiest = max(
                range(len(group)),
                key=lambda i: sum(
                    1
                    for other in group[: i + 1]
                    if other.created_at > group[i].created_at - timedelta(hours=1)
                ),
            )
            worst[("network", (nomination_id, prefix))] = (group[busiest].user_id, nomination_id, 0)
    for voter_id, nomination_id, _ in worst.values():
        assert vote_inspect(voter_id=voter_id, nomination_id=nomination_id) == []
    assert not IntegrityFlag.objects.exists()
