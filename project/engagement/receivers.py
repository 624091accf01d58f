"""What engagement hangs off the core's hooks: a vote, a nomination and a follow move the
member's quests and streak, a registration records its referral. Each runs after the write
committed (or, for a registration, in its transaction) and never fails the write: an error is
logged and the member's quest or streak simply does not move."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import IntegrityError, transaction

from project.accounts.ages import AgeBand, age_band_of
from project.accounts.models import Role, User
from project.accounts.services import Registered, register_user_registered
from project.engagement import gate
from project.engagement.clock import local_day
from project.engagement.models import ActiveDay, QuestType
from project.engagement.services import quests, referrals, streaks
from project.scouting.hooks import (
    CastVote,
    NewFollow,
    PlayerChange,
    register_follow_created,
    register_player_changed,
    register_vote_committed,
)
from project.scouting.models import Nomination
from project.scouting.selectors import NEEDS_VOTES_BELOW

logger = logging.getLogger(__name__)


def _safely(work: Callable[[], object]) -> None:
    try:
        work()
    except Exception:
        logger.exception("engagement: a quest or streak did not move")


def _active(user: User) -> None:
    """The member voted or nominated today: their active day, and their streak."""
    if not gate.engagement_allowed(user):
        return
    try:
        with transaction.atomic():
            ActiveDay.objects.get_or_create(user_id=user.pk, day=local_day(user))
    except IntegrityError:
        pass
    streaks.streak_touch(user=user)


def needs_votes(cast: CastVote) -> bool:
    """The nomination needed votes when this one was cast: it had fewer than
    NEEDS_VOTES_BELOW (the "needs votes" list's bar) before it."""
    return cast.nomination.vote_count - 1 < NEEDS_VOTES_BELOW


def on_vote_committed(cast: CastVote, voter_id: int) -> None:
    def work() -> None:
        user = User.objects.filter(pk=voter_id).first()
        if user is None:
            return
        _active(user)
        key = str(cast.nomination.pk)
        if needs_votes(cast):
            quests.quest_step(user=user, quest_type=QuestType.DAILY_VOTE, key=key)
        quests.quest_step(user=user, quest_type=QuestType.WEEKLY_VOTES, key=key)

    _safely(work)


def on_player_changed(change: PlayerChange) -> None:
    if not change.created:
        return
    nominator_ids = set(
        Nomination.objects.filter(pk__in=change.nomination_ids).values_list(
            "nominated_by_id", flat=True
        )
    )

    def work() -> None:
        for user in User.objects.filter(pk__in=nominator_ids):
            _active(user)

    transaction.on_commit(lambda: _safely(work))


def follow_counts(new: NewFollow) -> bool:
    """A follow counts toward follow_players when it is of a club, or of an adult scout (a
    known adult who is no player's account): never of a child or a player."""
    if new.followed_club_id is not None:
        return True
    if new.followed_user_id is None:
        return False
    followed = User.objects.filter(pk=new.followed_user_id).first()
    return (
        followed is not None
        and followed.role != Role.PLAYER
        and age_band_of(followed.birth_year) == AgeBand.ADULT
    )


def on_follow_created(new: NewFollow) -> None:
    if not follow_counts(new):
        return
    key = f"club:{new.followed_club_id}" if new.followed_club_id else f"user:{new.followed_user_id}"
    follower = new.follower
    transaction.on_commit(
        lambda: _safely(
            lambda: quests.quest_step(user=follower, quest_type=QuestType.FOLLOW_PLAYERS, key=key)
        )
    )


def on_registered(registered: Registered) -> None:
    if registered.referral_code:
        referrals.referral_record(
            user=registered.user, code=registered.referral_code, address=registered.address
        )


def register() -> None:
    register_vote_committed(on_vote_committed)
    register_player_changed(on_player_changed)
    register_follow_created(on_follow_created)
    register_user_registered(on_registered)
