"""Reads of the scouting app. Every list is one query (plus one for a count where a call
needs it), whatever its length: related rows come by join, ``hasVoted`` by one EXISTS
subquery, leaderboards and stats from the denormalized ``vote_count`` and ``sport`` columns.

The ``*_data`` functions and ``leaderboard_players`` / ``leaderboard_scouts`` /
``sport_stats`` return JSON-ready dicts with camelCase keys, for the live layer's events.
"""

from __future__ import annotations

import json
from typing import Any

from django.db.models import Exists, OuterRef, Q, QuerySet
from ninja import Schema
from ninja.responses import NinjaJSONEncoder

from project.accounts.models import User
from project.accounts.selectors import scout_get
from project.common.db import reading
from project.common.errors import NotFound, PermissionDenied, ValidationFailed
from project.common.text import fold
from project.scouting.models import (
    LIVE_STATUSES,
    Activity,
    Follow,
    Nomination,
    NominationStatus,
    Notification,
    Player,
    Vote,
)
from project.scouting.schemas import (
    NominationEventOut,
)

NEEDS_VOTES_BELOW = 5
LEADERBOARD_SIZE = 10
RECENT_MAX = 50
NOMINATION_NOT_FOUND = "Nomination not found"
PLAYER_NOT_FOUND = "Player not found"
ADMIN_REQUIRED = "Admin access required"
ONE_FOLLOW_TARGET = "Give exactly one of playerId, userId or clubId"

NEWEST_FIRST = ("-created_at", "-id")
MOST_VOTED_FIRST = ("-vote_count", "id")  # ties: the oldest nomination (ids rise with time)

_NOMINATION_FIELDS = (
    "id",
    "sport",
    "status",
    "vote_count",
    "comment_count",
    "version",
    "created_at",
    "player__id",
    "player__name",
    "player__age",
    "player__graduation_year",
    "player__position",
    "player__nationality",
    "player__club",
    "player__sport",
    "player__skills",
    "player__video_link",
    "player__verified",
    "player__claimed_by",
    # The claimant's controls (project/claims): who manages the page, what it hides.
    "player__controls__id",
    "player__controls__player",
    "player__controls__relationship",
    "player__controls__birth_year",
    "player__controls__hide_club",
    "player__controls__hide_nationality",
    "player__controls__share_card",
    "player__controls__voting_open",
    "player__controls__comments_open",
    "player__controls__indexable",
    "nominated_by__id",
    "nominated_by__name",
    "nominated_by__username",
)


def _wire(value: Schema) -> dict[str, Any]:
    """The dict exactly as the REST responses encode it (same date format), for events."""
    encoded = json.dumps(value.model_dump(by_alias=True), cls=NinjaJSONEncoder)
    data: dict[str, Any] = json.loads(encoded)
    return data


# --- Visibility ---------------------------------------------------------------------------


def nomination_visibility(user: User) -> Q:
    """Rejected and removed nominations are seen only by their nominator and by admins;
    hidden ones (a taken-down player) only by admins."""
    if user.is_admin:
        return Q()
    return Q(status__in=LIVE_STATUSES) | (
        Q(nominated_by_id=user.pk) & ~Q(status=NominationStatus.HIDDEN)
    )


# --- Nominations --------------------------------------------------------------------------


def nomination_queryset(*, user: User | None = None) -> QuerySet[Nomination]:
    """Nominations with their player and nominator joined and, for ``user``, ``has_voted``."""
    queryset = Nomination.objects.select_related("player", "player__controls", "nominated_by").only(
        *_NOMINATION_FIELDS
    )
    if user is not None:
        queryset = queryset.annotate(
            has_voted=Exists(Vote.objects.filter(nomination_id=OuterRef("pk"), user_id=user.pk))
        )
    return queryset


def _search(queryset: QuerySet[Nomination], text: str) -> QuerySet[Nomination]:
    """Nominations whose player name, position, nationality, club or nominator name holds the
    text, folded alike (``fold``: case, accents and punctuation aside) on every database: the
    folded text is looked for in the keys the services keep (``Player.search_key``,
    ``User.name_key``). Text with no letter, digit or symbol (an emoji is one) matches
    nothing."""
    if not text.strip():
        return queryset
    folded = fold(text)
    if not folded:
        return queryset.none()
    return queryset.filter(
        Q(player__search_key__contains=folded) | Q(nominated_by__name_key__contains=folded)
    )


