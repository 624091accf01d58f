"""Quests: opt-in, advanced by votes, follows and shares, completed once with their points,
notification and activity; periods in the member's time zone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine
from django.utils import timezone

from project.accounts.models import Role, User
from project.engagement.models import EngagementSettings, QuestType, UserQuest
from project.engagement.services.quests import quest_step, quests_list
from project.scouting.models import Activity, Club, Notification
from tests.builders import make_nomination, make_user, vote
from tests.helpers import ApiClient, EventRecorder

pytestmark = pytest.mark.django_db(transaction=True)


def quest(client: ApiClient, quest_type: str) -> dict[str, object]:
    body = client.get("/api/quests").json()
    return next(q for q in body["quests"] if q["type"] == quest_type)


def test_quests_are_opt_in(db: None) -> None:
    user = make_user(birth_year=1990)
    client = ApiClient().login(user)
    assert client.get("/api/quests").json()["enabled"] is False
    client.post("/api/votes", {"nominationId": make_nomination().pk})
    assert not UserQuest.objects.filter(user=user).exists()
    assert quest(client, "daily_vote")["progress"] == 0


def test_daily_vote_counts_only_a_nomination_that_needs_votes(
    adult: User, events: EventRecorder
) -> None:
    client = ApiClient().login(adult)
    crowded = make_nomination()
    for _ in range(5):
        vote(make_user(), crowded)
    points = User.objects.get(pk=adult.pk).points
    assert client.post("/api/votes", {"nominationId": crowded.pk}).status_code == 201
    assert quest(client, "daily_vote")["progress"] == 0
    assert quest(client, "weekly_votes")["progress"] == 1

    events.clear()
    needy = make_nomination()
    assert client.post("/api/votes", {"nominationId": needy.pk}).status_code == 201
    daily = quest(client, "daily_vote")
    assert daily["progress"] == 1
    assert daily["completed"] is True
    # Two votes (a point each) and the quest's reward.
    assert User.objects.get(pk=adult.pk).points == points + 2 + 5
    assert Notification.objects.filter(user=adult, type="quest_completed").count() == 1
    message = Notification.objects.get(user=adult, type="quest_completed").message
    assert message == 'Quest completed: "Vote where it is needed". You earned 5 points.'
    assert Activity.objects.filter(user=adult, activity_type="quest_completed").count() == 1
    events.settle()
    moved = events.of_type("quest.progress")
    assert moved, events.types()
    assert all(e.user_ids == (adult.pk,) and e.sport is None and not e.admins for e in moved)
    assert {e.data["type"] for e in moved} == {"daily_vote", "weekly_votes"}

    # A second needy vote the same day: already completed, nothing more.
    client.post("/api/votes", {"nominationId": make_nomination().pk})
    assert Notification.objects.filter(user=adult, type="quest_completed").count() == 1


def test_weekly_votes_counts_different_nominations_once(adult: User) -> None:
    client = ApiClient().login(adult)
    nomination = make_nomination()
    client.post("/api/votes", {"nominationId": nomination.pk})
    client.delete(f"/api/votes/{nomination.pk}")
    client.post("/api/votes", {"nominationId": nomination.pk})
    assert quest(client, "weekly_votes")["progress"] == 1
    for _ in range(9):
        client.post("/api/votes", {"nominationId": make_nomination().pk})
    weekly = quest(client, "weekly_votes")
    assert (weekly["progress"], weekly["target"], weekly["completed"]) == (10, 10, True)


def test_follow_players_counts_adult_scouts_not_children_nor_players(adult: User) -> None:
    client = ApiClient().login(adult)
    young = make_user(birth_year=timezone.localdate().year - 15)
    player = make_user(role=Role.PLAYER)
    for target in (young, player):
        assert client.post(f"/api/follow/user/{target.pk}").status_code == 201
    assert client.post(f"/api/follow/player/{make_nomination().player_id}").status_code == 201
    assert quest(client, "follow_players")["progress"] == 0
    for _ in range(3):
        assert client.post(f"/api/follow/user/{make_user().pk}").status_code == 201
    follows = quest(client, "follow_players")
    assert (follows["progress"], follows["completed"], follows["expiresAt"]) == (3, True, None)


def test_following_clubs_counts_toward_follow_players(adult: User) -> None:
    client = ApiClient().login(adult)
    for name in ("FC Porto", "Ajax", "Benfica"):
        club = Club.objects.create(name=name, sport="soccer")
        assert client.post(f"/api/follow/club/{club.pk}").status_code == 201
    follows = quest(client, "follow_players")
    assert (follows["progress"], follows["completed"]) == (3, True)


def test_share_profile_once(adult: User) -> None:
    client = ApiClient().login(adult)
    for _ in range(3):
        assert client.post("/api/quests/share-profile").status_code == 204
    assert quest(client, "share_profile")["completed"] is True
    assert Notification.objects.filter(user=adult, type="quest_completed").count() == 1


def test_expiry_follows_the_members_time_zone_across_a_dst_change(db: None) -> None:
    user = make_user(birth_year=1990, time_zone="Europe/Paris")
    EngagementSettings.objects.create(user=user, quests=True)
    # Sunday 29 March 2026, 00:30 in Paris (still CET, +01:00): clocks go forward at 02:00.
    with time_machine.travel(datetime(2026, 3, 28, 23, 30, tzinfo=UTC), tick=False):
        listed = {q.type: q for q in quests_list(user=user)}
        # The day ends at midnight Paris time, now CEST: a 23-hour day.
        assert str(listed["daily_vote"].expires_at) == "2026-03-30 00:00:00+02:00"
        # The week (Monday 23 March to Sunday 29) ends on Monday 30 at 00:00 Paris.
        assert str(listed["weekly_votes"].expires_at) == "2026-03-30 00:00:00+02:00"
        quest_step(user=user, quest_type=QuestType.WEEKLY_VOTES, key="1")
    # 23:30 UTC on the 29th is 01:30 on Monday 30 in Paris: a new day and a new week there,
    # though UTC still reads Sunday.
    with time_machine.travel(datetime(2026, 3, 29, 23, 30, tzinfo=UTC), tick=False):
        listed = {q.type: q for q in quests_list(user=user)}
        assert listed["weekly_votes"].progress == 0
        assert str(listed["daily_vote"].expires_at) == "2026-03-31 00:00:00+02:00"
    assert list(UserQuest.objects.filter(user=user).values_list("period_start", flat=True)) == [
        datetime(2026, 3, 23).date()
    ]


def test_the_api_answers_expiry_with_the_members_offset(db: None) -> None:
    user = make_user(birth_year=1990, time_zone="America/New_York")
    client = ApiClient().login(user)
    with time_machine.travel(datetime(2026, 7, 1, 12, 0, tzinfo=UTC), tick=False):
        body = client.get("/api/quests").json()
    assert body["timeZone"] == "America/New_York"
    daily = next(q for q in body["quests"] if q["type"] == "daily_vote")
    assert daily["expiresAt"].startswith("2026-07-02T00:00:00") and daily["expiresAt"].endswith(
        "-04:00"
    )
