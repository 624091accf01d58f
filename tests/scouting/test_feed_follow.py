from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from project.accounts.models import User
from project.scouting.models import Activity, Follow, Nomination, NominationStatus, Notification
from project.scouting.selectors import activity_data
from tests.builders import follow, make_nomination, make_user
from tests.helpers import ApiClient, EventRecorder, assert_error

pytestmark = pytest.mark.django_db

ACTIVITY_KEYS = {
    "id",
    "userId",
    "activityType",
    "relatedUserId",
    "relatedPlayerId",
    "relatedNominationId",
    "metadata",
    "createdAt",
    "user",
}


# --- Feed -------------------------------------------------------------------------------


def test_feed_is_the_sport_newest_first(scout_api: ApiClient, other_scout: User) -> None:
    first = make_nomination(other_scout, name="First One")
    second = make_nomination(other_scout, name="Second One")
    make_nomination(other_scout, sport="hockey")
    response = scout_api.get("/api/feed?sport=football")
    assert response.status_code == 200
    body = response.json()
    assert [item["relatedNominationId"] for item in body] == [second.pk, first.pk]
    assert set(body[0]) == ACTIVITY_KEYS
    assert body[0]["activityType"] == "nomination_created"
    assert body[0]["userId"] == other_scout.pk
    assert body[0]["user"] == {
        "id": other_scout.pk,
        "name": other_scout.name,
        "username": other_scout.username,
    }
    assert body[0]["metadata"] == {"playerName": "Second One"}
    assert body[0]["relatedPlayerId"] == second.player_id
    assert body[0]["relatedUserId"] is None


def test_the_live_activity_is_what_the_feed_answers(
    scout_api: ApiClient, scout: User, other_scout: User
) -> None:
    """activity.created's data is written out by hand (``activity_data``); for each kind of
    activity it must be the feed's item as the REST schema encodes it."""
    nomination = make_nomination(other_scout, name="Feed Player")  # nomination_created
    Nomination.objects.filter(pk=nomination.pk).update(status=NominationStatus.APPROVED)
    assert scout_api.post("/api/votes", {"nominationId": nomination.pk}).status_code == 201
    assert scout_api.post(f"/api/follow/user/{other_scout.pk}").status_code < 300
    Activity.objects.create(
        user=scout,
        activity_type="player_update",
        sport="football",
        related_player_id=nomination.player_id,
        metadata={"playerName": "Feed Player", "nested": {"n": [1, 2.5, None, True]}},
    )
    feed = scout_api.get("/api/feed?sport=football").json()
    assert len(feed) >= 3
    live = {
        item.pk: activity_data(item)
        for item in Activity.objects.filter(pk__in=[entry["id"] for entry in feed])
    }
    assert [live[entry["id"]] for entry in feed] == feed


def test_feed_hides_rejected_nominations(scout_api: ApiClient, other_scout: User) -> None:
    make_nomination(other_scout, status=NominationStatus.REJECTED)
    assert scout_api.get("/api/feed").json() == []


def test_feed_following_filter(scout_api: ApiClient, scout: User, other_scout: User) -> None:
    third = make_user(name="Third Scout")
    by_followed = make_nomination(other_scout)
    about_followed_player = make_nomination(third)
    make_nomination(third)
    follow(scout, user=other_scout)
    follow(scout, player=about_followed_player.player)
    body = scout_api.get("/api/feed?following=true").json()
    assert [item["relatedNominationId"] for item in body] == [
        about_followed_player.pk,
        by_followed.pk,
    ]
    assert len(scout_api.get("/api/feed").json()) == 3


def test_feed_pagination_and_query_count(scout_api: ApiClient, other_scout: User) -> None:
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert scout_api.get("/api/feed?following=true").status_code == 200
        return len(queries)

    for _ in range(3):
        make_nomination(other_scout)
    scout_api.post(f"/api/follow/user/{other_scout.pk}")
    few = count()
    for _ in range(20):
        make_nomination(other_scout)
    assert count() == few
    response = scout_api.get("/api/feed?limit=10")
    assert len(response.json()) == 10
    assert 'rel="next"' in response.headers["Link"]