def nomination_list(
    *, user: User, sport: str | None = None, q: str | None = None, status: str | None = None
) -> QuerySet[Nomination]:
    """The community list (pending + approved), or one status (admins only, 403 for others).
    Unordered: paginate it in ``NEWEST_FIRST``."""
    if status is not None and not user.is_admin:
        raise PermissionDenied(ADMIN_REQUIRED, code="admin_required")
    queryset = nomination_queryset(user=user)
    if status is None:
        queryset = queryset.filter(status__in=LIVE_STATUSES)
    else:
        queryset = queryset.filter(status=status)
    if sport:
        queryset = queryset.filter(sport=sport)
    if q:
        queryset = _search(queryset, q)
    return queryset


def nomination_recent(*, user: User, sport: str | None, limit: int) -> list[Nomination]:
    queryset = nomination_queryset(user=user).filter(status__in=LIVE_STATUSES)
    if sport:
        queryset = queryset.filter(sport=sport)
    return list(queryset.order_by(*NEWEST_FIRST)[: max(1, min(limit, RECENT_MAX))])


def nomination_needing_votes(*, user: User, sport: str | None) -> QuerySet[Nomination]:
    """Live nominations with fewer than 5 votes (served by the partial index
    ``nom_needing_votes``). Unordered: paginate it in ``NEWEST_FIRST``."""
    queryset = nomination_queryset(user=user).filter(
        status__in=LIVE_STATUSES, vote_count__lt=NEEDS_VOTES_BELOW
    )
    if sport:
        queryset = queryset.filter(sport=sport)
    return queryset


def nomination_get(*, user: User, nomination_id: int) -> Nomination:
    nomination = (
        nomination_queryset(user=user).filter(nomination_visibility(user), pk=nomination_id).first()
    )
    if nomination is None:
        raise NotFound(NOMINATION_NOT_FOUND)
    return nomination


def user_nomination_list(*, viewer: User, user_id: int) -> QuerySet[Nomination]:
    """A scout's nominations: every status for the scout and admins, else the live ones.
    404 "Scout not found" where the scout's profile is (privacy rules of accounts).
    Unordered: paginate it in ``NEWEST_FIRST``."""
    target = scout_get(viewer=viewer, user_id=user_id)
    queryset = nomination_queryset(user=viewer).filter(nominated_by_id=target.pk)
    if viewer.pk != target.pk and not viewer.is_admin:
        queryset = queryset.filter(status__in=LIVE_STATUSES)
    elif not viewer.is_admin:
        queryset = queryset.exclude(status=NominationStatus.HIDDEN)
    return queryset


def nomination_data(nomination: Nomination) -> dict[str, Any]:
    """The nomination read shape without hasVoted, as pushed in nomination.* events."""
    return _wire(NominationEventOut.from_orm(nomination))


def nomination_data_by_id(nomination_id: int) -> dict[str, Any] | None:
    nomination = nomination_queryset().filter(pk=nomination_id).first()
    return None if nomination is None else nomination_data(nomination)


# --- Leaderboards and stats ---------------------------------------------------------------


def _live(sport: str | None) -> QuerySet[Nomination]:
    queryset = Nomination.objects.filter(status__in=LIVE_STATUSES)
    return queryset.filter(sport=sport) if sport else queryset


def leaderboard_player_nominations(
    *, sport: str | None, user: User | None = None
) -> list[Nomination]:
    queryset = nomination_queryset(user=user).filter(status__in=LIVE_STATUSES)
    if sport:
        queryset = queryset.filter(sport=sport)
    return list(queryset.order_by(*MOST_VOTED_FIRST)[:LEADERBOARD_SIZE])


def leaderboard_players(*, sport: str | None) -> list[dict[str, Any]]:
    """Top 10 live nominations of the sport by votes, then oldest first (read shape without
    hasVoted)."""
    return [nomination_data(n) for n in leaderboard_player_nominations(sport=sport)]


