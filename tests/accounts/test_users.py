"""GET /api/users/scouts and GET /api/users/{id}: shapes, privacy and query counts."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection
from django.test.utils import CaptureQueriesContext

from project.accounts.models import User, UserSettings
from project.scouting.models import NominationStatus
from tests.builders import follow, make_nomination, make_user
from tests.helpers import ApiClient, assert_error

pytestmark = pytest.mark.django_db


def set_privacy(user: User, **fields: Any) -> None:
    UserSettings.objects.filter(user=user).update(**fields)


def card(user: User) -> dict[str, Any]:
    user.refresh_from_db()
    return {
        "id": user.pk,
        "username": user.username,
        "name": user.name,
        "bio": user.bio,
        "location": user.location,
        "favoriteSport": user.favorite_sport,
        "points": user.points,
        "avatarUrl": user.avatar_url or None,
    }


def test_scouts_lists_discoverable_users_newest_first(
    scout_api: ApiClient, scout: User, other_scout: User
) -> None:
    other_scout.bio = "Watching the under-16s"
    other_scout.location = "Cork, Ireland"
    other_scout.avatar_url = "/media/avatars/olive.png"
    other_scout.save()
    hidden = make_user(name="Hidden")
    set_privacy(hidden, allow_discoverability=False)
    private = make_user(name="Private")
    set_privacy(private, profile_visibility="private")
    followers_only = make_user(name="Followers Only")
    set_privacy(followers_only, profile_visibility="followers")
    make_user(name="Gone", is_active=False)

    response = scout_api.get("/api/users/scouts")

    assert response.status_code == 200
    assert response.json() == [card(followers_only), card(other_scout), card(scout)]
    assert "Link" not in response


def test_scouts_pages_with_a_link_header(scout_api: ApiClient, scout: User) -> None:
    users = [make_user() for _ in range(4)]
    seen: list[int] = []
    url = "/api/users/scouts?limit=2"
    while url:
        response = scout_api.get(url)
        assert response.status_code == 200
        seen += [item["id"] for item in response.json()]
        link = response.get("Link")
        url = link[1 : link.index(">")] if link else ""
    assert seen == [u.pk for u in reversed([scout, *users])]


def test_scouts_bad_cursor_is_400(scout_api: ApiClient) -> None:
    body = assert_error(scout_api.get("/api/users/scouts?cursor=nonsense"), 400, "Invalid cursor")
    assert body["fields"] == {"cursor": "Invalid cursor"}


def test_scouts_costs_the_same_queries_whatever_the_count(scout_api: ApiClient) -> None:
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert scout_api.get("/api/users/scouts").status_code == 200
        return len(queries)

    few = count()
    for _ in range(8):
        make_user()
    assert count() == few


def test_scouts_needs_sign_in(api: ApiClient) -> None:
    assert_error(api.get("/api/users/scouts"), 401)


def scout_body(user: User, *, viewer_sees_contact: bool, **extra: Any) -> dict[str, Any]:
    body = card(user)
    body.update(
        email=user.email if viewer_sees_contact else None,
        phoneNumber=user.phone_number if viewer_sees_contact else None,
        role=user.role,
        createdAt=DjangoJSONEncoder().default(user.created_at),
        followerCount=0,
        nominationCount=0,
        isFollowing=False,
    )
    body.update(extra)
    return body


def test_a_scout_seen_by_another_hides_email_and_phone(
    scout_api: ApiClient, scout: User, other_scout: User
) -> None:
    other_scout.phone_number = "+353 1 234 5678"
    other_scout.save()
    follow(scout, user=other_scout)
    make_nomination(other_scout, sport="soccer")
    rejected = make_nomination(other_scout, sport="soccer")
    rejected.status = NominationStatus.REJECTED
    rejected.save()

    response = scout_api.get(f"/api/users/{other_scout.pk}")

    assert response.status_code == 200
    assert response.json() == scout_body(
        other_scout,
        viewer_sees_contact=False,
        followerCount=1,
        nominationCount=1,
        isFollowing=True,
    )


def test_oneself_and_admins_see_email_phone_and_every_nomination(
    scout_api: ApiClient, admin_api: ApiClient, scout: User
) -> None:
    scout.phone_number = "555-0100"
    scout.save()
    make_nomination(scout, sport="soccer")
    rejected = make_nomination(scout, sport="soccer")
    rejected.status = NominationStatus.REJECTED
    rejected.save()

    for client in (scout_api, admin_api):
        body = client.get(f"/api/users/{scout.pk}").json()
        assert body["email"] == scout.email
        assert body["phoneNumber"] == "555-0100"
        assert body["nominationCount"] == 2


@pytest.mark.parametrize(
    ("visibility", "follows", "status"),
    [
        ("public", False, 200),
        ("private", False, 404),
        ("private", True, 404),
        ("followers", False, 404),
        ("followers", True, 200),
    ],
)
def test_profile_visibility_is_enforced(
    other_api: ApiClient,
    other_scout: User,
    scout: User,
    visibility: str,
    follows: bool,
    status: int,
) -> None:
    set_privacy(scout, profile_visibility=visibility)
    if follows:
        follow(other_scout, user=scout)

    response = other_api.get(f"/api/users/{scout.pk}")

    if status == 404:
        assert_error(response, 404, "Scout not found")
    else:
        assert response.status_code == 200


@pytest.mark.parametrize("visibility", ["private", "followers"])
def test_oneself_and_admins_always_see_a_hidden_profile(
    scout_api: ApiClient, admin_api: ApiClient, scout: User, visibility: str
) -> None:
    set_privacy(scout, profile_visibility=visibility)
    assert scout_api.get(f"/api/users/{scout.pk}").status_code == 200
    assert admin_api.get(f"/api/users/{scout.pk}").status_code == 200


def test_an_undiscoverable_profile_still_opens_by_its_link(
    other_api: ApiClient, scout: User
) -> None:
    set_privacy(scout, allow_discoverability=False)
    assert other_api.get(f"/api/users/{scout.pk}").status_code == 200


def test_unknown_and_inactive_scouts_are_not_found(other_api: ApiClient) -> None:
    inactive = make_user(is_active=False)
    assert_error(other_api.get(f"/api/users/{inactive.pk}"), 404, "Scout not found")
    assert_error(other_api.get("/api/users/999999"), 404, "Scout not found")


def test_one_scout_is_one_query_after_auth(other_api: ApiClient, scout: User) -> None:
    other_api.get(f"/api/users/{scout.pk}")
    with CaptureQueriesContext(connection) as queries:
        assert other_api.get(f"/api/users/{scout.pk}").status_code == 200
    # the session with its user (authentication: one statement), then the scout with its
    # counts.
    assert len(queries) == 2


def test_a_scout_needs_sign_in(api: ApiClient, scout: User) -> None:
    assert_error(api.get(f"/api/users/{scout.pk}"), 401)
