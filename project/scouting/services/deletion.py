"""What scouting deletes when a member deletes their account."""

from __future__ import annotations

import logging
from collections import Counter

from django.db.models import (
    Exists,
    OuterRef,
    Q,
)

from project.accounts.models import User
from project.accounts.progress import user_points_add
from project.scouting.models import (
    Activity,
    Follow,
    Nomination,
    Notification,
    Player,
    Vote,
    VoteStatus,
)
from project.scouting.points import (
    VOTE_POINTS,
    VOTE_RECEIVED_POINTS,
)
from project.scouting.services.votes import vote_counters_withdraw
from realtime.publish import Event, publish, publish_summaries

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
        .values_list("pk", "sport", "player_id")
    )
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk").get()

    # Voided votes are out of every counter and their points already (project/integrity).
    voted = list(
        Vote.objects.filter(user=user, status=VoteStatus.ACTIVE)
        .exclude(nomination__nominated_by=user)
        .order_by("nomination_id")
        .values_list("nomination_id", "nomination__nominated_by_id", "created_at", "counted")
    )
    Vote.objects.filter(user=user).delete()
    sports = {sport for _, sport, _ in own}
    for nomination_id, _, voted_at, counted in voted:
        sport = vote_counters_withdraw(
            voter=user, nomination_id=nomination_id, voted_at=voted_at, counted=counted
        )
        if sport is not None:
            sports.add(sport)
    # Points given for votes that no longer exist are taken back: each nominator they voted
    # for loses the 2 a vote gave, and each voter on the user's own nominations (deleted with
    # them below) the 1 point their vote earned. One update per user, in id order.
    deltas: Counter[int] = Counter()
    for _, nominator_id, _, counted in voted:
        if counted:  # an untrusted vote gave its nominator nothing
            deltas[nominator_id] -= VOTE_RECEIVED_POINTS
    own_ids = [nomination_id for nomination_id, _, _ in own]
    for voter_id in (
        Vote.objects.filter(nomination_id__in=own_ids, status=VoteStatus.ACTIVE)
        .exclude(user=user)
        .values_list("user_id", flat=True)
    ):
        deltas[voter_id] -= VOTE_POINTS
    for changed_id in sorted(deltas):
        if deltas[changed_id]:
            user_points_add(user_id=changed_id, delta=deltas[changed_id])

    player_ids = {player_id for _, _, player_id in own}
    nominated_by_others = Nomination.objects.filter(player=OuterRef("pk")).exclude(
        nominated_by=user
    )
    Player.objects.filter(pk__in=player_ids).exclude(Exists(nominated_by_others)).delete()
    Nomination.objects.filter(nominated_by=user).delete()
    Follow.objects.filter(Q(follower=user) | Q(followed_user=user)).delete()
    Activity.objects.filter(Q(user=user) | Q(related_user=user)).delete()
    Notification.objects.filter(user=user).delete()
    for nomination_id, sport, _ in own:
        publish(Event("nomination.removed", {"id": nomination_id}, sport=sport, admins=True))
    for sport in sorted(sports):
        publish_summaries(sport)
