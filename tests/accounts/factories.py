"""A populated account to delete, and the checks that nothing of it is left (shared by the
accounts and moderation tests)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F

from project.accounts.models import User, UserSession, UserSettings
from project.scouting.models import Activity, Follow, Nomination, Notification, Vote
from tests.builders import follow, make_nomination, make_user, second_nomination, vote


@dataclass
class World:
    victim: User
    friend: User
    voter: User
    solo: Nomination  # the victim's, of a player no one else nominated
    shared: Nomination  # the victim's, of a player the friend nominated too
    friends: Nomination  # the friend's, which the victim voted for
    friends_shared: Nomination


def build_world() -> World:
    victim, friend, voter = make_user(), make_user(), make_user()
    solo = make_nomination(victim, sport="soccer")
    shared = make_nomination(victim, sport="hockey")
    friends_shared = second_nomination(shared.player, by=friend, sport="hockey", status="rejected")
    friends = make_nomination(friend, sport="soccer")
    vote(victim, friends)
    vote(victim, solo)  # a vote on one's own nomination
    vote(voter, solo)
    vote(voter, friends)
    vote(friend, shared)
    follow(victim, user=friend)
    follow(voter, user=victim)
    follow(victim, player=friends.player)
    follow(friend, player=solo.player)
    return World(victim, friend, voter, solo, shared, friends, friends_shared)


def assert_counters_equal_rows() -> None:
    drift = Nomination.objects.annotate(rows=Count("votes")).exclude(vote_count=F("rows"))
    assert not drift.exists(), list(drift.values("id", "vote_count", "rows"))


def assert_nothing_left_of(user_id: int) -> None:
    assert not User.objects.filter(pk=user_id).exists()
    assert not UserSettings.objects.filter(user_id=user_id).exists()
    assert not UserSession.objects.filter(user_id=user_id).exists()
    assert not Nomination.objects.filter(nominated_by_id=user_id).exists()
    assert not Vote.objects.filter(user_id=user_id).exists()
    assert not Follow.objects.filter(follower_id=user_id).exists()
    assert not Follow.objects.filter(followed_user_id=user_id).exists()
    assert not Activity.objects.filter(user_id=user_id).exists()
    assert not Activity.objects.filter(related_user_id=user_id).exists()
    assert not Notification.objects.filter(user_id=user_id).exists()