def test_feed_requires_sign_in(api: ApiClient) -> None:
    assert_error(api.get("/api/feed"), 401)


# --- Following players ------------------------------------------------------------------


def test_follow_and_unfollow_a_player(scout_api: ApiClient, scout: User, other_scout: User) -> None:
    nomination = make_nomination(other_scout, name="Fola Follow")
    player_id = nomination.player_id
    status_path = f"/api/follow/status?playerId={player_id}"
    assert scout_api.get(status_path).json() == {"isFollowing": False}
    response = scout_api.post(f"/api/follow/player/{player_id}")
    assert response.status_code == 201
    assert response.json() == {"isFollowing": True}
    assert scout_api.get(status_path).json() == {"isFollowing": True}
    again = scout_api.post(f"/api/follow/player/{player_id}")
    assert again.status_code == 200 and again.json() == {"isFollowing": True}
    assert Follow.objects.filter(follower=scout).count() == 1
    activity = Activity.objects.get(activity_type="follow")
    assert activity.related_player_id == player_id
    assert activity.metadata == {"playerName": "Fola Follow"}
    assert not Notification.objects.exists()

    response = scout_api.delete("/api/follow", {"playerId": player_id})
    assert response.status_code == 200 and response.json() == {"isFollowing": False}
    assert scout_api.get(status_path).json() == {"isFollowing": False}
    assert_error(
        scout_api.delete("/api/follow", {"playerId": player_id}),
        404,
        "You are not following this player",
    )
    scout_api.post(f"/api/follow/player/{player_id}")
    assert Activity.objects.filter(activity_type="follow").count() == 1, "no repeat activity"
    assert scout_api.delete(f"/api/follow?playerId={player_id}").status_code == 200


def test_follow_unknown_or_hidden_player_is_404(scout_api: ApiClient, other_scout: User) -> None:
    assert_error(scout_api.post("/api/follow/player/999999"), 404, "Player not found")
    rejected = make_nomination(other_scout, status=NominationStatus.REJECTED)
    assert_error(scout_api.post(f"/api/follow/player/{rejected.player_id}"), 404)


def test_follow_target_must_be_exactly_one(scout_api: ApiClient) -> None:
    message = "Give exactly one of playerId, userId or clubId"
    assert_error(scout_api.get("/api/follow/status"), 400, message)
    assert_error(scout_api.get("/api/follow/status?playerId=1&userId=2"), 400, message)
    assert_error(scout_api.delete("/api/follow"), 400, message)
    assert_error(scout_api.delete("/api/follow", {}), 400, message)
    assert_error(scout_api.delete("/api/follow", {"playerId": 1, "userId": 2}), 400, message)


def test_follow_calls_require_sign_in(api: ApiClient) -> None:
    assert_error(api.get("/api/follow/status?playerId=1"), 401)
    assert_error(api.post("/api/follow/player/1"), 401)
    assert_error(api.post("/api/follow/user/1"), 401)
    assert_error(api.delete("/api/follow", {"playerId": 1}), 401)
    assert_error(api.get("/api/user/following"), 401)


# --- Following scouts -------------------------------------------------------------------


def test_follow_a_scout_notifies_once(
    scout_api: ApiClient,
    scout: User,
    other_scout: User,
    events: EventRecorder,
    django_capture_on_commit_callbacks: Any,
) -> None:
    other_scout.favorite_sport = "hockey"
    other_scout.save()
    with django_capture_on_commit_callbacks(execute=True):
        response = scout_api.post(f"/api/follow/user/{other_scout.pk}")
    assert response.status_code == 201 and response.json() == {"isFollowing": True}
    assert scout_api.get(f"/api/follow/status?userId={other_scout.pk}").json() == {
        "isFollowing": True
    }
    notification = Notification.objects.get(user=other_scout)
    assert notification.type == "new_follower"
    assert notification.message == "Sam Scout started following you."
    activity = Activity.objects.get(activity_type="follow")
    assert activity.related_user_id == other_scout.pk and activity.sport == "hockey"
    assert events.one("notification.created").user_ids == (other_scout.pk,)
    assert events.one("activity.created").sport == "hockey"

    scout_api.delete("/api/follow", {"userId": other_scout.pk})
    scout_api.post(f"/api/follow/user/{other_scout.pk}")
    assert Notification.objects.filter(user=other_scout).count() == 1


