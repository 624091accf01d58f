"""Budgets count only what is written, over sliding windows, per client (an IPv6 /64 is one),
and say when the caller can write again; while Redis is down votes are counted per process
and account creation is refused (503), as the README's table says."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine

from project.accounts.models import User
from project.scouting.models import Follow, Vote
from tests.builders import approved_nominations, make_user
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db

# Half a minute before midnight UTC: a fixed daily window would end in 30 seconds.
BEFORE_MIDNIGHT = datetime(2031, 3, 4, 23, 59, 30, tzinfo=UTC)

# A Redis no one listens on: connecting fails at once.
UNREACHABLE_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:9/0",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}


@pytest.fixture
def budgets(settings: Any) -> Iterator[dict[str, int]]:
    settings.BUDGETS_ENABLED = True
    settings.BUDGETS = {name: 0 for name in settings.BUDGET_DEFAULTS}
    yield settings.BUDGETS


def vote(api: ApiClient, nomination_id: int) -> Any:
    return api.post("/api/votes", {"nominationId": nomination_id})


def register(username: str, address: str) -> Any:
    return ApiClient().post(
        "/api/auth/register",
        {
            "username": username,
            "email": f"{username}@example.com",
            "password": "a-long-password-1",
            "name": username.title(),
            "birthYear": 1990,
        },
        REMOTE_ADDR=address,
    )


def test_a_refused_vote_spends_nothing(
    budgets: dict[str, int], scout: User, scout_api: ApiClient
) -> None:
    budgets["VOTES_PER_MINUTE"] = 3
    first, second, third, fourth = [n.pk for n in approved_nominations(4)]
    assert vote(scout_api, first).status_code == 201
    # A member clicking fast: the same vote again, and a vote for what does not exist.
    for _ in range(5):
        assert_error(vote(scout_api, first), 409)
    assert_error(vote(scout_api, 999_999), 404)
    assert vote(scout_api, second).status_code == 201
    assert vote(scout_api, third).status_code == 201
    answer = assert_error(vote(scout_api, fourth), 429)
    assert answer["message"].startswith("You are voting faster than we allow. You can vote again")
    assert Vote.objects.filter(user=scout).count() == 3


def test_the_day_slides_past_midnight_and_says_when_voting_opens(
    budgets: dict[str, int], scout: User
) -> None:
    budgets["VOTES_PER_DAY"] = 2
    nominations = [n.pk for n in approved_nominations(4)]
    with time_machine.travel(BEFORE_MIDNIGHT, tick=False) as clock:
        scout_api = ApiClient().login(scout)
        assert vote(scout_api, nominations[0]).status_code == 201
        clock.shift(10)
        assert vote(scout_api, nominations[1]).status_code == 201
        # Past midnight the day's votes are still the last 24 hours' votes: no fresh budget.
        clock.shift(60)
        response = vote(scout_api, nominations[2])
        body = assert_error(response, 429)
        assert body["message"] == (
            "You have cast as many votes as we allow in a day. You can vote again in 24 hours."
        )
        assert int(response["Retry-After"]) == 86400 - 70
        # The first vote's place comes back 24 hours after it was cast, not at a midnight.
        clock.move_to(BEFORE_MIDNIGHT + timedelta(days=1, seconds=1))
        assert vote(scout_api, nominations[2]).status_code == 201
        assert_error(vote(scout_api, nominations[3]), 429)
    assert Vote.objects.filter(user=scout).count() == 3


def test_the_minute_says_seconds(budgets: dict[str, int], scout: User) -> None:
    budgets["VOTES_PER_MINUTE"] = 1
    first, second = [n.pk for n in approved_nominations(2)]
    with time_machine.travel(BEFORE_MIDNIGHT, tick=False) as clock:
        scout_api = ApiClient().login(scout)
        assert vote(scout_api, first).status_code == 201
        clock.shift(15)
        response = vote(scout_api, second)
        assert assert_error(response, 429)["message"] == (
            "You are voting faster than we allow. You can vote again in 45 seconds."
        )
        assert response["Retry-After"] == "45"


def test_following_someone_already_followed_spends_nothing(
    budgets: dict[str, int], scout: User, scout_api: ApiClient
) -> None:
    budgets["FOLLOWS_PER_MINUTE"] = 2
    first, second = make_user(), make_user()
    for _ in range(3):
        assert scout_api.post(f"/api/follow/user/{first.pk}").status_code in (200, 201)
    assert scout_api.post(f"/api/follow/user/{second.pk}").status_code == 201
    assert Follow.objects.filter(follower=scout).count() == 2


def test_an_ipv6_64_is_one_client(budgets: dict[str, int]) -> None:
    budgets["REGISTRATIONS_PER_HOUR"] = 3
    for n in range(3):
        assert register(f"first{n}", f"2001:db8:1:2::{n + 1}").status_code == 201
    # Another address of the same /64: the same subscriber.
    assert_error(register("fourth", "2001:db8:1:2:ffff:abcd:1:9"), 429)
    # The neighbouring /64 is someone else.
    assert register("neighbour", "2001:db8:1:3::1").status_code == 201
    assert not User.objects.filter(username="fourth").exists()


def test_ipv6_nominations_count_by_64(budgets: dict[str, int]) -> None:
    budgets["IP_NOMINATIONS_PER_HOUR"] = 1
    from tests.builders import nomination_body

    first = ApiClient().login(make_user())
    assert (
        first.post(
            "/api/nominations", nomination_body(name="Ana One"), REMOTE_ADDR="2001:db8::1"
        ).status_code
        == 201
    )
    other = ApiClient().login(make_user())
    response = other.post(
        "/api/nominations", nomination_body(name="Bea Two"), REMOTE_ADDR="2001:db8::2"
    )
    assert_error(response, 429)


def test_while_redis_is_down_votes_count_per_process(
    budgets: dict[str, int], settings: Any, scout: User
) -> None:
    budgets["VOTES_PER_MINUTE"] = 2
    nominations = [n.pk for n in approved_nominations(3)]
    api = ApiClient().login(scout)
    settings.CACHES = UNREACHABLE_REDIS
    assert vote(api, nominations[0]).status_code == 201
    assert vote(api, nominations[1]).status_code == 201
    assert_error(vote(api, nominations[2]), 429)
    assert Vote.objects.filter(user=scout).count() == 2


def test_while_redis_is_down_no_account_is_created(budgets: dict[str, int], settings: Any) -> None:
    budgets["REGISTRATIONS_PER_HOUR"] = 20
    settings.CACHES = UNREACHABLE_REDIS
    response = register("newcomer", "203.0.113.20")
    body = assert_error(response, 503)
    assert body["code"] == "service_unavailable"
    assert int(response["Retry-After"]) > 0
    assert not User.objects.filter(username="newcomer").exists()


def test_reports_have_a_budget_per_member_and_per_address(budgets: dict[str, int]) -> None:
    from project.moderation.models import Report

    budgets["REPORTS_PER_HOUR"] = 2
    budgets["IP_REPORTS_PER_HOUR"] = 3
    nominations = [n.pk for n in approved_nominations(5)]
    member = ApiClient().login(make_user())

    def report(api: ApiClient, nomination_id: int, address: str = "198.51.100.1") -> Any:
        body = {"reason": "not_real", "nominationId": nomination_id}
        return api.post("/api/reports", body, REMOTE_ADDR=address)

    assert report(member, nominations[0]).status_code == 201
    assert_error(report(member, nominations[0]), 409)  # refused: spends nothing
    assert report(member, nominations[1]).status_code == 201
    body = assert_error(report(member, nominations[2]), 429)
    assert body["message"].startswith("You have sent as many reports as we allow for now.")
    # Another member on the same address has the address's last report left ...
    neighbour = ApiClient().login(make_user())
    assert report(neighbour, nominations[2]).status_code == 201
    assert_error(report(neighbour, nominations[3]), 429)
    # ... and from elsewhere their own budget.
    assert report(neighbour, nominations[3], address="203.0.113.77").status_code == 201
    assert Report.objects.count() == 4


def takedown(nomination_id: int, address: str) -> Any:
    body = {
        "nominationId": nomination_id,
        "relationship": "parent_or_guardian",
        "kind": "remove",
        "contactEmail": "parent@example.com",
    }
    return ApiClient().post("/api/takedown-requests", body, REMOTE_ADDR=address)


def test_takedowns_count_an_ipv6_64_as_one_client(budgets: dict[str, int]) -> None:
    from project.moderation.models import TakedownRequest

    budgets["TAKEDOWNS_PER_HOUR"] = 2
    nominations = [n.pk for n in approved_nominations(4)]
    assert takedown(nominations[0], "2001:db8:7:8::1").status_code == 201
    assert takedown(nominations[1], "2001:db8:7:8::2").status_code == 201
    assert_error(takedown(nominations[2], "2001:db8:7:8:9::3"), 429)
    assert takedown(nominations[3], "2001:db8:7:9::1").status_code == 201
    assert TakedownRequest.objects.count() == 3


def test_while_redis_is_down_no_takedown_is_taken(budgets: dict[str, int], settings: Any) -> None:
    from project.moderation.models import TakedownRequest

    budgets["TAKEDOWNS_PER_HOUR"] = 5
    nomination = approved_nominations(1)[0].pk
    settings.CACHES = UNREACHABLE_REDIS
    response = takedown(nomination, "203.0.113.30")
    assert assert_error(response, 503)["code"] == "service_unavailable"
    assert int(response["Retry-After"]) > 0
    assert not TakedownRequest.objects.exists()
