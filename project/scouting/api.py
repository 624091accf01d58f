"""The scouting calls: nominations, players, votes, leaderboards, stats, feed, follows and
notifications. Each operation parses, calls one service or selector and shapes the output."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest
from ninja import Body, Query, Status
from ninja.responses import codes_4xx

from project.accounts.auth import current_user
from project.accounts.throttle import client_ip
from project.common import metrics
from project.common.addresses import address_key, prefix_key
from project.common.budgets import budget_for
from project.common.pagination import Pager, paginate
from project.common.router import Router
from project.common.schemas import ErrorOut
from project.scouting import hooks, selectors
from project.scouting.boards import reads as board_reads
from project.scouting.boards.schemas import (
    BoardEntryOut,
    BoardQuery,
    HistoryQuery,
    WeekOut,
    WeekWinnersOut,
)
from project.scouting.schemas import (
    ActivityOut,
    DuplicateNominationOut,
    FeedQuery,
    FollowingOut,
    FollowStatusOut,
    FollowTargetIn,
    NominationIn,
    NominationListQuery,
    NominationOut,
    NotificationsOut,
    NotificationsReadIn,
    PlayerOut,
    PlayerUpdateIn,
    RecentQuery,
    ScoutRankOut,
    SportQuery,
    StatsOut,
    UnreadCountOut,
    VoteIn,
    VoteOut,
)
from project.scouting.services import activity, follows, nominations, votes

router = Router()

PAGED = (
    " Paginated: `limit` (default 50, at most 200) and `cursor`; the next page's address is "
    'in the `Link: <url>; rel="next"` header (absent on the last page).'
)
BUDGETED = (
    " 429 `throttled` with `Retry-After` (seconds) when the caller's budget for it is spent "
    "(`BUDGET_<WHAT>_PER_<WINDOW>`, sliding windows); nothing is written. Only what is "
    "written spends the budget: a refused call does not."
)


# --- Nominations --------------------------------------------------------------------------


@router.post(
    "/nominations",
    response={201: NominationOut, codes_4xx: ErrorOut, 409: DuplicateNominationOut},
    tags=["nominations"],
    summary="Nominate a player",
    description="Creates the player and its pending nomination (+10 points). A blank age "
    "needs a graduation year (else 400 with fields.age \"Enter the player's age or graduation "
    'year"). 409 `duplicate_nomination` with `nominationId` when the same player (name, sport, '
    "birth year, club) already has a pending or approved nomination." + BUDGETED,
)
def nomination_create(request: HttpRequest, payload: NominationIn) -> Status[Any]:
    user = current_user(request)
    with (
        budget_for("NOMINATIONS", user.pk, "DAY"),
        budget_for("IP_NOMINATIONS", address_key(client_ip(request)), "HOUR"),
    ):
        return Status(201, nominations.nomination_create(user=user, **payload.dict()))


@router.get(
    "/nominations",
    response={200: list[NominationOut], codes_4xx: ErrorOut},
    tags=["nominations"],
    summary="Community nominations (pending and approved), newest first",
    description="`status` (one status instead of the live list) is for admins only: 403 for "
    "others." + PAGED,
)
@paginate(ordering=selectors.NEWEST_FIRST)
def nomination_list(request: HttpRequest, filters: Query[NominationListQuery]) -> QuerySet:
    return selectors.nomination_list(user=current_user(request), **filters.dict())


@router.get(
    "/nominations/recent",
    response={200: list[NominationOut], codes_4xx: ErrorOut},
    tags=["nominations"],
    summary="The newest community nominations (default 6, at most 50)",
)
def nomination_recent(request: HttpRequest, query: Query[RecentQuery]) -> list:
    return selectors.nomination_recent(
        user=current_user(request), sport=query.sport, limit=query.limit
    )


@router.get(
    "/nominations/needing-votes",
    response={200: list[NominationOut], codes_4xx: ErrorOut},
    tags=["nominations"],
    summary="Community nominations with fewer than 5 votes, newest first",
    description=PAGED.strip(),
)
@paginate(ordering=selectors.NEWEST_FIRST)
def nomination_needing_votes(request: HttpRequest, query: Query[SportQuery]) -> QuerySet:
    return selectors.nomination_needing_votes(user=current_user(request), sport=query.sport)


@router.get(
    "/nominations/{int:nomination_id}",
    response={200: NominationOut, codes_4xx: ErrorOut},
    tags=["nominations"],
    summary="One nomination",
    description="404 when it does not exist or is rejected and the caller is neither its "
    "nominator nor an admin.",
)
def nomination_detail(request: HttpRequest, nomination_id: int) -> Any:
    return selectors.nomination_get(user=current_user(request), nomination_id=nomination_id)


@router.get(
    "/users/{int:user_id}/nominations",
    response={200: list[NominationOut], codes_4xx: ErrorOut},
    tags=["nominations"],
    summary="A scout's nominations, newest first",
    description="Every status for oneself and admins, pending and approved for others. 404 "
    '"Scout not found" for an unknown user or a profile the caller may not see.' + PAGED,
)
@paginate(ordering=selectors.NEWEST_FIRST)
def user_nomination_list(request: HttpRequest, user_id: int) -> QuerySet:
    return selectors.user_nomination_list(viewer=current_user(request), user_id=user_id)


@router.put(
    "/players/{int:player_id}",
    response={200: PlayerOut, codes_4xx: ErrorOut, 409: DuplicateNominationOut},
    tags=["players"],
    summary="Edit a player (its nominator or an admin)",
    description="Omitted `skills` or `videoLink` stay as they are; a blank or omitted age or "
    "graduation year is cleared (one of them is required)." + BUDGETED,
)
def player_update(request: HttpRequest, player_id: int, payload: PlayerUpdateIn) -> Any:
    user = current_user(request)
    with budget_for("PLAYER_EDITS", user.pk, "MINUTE"):
        return nominations.player_update(user=user, player_id=player_id, **payload.dict())


# --- Votes --------------------------------------------------------------------------------


def _vote_state(nomination: Any, *, has_voted: bool) -> dict[str, Any]:
    return {
        "nomination_id": nomination.pk,
        "vote_count": nomination.vote_count,
        "has_voted": has_voted,
        "version": nomination.version,
    }


@router.post(
    "/votes",
    response={201: VoteOut, codes_4xx: ErrorOut},
    tags=["votes"],
    summary="Vote for a nomination",
    description="409 `already_voted` when the caller already voted (nothing changes); 404 for "
    "an unknown or hidden nomination; 400 `voting_closed` on a rejected one." + BUDGETED,
)
def vote_cast(request: HttpRequest, payload: VoteIn) -> Status[dict[str, Any]]:
    user = current_user(request)
    with budget_for("VOTES", user.pk, "MINUTE", "DAY"):
        cast = votes.vote_cast(
            user=user,
            nomination_id=payload.nomination_id,
            ip_prefix=prefix_key(client_ip(request)),
        )
    metrics.VOTES_CAST.inc()
    # What watches committed votes (project/integrity's rules) runs now.
    hooks.vote_committed(cast, voter_id=user.pk)
    return Status(201, _vote_state(cast.nomination, has_voted=True))


@router.delete(
    "/votes/{int:nomination_id}",
    response={200: VoteOut, codes_4xx: ErrorOut},
    tags=["votes"],
    summary="Remove one's vote",
    description="404 `vote_not_found` when the caller has not voted for it.",
)
def vote_remove(request: HttpRequest, nomination_id: int) -> dict[str, Any]:
    nomination = votes.vote_remove(user=current_user(request), nomination_id=nomination_id)
    metrics.VOTES_REMOVED.inc()
    return _vote_state(nomination, has_voted=False)


# --- Leaderboards and stats ---------------------------------------------------------------


@router.get(
    "/leaderboard",
    response={200: list[ScoutRankOut], codes_4xx: ErrorOut},
    tags=["leaderboard"],
    summary="Top 10 scouts by pending and approved nominations in the sport",
)
def leaderboard_scouts(request: HttpRequest, query: Query[SportQuery]) -> list:
    return selectors.leaderboard_scouts(sport=query.sport)


@router.get(
    "/leaderboard/players",
    response={200: list[BoardEntryOut], codes_4xx: ErrorOut},
    tags=["leaderboard"],
    summary="Top 10 community nominations of the sport on a board",
    description="`board=all` (default): by votes, then oldest first. `trending`: by votes "
    "decayed with their age (half-life 24 hours); `score` is the votes of the last 24 hours. "
    "`weekly`: by votes cast this week (see /api/leaderboard/week); `score` is those votes. "
    "Entries side by side with equal scores share a rank on every board. Trending and weekly "
    "count only votes that are not voided, from accounts at least `TRUST_ACCOUNT_AGE_HOURS` "
    "old when they voted; all time counts every vote.",
)
def leaderboard_players(request: HttpRequest, query: Query[BoardQuery]) -> list:
    return board_reads.board_nominations(
        kind=query.board, sport=query.sport, user=current_user(request)
    )


@router.get(
    "/leaderboard/week",
    response={200: WeekOut, codes_4xx: ErrorOut},
    tags=["leaderboard"],
    summary="The current week of the weekly board and when it resets",
)
def leaderboard_week(request: HttpRequest) -> board_reads.Week:
    return board_reads.current_week()


@router.get(
    "/leaderboard/weekly-history",
    response={200: list[WeekWinnersOut], codes_4xx: ErrorOut},
    tags=["leaderboard"],
    summary="Player of the Week: each past week's top 3 per sport, newest week first",
    description="A page holds `limit` weeks (every sport of each week without `sport`)." + PAGED,
)
@paginate()
def leaderboard_weekly_history(request: HttpRequest, query: Query[HistoryQuery]) -> Pager:
    return partial(board_reads.weekly_history, sport=query.sport)


@router.get(
    "/stats",
    response={200: StatsOut, codes_4xx: ErrorOut},
    tags=["leaderboard"],
    summary="Counts of the sport's community nominations",
    description="`votes` is the sum of their vote counts; `nominationsNeedingVotes` those "
    "with fewer than 5.",
)
def stats(request: HttpRequest, query: Query[SportQuery]) -> dict[str, int]:
    return selectors.sport_stats(sport=query.sport)


# --- Feed and follows ---------------------------------------------------------------------


@router.get(
    "/feed",
    response={200: list[ActivityOut], codes_4xx: ErrorOut},
    tags=["feed"],
    summary="Community activity of the sport, newest first",
    description="`following=true` keeps activity by followed scouts or about followed "
    "players." + PAGED,
)
@paginate(ordering=selectors.NEWEST_FIRST)
def feed(request: HttpRequest, query: Query[FeedQuery]) -> QuerySet:
    return selectors.feed_list(
        user=current_user(request), sport=query.sport, following=query.following
    )


@router.get(
    "/follow/status",
    response={200: FollowStatusOut, codes_4xx: ErrorOut},
    tags=["follow"],
    summary="Whether the caller follows a player (playerId), a scout (userId) or a club (clubId)",
)
def follow_status(request: HttpRequest, target: Query[FollowTargetIn]) -> dict[str, bool]:
    following = selectors.follow_exists(
        user=current_user(request),
        player_id=target.player_id,
        user_id=target.user_id,
        club_id=target.club_id,
    )
    return {"is_following": following}


@router.post(
    "/follow/player/{int:player_id}",
    response={201: FollowStatusOut, 200: FollowStatusOut, codes_4xx: ErrorOut},
    tags=["follow"],
    summary="Follow a player",
    description="201 when newly followed, 200 when already following (idempotent)." + BUDGETED,
)
def follow_player(request: HttpRequest, player_id: int) -> Status[dict[str, bool]]:
    user = current_user(request)
    with budget_for("FOLLOWS", user.pk, "MINUTE") as spend:
        created = follows.follow_player_create(user=user, player_id=player_id)
    if not created:
        spend.refund()
    return Status(201 if created else 200, {"is_following": True})


@router.post(
    "/follow/user/{int:user_id}",
    response={201: FollowStatusOut, 200: FollowStatusOut, codes_4xx: ErrorOut},
    tags=["follow"],
    summary="Follow a scout",
    description="201 when newly followed, 200 when already following (idempotent); 400 "
    '"You cannot follow yourself".' + BUDGETED,
)
def follow_user(request: HttpRequest, user_id: int) -> Status[dict[str, bool]]:
    user = current_user(request)
    with budget_for("FOLLOWS", user.pk, "MINUTE") as spend:
        created = follows.follow_user_create(user=user, target_id=user_id)
    if not created:
        spend.refund()
    return Status(201 if created else 200, {"is_following": True})


@router.delete(
    "/follow",
    response={200: FollowStatusOut, codes_4xx: ErrorOut},
    tags=["follow"],
    summary="Unfollow a player, a scout or a club",
    description="Exactly one of `playerId`, `userId` and `clubId`, in the JSON body or the "
    "query (else 400); 404 `not_following` when not following.",
)
def unfollow(
    request: HttpRequest,
    target: Query[FollowTargetIn],
    payload: Body[FollowTargetIn | None] = None,
) -> dict[str, bool]:
    chosen = payload if payload is not None and payload.model_fields_set else target
    follows.follow_delete(
        user=current_user(request),
        player_id=chosen.player_id,
        user_id=chosen.user_id,
        club_id=chosen.club_id,
    )
    return {"is_following": False}


@router.get(
    "/user/following",
    response={200: list[FollowingOut], codes_4xx: ErrorOut},
    tags=["follow"],
    summary="What the caller follows: players and clubs of the sport and every scout",
    description=PAGED.strip(),
)
@paginate(ordering=selectors.NEWEST_FIRST)
def following(request: HttpRequest, query: Query[SportQuery]) -> QuerySet:
    return selectors.following_list(user=current_user(request), sport=query.sport)


# --- Notifications ------------------------------------------------------------------------


@router.get(
    "/notifications",
    response={200: NotificationsOut, codes_4xx: ErrorOut},
    tags=["notifications"],
    summary="The caller's notifications, newest first, and the unread count",
    description=PAGED.strip(),
)
@paginate(ordering=selectors.NEWEST_FIRST)
def notifications(request: HttpRequest) -> dict[str, Any]:
    user = current_user(request)
    return {
        "items": selectors.notification_list(user=user),
        "unread_count": selectors.notification_unread_count(user=user),
    }


@router.post(
    "/notifications/read",
    response={200: UnreadCountOut, codes_4xx: ErrorOut},
    tags=["notifications"],
    summary="Mark notifications read: {ids: [...]} or {all: true}",
)
def notifications_read(request: HttpRequest, payload: NotificationsReadIn) -> dict[str, int]:
    unread = activity.notifications_mark_read(
        user=current_user(request), ids=payload.ids, all_unread=payload.all
    )
    return {"unread_count": unread}
