"""Discover and Suggested Scouts put the scouts a member cares about first: a ring of fresh
accounts under an integrity flag fills neither the first row of Discover nor any suggestion."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from project.accounts.models import User
from project.integrity.models import FlagRule, IntegrityFlag
from tests.builders import follow, make_user
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db


def ids(response: Any) -> list[int]:
    assert response.status_code == 200, response.content
    return [item["id"] for item in response.json()]


@pytest.fixture
def community() -> dict[str, Any]:
    """Scouts with points made first, then the seeded ring (newest, hardly any points)."""
    people = {
        "veteran": make_user(name="Vera Veteran", points=400, favorite_sport="hockey"),
        "soccer_fan": make_user(name="Sol Soccer", points=120, favorite_sport="soccer"),
        "followed": make_user(name="Fay Followed", points=900, favorite_sport="soccer"),
        "suspended": make_user(name="Sue Suspended", points=999, is_active=False),
        "newcomer": make_user(name="Ned New", points=3, favorite_sport="soccer"),
    }
    ring = [make_user(name=f"Fan Account {n}", points=1, favorite_sport="soccer") for n in range(8)]
    IntegrityFlag.objects.create(
        rule=FlagRule.SHARED_PREFIX, subject="ring", accounts=[user.pk for user in ring]
    )
    return {**people, "ring": ring}


def test_discover_puts_the_most_points_first(
    community: dict[str, Any], scout_api: ApiClient
) -> None:
    first_row = ids(scout_api.get("/api/users/scouts?limit=4"))
    expected = ["followed", "veteran", "soccer_fan", "newcomer"]
    assert first_row == [community[name].pk for name in expected]


def test_suggestions_share_the_sport_and_leave_the_ring_out(
    community: dict[str, Any],
) -> None:
    viewer = make_user(name="Vic Viewer", favorite_sport="soccer", points=50)
    follow(viewer, user=community["followed"])
    api = ApiClient().login(viewer)
    with CaptureQueriesContext(connection) as queries:
        suggested = ids(api.get("/api/users/suggested"))
    # Shared sport first, then points; never oneself, the followed, the suspended or the ring.
    assert suggested == [
        community["soccer_fan"].pk,
        community["newcomer"].pk,
        community["veteran"].pk,
    ]
    ring = {user.pk for user in community["ring"]}
    assert not ring & set(suggested)
    # The session, the open flags and the scouts.
    assert len(queries) <= 4


def test_a_voided_flag_no_longer_hides_its_accounts(community: dict[str, Any]) -> None:
    IntegrityFlag.objects.update(status="voided")
    viewer = make_user(favorite_sport="baseball")
    suggested = ids(ApiClient().login(viewer).get("/api/users/suggested"))
    assert len(suggested) == 5
    assert suggested[:3] == [community[name].pk for name in ("followed", "veteran", "soccer_fan")]


def test_suggestions_need_sign_in(api: ApiClient) -> None:
    assert_error(api.get("/api/users/suggested"), 401)


def test_hidden_scouts_are_not_suggested(community: dict[str, Any]) -> None:
    from project.accounts.models import UserSettings

    UserSettings.objects.filter(user=community["soccer_fan"]).update(allow_discoverability=False)
    UserSettings.objects.filter(user=community["veteran"]).update(profile_visibility="private")
    viewer = make_user(favorite_sport="soccer")
    suggested = ids(ApiClient().login(viewer).get("/api/users/suggested"))
    assert community["soccer_fan"].pk not in suggested
    assert community["veteran"].pk not in suggested
    assert isinstance(viewer, User)
