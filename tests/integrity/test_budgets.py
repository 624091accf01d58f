"""Budgets: over a budget the call answers 429 with Retry-After and a message a person
understands, and writes nothing; the counters are shared by every process (Redis)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
import time_machine
from django.conf import settings as django_settings

from project.accounts.models import User
from project.scouting.models import Follow, Nomination, Player, Vote
from tests.builders import approved_nominations, make_nomination, make_user, nomination_body
from tests.helpers import ApiClient, assert_error, unless_available

pytestmark = pytest.mark.django_db

# The first second of a minute (and far from a day's end): every window is fresh and none
# ends while a test runs.
START = datetime(2031, 3, 4, 10, 20, 0, tzinfo=UTC)


@pytest.fixture
def budgets(settings: Any) -> Iterator[dict[str, int]]:
    settings.BUDGETS_ENABLED = True
    settings.BUDGETS = {name: 0 for name in settings.BUDGET_DEFAULTS}
    with time_machine.travel(START, tick=True):
        yield settings.BUDGETS


def assert_throttled(response: Any, *, within: int) -> None:
    body = assert_error(response, 429)
    assert body["code"] == "throttled"
    assert " again in " in body["message"]
    assert 1 <= int(response["Retry-After"]) <= within


def test_votes_per_minute(budgets: dict[str, int], scout: User, scout_api: ApiClient) -> None:
    budgets["VOTES_PER_MINUTE"] = 2
    first, second, third = approved_nominations(3)
    for nomination in (first, second):
        assert scout_api.post("/api/votes", {"nominationId": nomination.pk}).status_code == 201
    assert_throttled(scout_api.post("/api/votes", {"nominationId": third.pk}), within=60)
    third.refresh_from_db()
    assert third.vote_count == 0
    assert not Vote.objects.filter(nomination=third).exists()


def test_votes_per_day(budgets: dict[str, int], scout: User, scout_api: ApiClient) -> None:
    budgets["VOTES_PER_MINUTE"] = 10
    budgets["VOTES_PER_DAY"] = 1
    first, second = approved_nominations(2)
    assert scout_api.post("/api/votes", {"nominationId": first.pk}).status_code == 201
    response = scout_api.post("/api/votes", {"nominationId": second.pk})
    assert_throttled(response, within=86400)
    assert int(response["Retry-After"]) > 3600  # the day's window, not the minute's
    assert Vote.objects.filter(user=scout).count() == 1


def test_a_budget_is_per_user(budgets: dict[str, int], other_api: ApiClient) -> None:
    budgets["VOTES_PER_MINUTE"] = 1
    first, second = approved_nominations(2)
    assert (
        ApiClient().login(make_user()).post("/api/votes", {"nominationId": first.pk}).status_code
        == 201
    )
    assert other_api.post("/api/votes", {"nominationId": second.pk}).status_code == 201


def test_nominations_per_day(budgets: dict[str, int], scout: User, scout_api: ApiClient) -> None:
    budgets["NOMINATIONS_PER_DAY"] = 1
    assert scout_api.post("/api/nominations", nomination_body(name="Ana One")).status_code == 201
    response = scout_api.post("/api/nominations", nomination_body(name="Bea Two"))
    assert_throttled(response, within=86400)
    assert Nomination.objects.filter(nominated_by=scout).count() == 1
    assert not Player.objects.filter(name="Bea Two").exists()


def test_nominations_per_address(budgets: dict[str, int], scout_api: ApiClient) -> None:
    budgets["IP_NOMINATIONS_PER_HOUR"] = 1
    assert scout_api.post("/api/nominations", nomination_body(name="Ana One")).status_code == 201
    # Another account on the same address shares the address's budget ...
    other = ApiClient().login(make_user())
    assert_throttled(other.post("/api/nominations", nomination_body(name="Bea Two")), within=3600)
    # ... another address does not.
    elsewhere = other.post(
        "/api/nominations", nomination_body(name="Bea Two"), REMOTE_ADDR="198.51.100.7"
    )
    assert elsewhere.status_code == 201
    assert Player.objects.filter(name="Bea Two").count() == 1


def test_registrations_per_address(budgets: dict[str, int]) -> None:
    budgets["REGISTRATIONS_PER_HOUR"] = 1

    def register(username: str) -> Any:
        return ApiClient().post(
            "/api/auth/register",
            {
                "username": username,
                "email": f"{username}@example.com",
                "password": "a-long-password-1",
                "name": username.title(),
                "birthYear": 1990,
            },
            REMOTE_ADDR="203.0.113.9",
        )

    assert register("first").status_code == 201
    assert_throttled(register("second"), within=3600)
    assert not User.objects.filter(username="second").exists()


def test_follows_per_minute(budgets: dict[str, int], scout: User, scout_api: ApiClient) -> None:
    budgets["FOLLOWS_PER_MINUTE"] = 1
    first, second = (make_user(), make_user())
    assert scout_api.post(f"/api/follow/user/{first.pk}").status_code == 201
    assert_throttled(scout_api.post(f"/api/follow/user/{second.pk}"), within=60)
    nomination = approved_nominations(1)[0]
    assert_throttled(scout_api.post(f"/api/follow/player/{nomination.player_id}"), within=60)
    assert Follow.objects.filter(follower=scout).count() == 1


def test_player_edits_per_minute(
    budgets: dict[str, int], scout: User, scout_api: ApiClient
) -> None:
    budgets["PLAYER_EDITS_PER_MINUTE"] = 1
    nomination = make_nomination(scout)
    body = {
        "name": "Edited Once",
        "age": 15,
        "position": "Guard",
        "nationality": "Canada",
        "club": "Toronto Academy",
        "sport": "football",
    }
    path = f"/api/players/{nomination.player_id}"
    assert scout_api.put(path, body).status_code == 200
    assert_throttled(scout_api.put(path, {**body, "name": "Edited Twice"}), within=60)
    assert Player.objects.get(pk=nomination.player_id).name == "Edited Once"


def test_zero_and_off_turn_budgets_off(settings: Any, scout_api: ApiClient) -> None:
    settings.BUDGETS_ENABLED = True
    settings.BUDGETS = {**settings.BUDGETS, "VOTES_PER_MINUTE": 0, "VOTES_PER_DAY": 0}
    nominations = approved_nominations(3)
    for nomination in nominations[:2]:
        assert scout_api.post("/api/votes", {"nominationId": nomination.pk}).status_code == 201
    settings.BUDGETS = {**settings.BUDGETS, "VOTES_PER_MINUTE": 1}
    settings.BUDGETS_ENABLED = False
    assert scout_api.post("/api/votes", {"nominationId": nominations[2].pk}).status_code == 201


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@unless_available(
    not (os.environ.get("DATABASE_URL") and django_settings.REDIS_URL),
    reason="two processes share one budget through Redis",
)
def test_a_budget_is_shared_by_two_processes(scout: User, scout_api: ApiClient) -> None:
    from tests.realtime.live import session_of
    from tests.realtime.servers import HOST, daphne

    nominations = approved_nominations(4)
    env = {
        "BUDGETS": "on",
        "BUDGET_VOTES_PER_MINUTE": "0",
        "BUDGET_VOTES_PER_DAY": "3",
        "CACHE_PREFIX": f"budget-test-{uuid.uuid4().hex[:8]}",
    }
    cookies = {"sessionid": session_of(scout_api), "csrftoken": scout_api.csrf_token()}
    with daphne(**env) as (port_a, _), daphne(**env) as (port_b, _):
        answers = []
        for nomination, port in zip(nominations, (port_a, port_b, port_a, port_b), strict=True):
            origin = f"http://{HOST}:{port}"
            response = httpx.post(
                f"{origin}/api/votes",
                json={"nominationId": nomination.pk},
                cookies=cookies,
                headers={"X-CSRFToken": cookies["csrftoken"], "Origin": origin},
            )
            answers.append(response)
    assert [response.status_code for response in answers] == [201, 201, 201, 429]
    assert int(answers[3].headers["Retry-After"]) > 0
    assert Vote.objects.filter(user=scout).count() == 3