# The scouts' board and the stats are read by hand: the live layer reads them for a sport up
# to four times a second with its boards (realtime/summaries.py), and compiling the ORM's
# aggregates cost more CPU than PostgreSQL took to run them.
_SCOUTS_SQL = (
    "SELECT n.nominated_by_id, u.name, u.username, COUNT(*) AS nominations "
    "FROM {nominations} n JOIN {users} u ON u.id = n.nominated_by_id "
    "WHERE n.status IN ({live}){in_sport} "
    "GROUP BY n.nominated_by_id, u.name, u.username "
    "ORDER BY nominations DESC, n.nominated_by_id LIMIT %s"
)
_STATS_SQL = (
    "SELECT COUNT(*), COALESCE(SUM(vote_count), 0), COUNT(CASE WHEN vote_count < %s THEN 1 END) "
    "FROM {nominations} WHERE status IN ({live}){in_sport}"
)


def _live_rows(
    template: str,
    sport: str | None,
    *,
    sport_column: str,
    before: tuple[Any, ...] = (),
    after: tuple[Any, ...] = (),
    **tables: type[Any],
) -> list[tuple[Any, ...]]:
    """The rows of ``template`` over the live nominations (of ``sport``, if given), its
    parameters ``before`` and ``after`` those of the filter."""
    connection = reading(Nomination)
    quote = connection.ops.quote_name
    sql = template.format(
        live=", ".join(["%s"] * len(LIVE_STATUSES)),
        in_sport=f" AND {sport_column} = %s" if sport else "",
        **{name: quote(model._meta.db_table) for name, model in tables.items()},
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*before, *LIVE_STATUSES, *([sport] if sport else []), *after])
        return cursor.fetchall()


def leaderboard_scouts(*, sport: str | None) -> list[dict[str, Any]]:
    """Top 10 scouts by live nominations in the sport: [{id, name, username,
    nominationCount}], ties by the earlier account."""
    rows = _live_rows(
        _SCOUTS_SQL,
        sport,
        sport_column="n.sport",
        after=(LEADERBOARD_SIZE,),
        nominations=Nomination,
        users=User,
    )
    return [
        {"id": pk, "name": name, "username": username, "nominationCount": count}
        for pk, name, username, count in rows
    ]


def sport_stats(*, sport: str | None) -> dict[str, int]:
    """{nominations, votes, nominationsNeedingVotes} over the live nominations of the sport;
    votes is the sum of their ``vote_count`` column (no vote rows are counted)."""
    ((nominations, votes, needing),) = _live_rows(
        _STATS_SQL,
        sport,
        sport_column="sport",
        before=(NEEDS_VOTES_BELOW,),
        nominations=Nomination,
    )
    return {
        "nominations": nominations,
        "votes": int(votes),
        "nominationsNeedingVotes": needing,
    }


# --- Players ------------------------------------------------------------------------------


def player_get_visible(*, user: User, player_id: int) -> Player:
    """A player is seen when one of its nominations is (none of a taken-down player's is,
    but by admins)."""
    seen = Nomination.objects.filter(nomination_visibility(user), player_id=OuterRef("pk"))
    player = Player.objects.filter(Exists(seen), pk=player_id).first()
    if player is None:
        raise NotFound(PLAYER_NOT_FOUND)
    return player


# --- Feed and follows ---------------------------------------------------------------------


def activity_queryset() -> QuerySet[Activity]:
    return Activity.objects.select_related("user").only(
        "id",
        "user_id",
        "activity_type",
        "related_user_id",
        "related_player_id",
        "related_nomination_id",
        "metadata",
        "created_at",
        "sport",
        "user__id",
        "user__name",
        "user__username",
    )


