from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from project.accounts.models import User
from project.scouting import selectors
from project.scouting.models import Nomination, NominationStatus
from tests.builders import make_nomination, make_user
from tests.helpers import BOARD_PLACE_KEYS, NOMINATION_KEYS, ApiClient, assert_error

pytestmark = pytest.mark.django_db


def with_votes(nomination: Nomination, votes: int) -> Nomination:
    Nomination.objects.filter(pk=nomination.pk).update(vote_count=votes)
    return nomination


def test_scout_leaderboard(scout_api: ApiClient, scout: User, other_scout: User) -> None:
    for _ in range(3):
        make_nomination(other_scout)
    make_nomination(scout)
    make_nomination(scout, status=NominationStatus.REJECTED)
    make_nomination(scout, status=NominationStatus.REJECTED)
    make_nomination(scout, sport="hockey")
    response = scout_api.get("/api/leaderboard?sport=football")
    assert response.status_code == 200
    assert response.json() == [
        {
            "id": other_scout.pk,
            "name": other_scout.name,
            "username": other_scout.username,
            "nominationCount": 3,
        },
        {"id": scout.pk, "name": scout.name, "username": scout.username, "nominationCount": 1},
    ]
    assert scout_api.get("/api/leaderboard?sport=hockey").json()[0]["nominationCount"] == 1


def test_scout_leaderboard_is_top_ten_ties_by_the_earlier_account(scout_api: ApiClient) -> None:
    scouts = [make_user(name=f"Scout {n}") for n in range(12)]
    for scout in reversed(scouts):  # nominations newest for the oldest account
        make_nomination(scout)
    make_nomination(scouts[11])
    board = scout_api.get("/api/leaderboard?sport=football").json()
    assert [row["id"] for row in board] == [scouts[11].pk] + [s.pk for s in scouts[:9]]
    assert [row["nominationCount"] for row in board] == [2] + [1] * 9


def test_player_leaderboard(scout_api: ApiClient, other_scout: User) -> None:
    old_tie = with_votes(make_nomination(other_scout), 3)
    top = with_votes(make_nomination(other_scout), 9)
    new_tie = with_votes(make_nomination(other_scout), 3)
    with_votes(make_nomination(other_scout, status=NominationStatus.REJECTED), 50)
    with_votes(make_nomination(other_scout, sport="hockey"), 40)
    for _ in range(10):
        make_nomination(other_scout)
    response = scout_api.get("/api/leaderboard/players?sport=football")
    body = response.json()
    assert len(body) == 10
    assert [item["id"] for item in body[:3]] == [top.pk, old_tie.pk, new_tie.pk]
    assert body[0]["voteCount"] == 9 and body[0]["hasVoted"] is False
    # The read shape of docs/specification.md §3, plus the board's place
    # (tests/scouting/test_boards.py).
    assert set(body[0]) == NOMINATION_KEYS | BOARD_PLACE_KEYS


def test_stats(scout_api: ApiClient, other_scout: User) -> None:
    with_votes(make_nomination(other_scout), 7)
    with_votes(make_nomination(other_scout), 4)
    make_nomination(other_scout, status=NominationStatus.APPROVED)
    with_votes(make_nomination(other_scout, status=NominationStatus.REJECTED), 100)
    with_votes(make_nomination(other_scout, sport="hockey"), 100)
    response = scout_api.get("/api/stats?sport=football")
    assert response.status_code == 200
    assert response.json() == {"nominations": 3, "votes": 11, "nominationsNeedingVotes": 2}
    assert scout_api.get("/api/stats?sport=baseball").json() == {
        "nominations": 0,
        "votes": 0,
        "nominationsNeedingVotes": 0,
    }


def test_reads_need_sign_in_and_a_known_sport(api: ApiClient, scout_api: ApiClient) -> None:
    for path in ("/api/leaderboard", "/api/leaderboard/players", "/api/stats"):
        assert_error(api.get(path), 401)
        assert_error(scout_api.get(f"{path}?sport=quidditch"), 400, "Invalid input")


def test_selectors_for_the_live_layer(other_scout: User) -> None:
    nomination = with_votes(make_nomination(other_scout, sport="soccer"), 2)
    players = selectors.leaderboard_players(sport="soccer")
    assert [item["id"] for item in players] == [nomination.pk]
    assert "hasVoted" not in players[0] and players[0]["voteCount"] == 2
    assert isinstance(players[0]["createdAt"], str)
    assert selectors.leaderboard_scouts(sport="soccer") == [
        {
            "id": other_scout.pk,
            "name": other_scout.name,
            "username": other_scout.username,
            "nominationCount": 1,
        }
    ]
    assert selectors.sport_stats(sport="soccer") == {
        "nominations": 1,
        "votes": 2,
        "nominationsNeedingVotes": 1,
    }


@pytest.mark.parametrize("path", ["/api/leaderboard", "/api/stats"])
def test_query_count_is_constant(scout_api: ApiClient, path: str) -> None:
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert scout_api.get(f"{path}?sport=football").status_code == 200
        return len(queries)

    make_nomination(make_user())
    few = count()
    for _ in range(15):
        make_nomination(make_user())
    assert count() == few
