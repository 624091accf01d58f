"""What scouting deletes when a member deletes their account."""

from __future__ import annotations

import logging

from django.db import connection
from django.db.models import (
    Exists,
    OuterRef,
    Q,
)

from project.accounts.models import User
from project.accounts.progress import progress_published
from project.common.db import Pending
from project.scouting.models import (
    Activity,
    Follow,
    Nomination,
    Notification,
    Player,
    Vote,
    VoteStatus,
)
from project.scouting.services.audience import nomination_publish, nomination_removed
from project.scouting.services.bookkeeping import Ballot, bookkeeping, bookkeeping_send
from realtime.publish import publish_summaries, publish_vote_count

logger = logging.getLogger(__name__)


def user_scouting_data_delete(user: User) -> None:
    """Everything scouting keeps about a user who deletes their account (a step of
    ``accounts.services.user_delete``, registered in ``ScoutingConfig.ready()``), keeping
    every counter equal to its rows.

    Removes their nominations (and the players no one else nominated, and the votes others
    cast on them: each such voter loses the point that vote earned), their votes (each
    voted nomination loses one vote and its nominator the 2 points that vote gave), follows
    by and of them, activity and notifications. Live clients learn
    of every nomination removed and every vote count changed, and the leaderboards and stats
    of the sports touched are recomputed.

    Lock order: the user's own nominations (by id), then the user row, then the nominations
    they voted for, then nominators' and voters' rows by id. The vote services lock a
    nomination before the users whose points they change, so this order does not deadlock
    with them; and with the user row locked no vote or nomination of theirs can be inserted
    meanwhile.
    """
    own = list(
        Nomination.objects.select_for_update()
        .filter(nominated_by=user)
        .order_by("pk")
        .values_list("pk", "sport", "player_id", "status")
    )
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk").get()

    # Their votes, and the votes others cast on their nominations, leave the counts as a removal
    # takes them out (``bookkeeping``), less what falls on the rows deleted here anyway: the
    # user and their nominations. Voided votes are out of every counter and their points
    # already (project/integrity).
    own_ids = [nomination_id for nomination_id, *_ in own]
    ballots = [
        Ballot(
            nomination_id=nomination_id,
            sport=sport,
            nominator_id=nominator_id,
            voter_id=voter_id,
            voted_at=voted_at,
            counted=counted,
        )
        for nomination_id, sport, nominator_id, voter_id, voted_at, counted in Vote.objects.filter(
            Q(user=user) | Q(nomination_id__in=own_ids), status=VoteStatus.ACTIVE
        ).values_list(
            "nomination_id",
            "nomination__sport",
            "nomination__nominated_by_id",
            "user_id",
            "created_at",
            "counted",
        )
    ]
    Vote.objects.filter(user=user).delete()
    book = bookkeeping(ballots, entering=False).without(nomination_ids=own_ids, user_ids=[user.pk])
    with Pending(connection) as pending:
        sent = bookkeeping_send(pending, book)
        counters = sent.counter_rows(pending)
        progress = sent.progress_rows(pending)
    sports = {sport for _, sport, *_ in own}
    for nomination_id, row in counters.items():
        if row is None:
            continue
        vote_count, version, sport = row
        sports.add(sport)
        publish_vote_count(
            sport=sport, nomination_id=nomination_id, vote_count=vote_count, version=version
        )
    progress_published(progress)

    player_ids = {player_id for _, _, player_id, _ in own}
    nominated_by_others = Nomination.objects.filter(player=OuterRef("pk")).exclude(
        nominated_by=user
    )
    Player.objects.filter(pk__in=player_ids).exclude(Exists(nominated_by_others)).delete()
    Nomination.objects.filter(nominated_by=user).delete()
    Follow.objects.filter(Q(follower=user) | Q(followed_user=user)).delete()
    Activity.objects.filter(Q(user=user) | Q(related_user=user)).delete()
    Notification.objects.filter(user=user).delete()
    for nomination_id, sport, _, status in own:
        gone = Nomination(id=nomination_id, sport=sport, status=status, nominated_by_id=user.pk)
        nomination_publish(nomination_removed(gone, deleted=True))
    for sport in sorted(sports):
        publish_summaries(sport)