def feed_list(*, user: User, sport: str | None, following: bool = False) -> QuerySet[Activity]:
    """Community activity of the sport; activity about a nomination that is not live or
    about a taken-down player is left out. Unordered: paginate it in ``NEWEST_FIRST``."""
    queryset = activity_queryset().filter(
        Q(related_nomination__isnull=True) | Q(related_nomination__status__in=LIVE_STATUSES),
        Q(related_player__isnull=True) | Q(related_player__hidden_at__isnull=True),
    )
    if sport:
        queryset = queryset.filter(sport=sport)
    if following:
        mine = Follow.objects.filter(follower_id=user.pk)
        queryset = queryset.filter(
            Q(user_id__in=mine.filter(followed_user__isnull=False).values("followed_user_id"))
            | Q(
                related_player_id__in=mine.filter(followed_player__isnull=False).values(
                    "followed_player_id"
                )
            )
        )
    return queryset


def activity_data(activity: Activity) -> dict[str, Any]:
    """``_wire(ActivityOut.from_orm(activity))`` written out: every vote makes one, and the
    schema's validation of it is a noticeable share of a vote's CPU
    (docs/decisions.md#live-payloads-by-hand). A test holds the two equal."""
    user = activity.user
    return {
        "id": activity.pk,
        "userId": activity.user_id,
        "activityType": activity.activity_type,
        "relatedUserId": activity.related_user_id,
        "relatedPlayerId": activity.related_player_id,
        "relatedNominationId": activity.related_nomination_id,
        "metadata": json.loads(json.dumps(activity.metadata, cls=NinjaJSONEncoder)),
        "createdAt": _ENCODER.default(activity.created_at),
        "user": {"id": user.pk, "name": user.name, "username": user.username},
    }


_ENCODER = NinjaJSONEncoder()


def follow_target_check(
    *, player_id: int | None, user_id: int | None, club_id: int | None = None
) -> None:
    """Exactly one of the targets (400 otherwise)."""
    if [player_id, user_id, club_id].count(None) != 2:
        raise ValidationFailed(ONE_FOLLOW_TARGET, code="one_follow_target")


def follow_exists(
    *,
    user: User,
    player_id: int | None = None,
    user_id: int | None = None,
    club_id: int | None = None,
) -> bool:
    follow_target_check(player_id=player_id, user_id=user_id, club_id=club_id)
    follows = Follow.objects.filter(follower_id=user.pk)
    if player_id is not None:
        return follows.filter(followed_player_id=player_id).exists()
    if club_id is not None:
        return follows.filter(followed_club_id=club_id).exists()
    return follows.filter(followed_user_id=user_id).exists()


def following_list(*, user: User, sport: str | None) -> QuerySet[Follow]:
    """What the user follows: players and clubs of the sport and every followed user.
    Unordered: paginate it in ``NEWEST_FIRST``."""
    queryset = Follow.objects.filter(follower_id=user.pk).select_related(
        "followed_player", "followed_player__controls", "followed_user", "followed_club"
    )
    players = Q(followed_player__isnull=False, followed_player__hidden_at__isnull=True)
    clubs = Q(followed_club__isnull=False)
    if sport:
        players &= Q(followed_player__sport=sport)
        clubs &= Q(followed_club__sport=sport)
    return queryset.filter(players | clubs | Q(followed_user__isnull=False)).only(
        "id",
        "created_at",
        "followed_player",
        "followed_user__id",
        "followed_user__name",
        "followed_user__username",
        "followed_club__id",
        "followed_club__name",
        "followed_club__sport",
        "followed_club__location",
    )


# --- Notifications ------------------------------------------------------------------------


def notification_list(*, user: User) -> QuerySet[Notification]:
    """Unordered: paginate it in ``NEWEST_FIRST``."""
    return Notification.objects.filter(user_id=user.pk)


def notification_unread_count(*, user: User) -> int:
    return Notification.objects.filter(user_id=user.pk, read=False).count()


def notification_data(notification: Notification) -> dict[str, Any]:
    """``_wire(NotificationOut.from_orm(notification))`` written out, as ``activity_data``
    (a vote on someone else's nomination makes one). A test holds the two equal."""
    return {
        "id": notification.pk,
        "message": notification.message,
        "type": notification.type,
        "read": notification.read,
        "createdAt": _ENCODER.default(notification.created_at),
        "relatedNominationId": notification.related_nomination_id,
    }
