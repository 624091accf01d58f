"""Every board ranks equal figures the same way: entries side by side that show the same
score share a rank (1, 2, 2, 4), trending included, though it orders them by a decayed score
that tells them apart."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
import time_machine

from project.accounts.models import User
from project.scouting.boards import reads as board_reads
from tests.builders import make_nomination
from tests.helpers import ApiClient
from tests.scouting.test_boards import board, places, votes_at, week_votes

pytestmark = pytest.mark.django_db

NOW = datetime(2025, 3, 12, 15, 0, tzinfo=UTC)  # a Wednesday
THIS_WEEK = date(2025, 3, 10)


@pytest.fixture
def at_now() -> Any:
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


def test_trending_ranks_equal_votes_in_24_hours_together(
    scout_api: ApiClient, other_scout: User, at_now: Any
) -> None:
    leader = make_nomination(other_scout)
    votes_at(leader, *(NOW - timedelta(minutes=m) for m in range(13)))
    # Twelve votes each in the last 24 hours, cast at different times: their decayed scores
    # differ, the figure shown ("12 votes in 24 h") does not.
    earlier = make_nomination(other_scout)
    votes_at(earlier, *(NOW - timedelta(hours=20, minutes=m) for m in range(12)))
    later = make_nomination(other_scout)
    votes_at(later, *(NOW - timedelta(hours=1, minutes=m) for m in range(12)))
    last = make_nomination(other_scout)
    votes_at(last, NOW - timedelta(hours=2))

    expected = [(leader.pk, 1, 13), (later.pk, 2, 12), (earlier.pk, 2, 12), (last.pk, 4, 1)]
    assert [entry[:3] for entry in places(board(scout_api, "trending"))] == expected
    live = board_reads.board_data(kind="trending", sport="football")
    assert [(entry["id"], entry["rank"], entry["score"]) for entry in live] == expected


def test_every_board_numbers_ties_alike(
    scout_api: ApiClient, other_scout: User, at_now: Any
) -> None:
    first, second, third, fourth = (make_nomination(other_scout) for _ in range(4))
    tallies = zip((first, second, third, fourth), (3, 2, 2, 1), strict=True)
    for index, (nomination, votes) in enumerate(tallies):
        week_votes(nomination, THIS_WEEK, votes)
        # Cast at different hours: each trend differs, the votes in 24 hours tie.
        votes_at(nomination, *(NOW - timedelta(hours=index + h) for h in range(votes)))
    for kind in ("all", "trending", "weekly"):
        assert [entry[1] for entry in places(board(scout_api, kind))] == [1, 2, 2, 4], kind
