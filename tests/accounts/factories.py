"""Nominations and votes made through the scouting services, so counters and points are the
ones the product keeps, and a populated account to delete (shared by the accounts and
moderation tests)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from django.db.models import Count, F

from project.accounts.models import User, UserSession, UserSettings
from project.scouting.models import Activity, Follow, Nomination, Notification, Vote
from project.scouting.services.nominations import nomination_create
from project.scouting.services.votes import vote_cast
from tests.helpers import make_user

_names = itertools.count(1)


def nominate(user: User, *, sport: str = "soccer", name: str | None = None) -> Nomination:
    return nomination_create(
        user=user,
        name=name or f"Player Number{next(_names)}",
        age=15,
        graduation_year=None,
        position="Wing",
        nationality="Ireland",
        club="Rovers",
        sport=sport,
        skills="Quick feet",
    )


def vote(user: User, nomination: Nomination) -> None:
    vote_cast(user=user, nomination_id=nomination.pk)


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
    solo = nominate(victim, sport="soccer")
    shared = nominate(victim, sport="hockey")
    friends_shared = Nomination.objects.create(
        player=shared.player, nominated_by=friend, sport="hockey", status="rejected"
    )
    friends = nominate(friend, sport="soccer")
    vote(victim, friends)
    vote(victim, solo)  # a vote on one's own nomination
    vote(voter, solo)
    vote(voter, friends)
    vote(friend, shared)
    Follow.objects.create(follower=victim, followed_user=friend)
    Follow.objects.create(follower=voter, followed_user=victim)
    Follow.objects.create(follower=victim, followed_player=friends.player)
    Follow.objects.create(follower=friend, followed_player=solo.player)
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
