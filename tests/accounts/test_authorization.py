"""Every accounts call as anonymous, the owner, another scout and an admin.

The owner's profile is followers-only and the other scout does not follow them, so the
profile read shows the 404 a stranger gets. Calls on "my" data (profile, settings, account)
act on the caller's own row whoever calls; the admin-only calls are in tests/moderation.
"""

from __future__ import annotations

from typing import Any

import pytest

from project.accounts.models import User, UserSettings
from tests.builders import PASSWORD, make_user
from tests.helpers import ApiClient

pytestmark = pytest.mark.django_db

ACTORS = ("anonymous", "owner", "other", "admin")


@pytest.fixture
def owner(db: None) -> User:
    user = make_user(name="Owen Owner")
    UserSettings.objects.filter(user=user).update(profile_visibility="followers")
    return user


@pytest.fixture
def clients(owner: User, other_scout: User, admin_user: User) -> dict[str, ApiClient]:
    return {
        "anonymous": ApiClient(),
        "owner": ApiClient().login(owner),
        "other": ApiClient().login(other_scout),
        "admin": ApiClient().login(admin_user),
    }


CALLS: list[tuple[str, str, Any, tuple[int, int, int, int]]] = [
    ("get", "/api/users/scouts", None, (401, 200, 200, 200)),
    ("get", "/api/users/{owner}", None, (401, 200, 404, 200)),
    ("get", "/api/profile", None, (401, 200, 200, 200)),
    ("put", "/api/profile", {"bio": "Hello"}, (401, 200, 200, 200)),
    ("get", "/api/settings", None, (401, 200, 200, 200)),
    ("put", "/api/settings/notifications", {"voteNotifications": False}, (401, 200, 200, 200)),
    ("put", "/api/settings/privacy", {"allowDiscoverability": False}, (401, 200, 200, 200)),
    (
        "put",
        "/api/settings/password",
        {"currentPassword": PASSWORD, "newPassword": "changed-pass"},
        (401, 200, 200, 200),
    ),
    # The admin is the only one: the last admin cannot delete their account (409).
    ("delete", "/api/settings/account", None, (401, 204, 204, 409)),
]


@pytest.mark.parametrize(("method", "path", "body", "expected"), CALLS)
def test_accounts_calls_by_actor(
    clients: dict[str, ApiClient],
    owner: User,
    method: str,
    path: str,
    body: Any,
    expected: tuple[int, int, int, int],
) -> None:
    url = path.format(owner=owner.pk)
    for actor, status in zip(ACTORS, expected, strict=True):
        client = clients[actor]
        response = client.get(url) if method == "get" else getattr(client, method)(url, body)
        assert response.status_code == status, (actor, response.content)


def test_my_calls_only_ever_touch_the_callers_own_rows(
    clients: dict[str, ApiClient], owner: User, other_scout: User
) -> None:
    clients["other"].put("/api/profile", {"name": "Changed By Other"})
    clients["other"].put("/api/settings/privacy", {"profileVisibility": "private"})
    clients["other"].delete("/api/settings/account")

    owner.refresh_from_db()
    assert owner.name == "Owen Owner"
    assert UserSettings.objects.get(user=owner).profile_visibility == "followers"
    assert not User.objects.filter(pk=other_scout.pk).exists()
    assert clients["owner"].get("/api/auth/me").status_code == 200
