"""GET /api/admin/stats, /nominations/pending, /leaderboard, /users: shapes and query counts."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from project.accounts.models import Role, User
from project.scouting.models import Nomination
from tests.builders import make_nomination, make_user, vote
from tests.helpers import NOMINATION_KEYS, ApiClient, assert_error

pytestmark = pytest.mark.django_db

ADMIN_READS = [
    "/api/admin/stats",
    "/api/admin/nominations/pending",
    "/api/admin/leaderboard",
    "/api/admin/users",
]


@pytest.mark.parametrize("path", ADMIN_READS)
def test_admin_reads_are_for_admins_only(
    api: ApiClient, scout_api: ApiClient, admin_api: ApiClient, path: str
) -> None:
    assert_error(api.get(path), 401, "Authentication required")
    body = assert_error(scout_api.get(path), 403, "Admin access required")
    assert body["code"] == "admin_required"
    assert admin_api.get(path).status_code == 200


def set_status(nomination: Nomination, status: str) -> None:
    Nomination.objects.filter(pk=nomination.pk).update(status=status)


def test_stats(admin_api: ApiClient, scout: User, other_scout: User) -> None:
    first, second, third, fourth = (make_nomination(scout, sport="soccer") for _ in range(4))
    set_status(second, "approved")
    set_status(third, "rejected")
    set_status(fourth, "rejected")
    vote(other_scout, first)
    vote(scout, first)
    vote(other_scout, second)
    make_user(is_active=False)
    make_user(role=Role.COACH)

    response = admin_api.get("/api/admin/stats")

    assert response.status_code == 200
    assert response.json() == {
        "pendingNominations": 1,
        "approvedNominations": 1,
        "rejectedNominations": 2,
        "totalVotes": 3,
        "activeScouts": 2,
        "totalNominations": 4,
    }


def test_pending_lists_only_pending_newest_first_with_has_voted(
    admin_api: ApiClient, admin_user: User, scout: User
) -> None:
    old, decided, new = (
        make_nomination(scout, sport="soccer"),
        make_nomination(scout, sport="soccer"),
        make_nomination(scout, sport="hockey"),
    )
    set_status(decided, "approved")
    vote(admin_user, old)

    response = admin_api.get("/api/admin/nominations/pending")

    assert response.status_code == 200
    body = response.json()
    assert [item["id"] for item in body] == [new.pk, old.pk]
    assert [item["hasVoted"] for item in body] == [False, True]
    assert body[1]["voteCount"] == 1
    assert set(body[0]) == NOMINATION_KEYS
    assert body[0]["nominatedBy"] == {
        "id": scout.pk,
        "name": "Sam Scout",
        "username": scout.username,
    }


def test_pending_pages_with_a_link_header(admin_api: ApiClient, scout: User) -> None:
    made = [make_nomination(scout, sport="soccer") for _ in range(5)]
    seen: list[int] = []
    url = "/api/admin/nominations/pending?limit=2"
    while url:
        response = admin_api.get(url)
        seen += [item["id"] for item in response.json()]
        link = response.get("Link")
        url = link[1 : link.index(">")] if link else ""
    assert seen == [n.pk for n in reversed(made)]


def test_leaderboard_is_the_top_ten_by_points(admin_api: ApiClient, admin_user: User) -> None:
    users = [make_user(points=points) for points in range(12)]

    response = admin_api.get("/api/admin/leaderboard")

    assert response.status_code == 200
    body = response.json()
    top = sorted(users, key=lambda u: -u.points)[:10]
    assert body == [
        {"id": u.pk, "name": u.name, "username": u.username, "points": u.points} for u in top
    ]
    assert len(admin_api.get("/api/admin/leaderboard?limit=3").json()) == 3


def test_users_lists_everyone_newest_first(
    admin_api: ApiClient, admin_user: User, scout: User
) -> None:
    coach = make_user(role=Role.COACH, points=7)

    response = admin_api.get("/api/admin/users")

    assert response.status_code == 200
    assert response.json() == [
        {
            "id": u.pk,
            "name": u.name,
            "username": u.username,
            "email": u.email,
            "role": u.role,
            "points": u.points,
        }
        for u in (coach, scout, admin_user)
    ]


def test_users_pages_with_a_link_header(admin_api: ApiClient, admin_user: User) -> None:
    made = [make_user() for _ in range(4)]
    first = admin_api.get("/api/admin/users?limit=3")
    assert [u["id"] for u in first.json()] == [u.pk for u in reversed(made[1:])]
    link = first["Link"]
    assert link.endswith('>; rel="next"')
    second = admin_api.get(link[1 : link.index(">")])
    assert [u["id"] for u in second.json()] == [made[0].pk, admin_user.pk]
    assert "Link" not in second


def _queries(client: ApiClient, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


@pytest.mark.parametrize(
    ("path", "grow"),
    [
        ("/api/admin/stats", lambda scout: make_nomination(scout, sport="soccer")),
        ("/api/admin/nominations/pending", lambda scout: make_nomination(scout, sport="soccer")),
        ("/api/admin/leaderboard", lambda scout: make_user(points=5)),
        ("/api/admin/users", lambda scout: make_user()),
    ],
)
def test_admin_reads_cost_constant_queries(
    admin_api: ApiClient, scout: User, path: str, grow: Callable[[User], object]
) -> None:
    grow(scout)
    few = _queries(admin_api, path)
    for _ in range(6):
        grow(scout)
    assert _queries(admin_api, path) == few
