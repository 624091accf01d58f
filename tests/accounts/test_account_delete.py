"""DELETE /api/settings/account: one transaction, no orphans, counters equal to rows."""

from __future__ import annotations

from typing import Any

import pytest

from project.accounts.models import User, UserSession
from project.scouting.models import Follow, Nomination, Player, Vote
from tests.accounts.factories import assert_counters_equal_rows, assert_nothing_left_of, build_world
from tests.helpers import ApiClient, EventRecorder, assert_error

pytestmark = pytest.mark.django_db


def test_deleting_ones_account_removes_everything_and_keeps_counters_exact(
    monkeypatch: pytest.MonkeyPatch,
    events: EventRecorder,
    django_capture_on_commit_callbacks: Any,
) -> None:
    world = build_world()
    world.friend.refresh_from_db()
    friend_points = world.friend.points
    world.voter.refresh_from_db()
    voter_points = world.voter.points
    events.clear()
    closed: list[tuple[int, str]] = []
    monkeypatch.setattr(
        "project.accounts.services.close_user_sockets",
        lambda user_id, *, reason: closed.append((user_id, reason)),
    )
    client = ApiClient().login(world.victim)
    victim_id = world.victim.pk

    with django_capture_on_commit_callbacks(execute=True):
        response = client.delete("/api/settings/account")

    assert response.status_code == 204
    assert response.content == b""
    assert_nothing_left_of(victim_id)
    assert_counters_equal_rows()
    # The solo player went with its only nomination; the shared one stays for the friend.
    assert not Player.objects.filter(pk=world.solo.player_id).exists()
    assert not Nomination.objects.filter(pk__in=[world.solo.pk, world.shared.pk]).exists()
    assert Player.objects.filter(pk=world.shared.player_id).exists()
    assert Nomination.objects.filter(pk=world.friends_shared.pk).exists()
    # The friend's nomination lost the victim's vote, the friend the 2 points it gave, and
    # the point their own vote on the victim's (deleted) shared nomination earned.
    world.friends.refresh_from_db()
    assert world.friends.vote_count == 1
    world.friend.refresh_from_db()
    assert world.friend.points == friend_points - 2 - 1
    # The voter's vote on the victim's solo nomination is gone, and its point with it.
    world.voter.refresh_from_db()
    assert world.voter.points == voter_points - 1
    # The voter keeps what they did elsewhere.
    assert Follow.objects.filter(follower=world.voter).count() == 0
    assert Vote.objects.filter(user=world.voter).count() == 1
    # Live clients hear of every change.
    published = {
        (e.type, e.sport, e.admins, str(sorted(e.data.items())))
        for e in events
        if e.type in {"vote.changed", "nomination.removed"}
    }
    assert published == {
        (
            "vote.changed",
            "soccer",
            False,
            str(
                sorted(
                    {
                        "votes": [
                            {
                                "nominationId": world.friends.pk,
                                "voteCount": 1,
                                "version": world.friends.version,
                            }
                        ]
                    }.items()
                )
            ),
        ),
        ("nomination.removed", "soccer", True, str([("id", world.solo.pk)])),
        ("nomination.removed", "hockey", True, str([("id", world.shared.pk)])),
    }
    assert closed == [(victim_id, "account_deleted")]
    # Signed out.
    assert_error(client.get("/api/auth/me"), 401)


def test_points_taken_back_never_go_below_zero() -> None:
    world = build_world()
    User.objects.filter(pk=world.friend.pk).update(points=1)
    client = ApiClient().login(world.victim)

    assert client.delete("/api/settings/account").status_code == 204

    world.friend.refresh_from_db()
    assert world.friend.points == 0


def test_deleting_an_account_ends_its_other_sessions(scout: User) -> None:
    this_tab, other_device = ApiClient().login(scout), ApiClient().login(scout)

    assert this_tab.delete("/api/settings/account").status_code == 204

    assert_error(other_device.get("/api/auth/me"), 401)
    assert not UserSession.objects.filter(user_id=scout.pk).exists()


def test_a_deleted_account_cannot_sign_in(scout: User) -> None:
    client = ApiClient().login(scout)
    assert client.delete("/api/settings/account").status_code == 204
    response = ApiClient().post(
        "/api/auth/login", {"username": scout.username, "password": "secret-pass-1"}
    )
    assert_error(response, 401, "Invalid username or password")