def test_new_follower_ignores_notification_preferences(
    scout_api: ApiClient, other_scout: User
) -> None:
    other_scout.settings.vote_notifications = False
    other_scout.settings.nomination_notifications = False
    other_scout.settings.save()
    scout_api.post(f"/api/follow/user/{other_scout.pk}")
    assert Notification.objects.filter(user=other_scout).count() == 1


def test_follow_scout_errors(scout_api: ApiClient, scout: User) -> None:
    body = assert_error(
        scout_api.post(f"/api/follow/user/{scout.pk}"), 400, "You cannot follow yourself"
    )
    assert body["code"] == "cannot_follow_self"
    assert_error(scout_api.post("/api/follow/user/999999"), 404, "Scout not found")
    private = make_user()
    private.settings.profile_visibility = "private"
    private.settings.save()
    assert_error(scout_api.post(f"/api/follow/user/{private.pk}"), 404, "Scout not found")
    assert_error(
        scout_api.delete("/api/follow", {"userId": private.pk}),
        404,
        "You are not following this scout",
    )


# --- Following list ---------------------------------------------------------------------


def test_following_list(scout_api: ApiClient, other_scout: User) -> None:
    football = make_nomination(other_scout)
    hockey = make_nomination(other_scout, sport="hockey")
    scout_api.post(f"/api/follow/player/{football.player_id}")
    scout_api.post(f"/api/follow/player/{hockey.player_id}")
    scout_api.post(f"/api/follow/user/{other_scout.pk}")
    body = scout_api.get("/api/user/following?sport=football").json()
    assert [item["type"] for item in body] == ["user", "player"]
    user_item, player_item = body
    assert set(user_item) == {"id", "type", "player", "user", "club", "createdAt"}
    assert user_item["player"] is None
    assert user_item["club"] is None
    assert user_item["user"] == {
        "id": other_scout.pk,
        "name": other_scout.name,
        "username": other_scout.username,
    }
    assert player_item["user"] is None
    assert player_item["player"]["id"] == football.player_id
    assert player_item["player"]["sport"] == "football"
    assert len(scout_api.get("/api/user/following").json()) == 3
    hockey_list = scout_api.get("/api/user/following?sport=hockey").json()
    assert [item["type"] for item in hockey_list] == ["user", "player"]


def test_follow_toggles_reach_only_the_users_own_group(
    scout_api: ApiClient,
    scout: User,
    other_scout: User,
    events: EventRecorder,
    django_capture_on_commit_callbacks: Any,
) -> None:
    player_id = make_nomination(other_scout).player_id
    with django_capture_on_commit_callbacks(execute=True):
        scout_api.post(f"/api/follow/player/{player_id}")
        scout_api.post(f"/api/follow/player/{player_id}")  # already following: nothing new
        scout_api.post(f"/api/follow/user/{other_scout.pk}")
        scout_api.delete("/api/follow", {"playerId": player_id})
        scout_api.delete("/api/follow", {"userId": other_scout.pk})
    own = events.of_type("follow.own")
    assert [event.data for event in own] == [
        {"playerId": player_id, "userId": None, "clubId": None, "following": True},
        {"playerId": None, "userId": other_scout.pk, "clubId": None, "following": True},
        {"playerId": player_id, "userId": None, "clubId": None, "following": False},
        {"playerId": None, "userId": other_scout.pk, "clubId": None, "following": False},
    ]
    assert all(event.groups() == [f"user.{scout.pk}"] for event in own)
