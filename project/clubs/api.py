"""The club calls: suggestions, a club's page, a player's club, following a club and the
admins' merge. Unfollowing is scouting's ``DELETE /api/follow`` with ``clubId``."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Query, Status
from ninja.responses import codes_4xx

from project.accounts.auth import admin_auth, current_user
from project.clubs import selectors, services
from project.clubs.schemas import (
    ClubMergeIn,
    ClubOut,
    ClubQuery,
    ClubSuggestionOut,
    PlayerClubOut,
)
from project.common.budgets import budget_for
from project.common.router import Router
from project.common.schemas import ErrorOut
from project.scouting.api import BUDGETED
from project.scouting.schemas import ClubRefOut, FollowStatusOut

router = Router(tags=["clubs"])
admin_router = Router(tags=["admin"], auth=admin_auth)


@router.get(
    "/clubs",
    response={200: list[ClubSuggestionOut], codes_4xx: ErrorOut},
    summary="Clubs of the sport whose name holds the text (suggestions as a club is typed)",
    description="At most 10, the clubs with the most players first.",
)
def clubs(request: HttpRequest, query: Query[ClubQuery]) -> list[Any]:
    return selectors.club_suggestions(sport=query.sport, q=query.q)


@router.get(
    "/clubs/{int:club_id}",
    response={200: ClubOut, codes_4xx: ErrorOut},
    auth=None,
    summary="A club's page: its details, listed players with their votes, followers, activity",
    description="Signed out it answers the public's view (docs/privacy.md): never a player "
    "under 13, no activity. 404 `Club not found`.",
)
def club(request: HttpRequest, club_id: int) -> dict[str, Any]:
    user = request.user
    viewer = user if user.is_authenticated and user.is_active else None
    return selectors.club_page(viewer=viewer, club_id=club_id)


@router.get(
    "/players/{int:player_id}/club",
    response={200: PlayerClubOut, codes_4xx: ErrorOut},
    summary="The club a player's page links to (null without one)",
)
def player_club(request: HttpRequest, player_id: int) -> dict[str, Any]:
    return {"club": selectors.player_club(viewer=current_user(request), player_id=player_id)}


@router.post(
    "/follow/club/{int:club_id}",
    response={201: FollowStatusOut, 200: FollowStatusOut, codes_4xx: ErrorOut},
    tags=["follow"],
    summary="Follow a club",
    description="201 when newly followed, 200 when already following (idempotent); "
    "`DELETE /api/follow` with `clubId` unfollows." + BUDGETED,
)
def follow_club(request: HttpRequest, club_id: int) -> Status[dict[str, bool]]:
    user = current_user(request)
    with budget_for("FOLLOWS", user.pk, "MINUTE") as spend:
        created = services.club_follow_create(user=user, club_id=club_id)
    if not created:
        spend.refund()
    return Status(201 if created else 200, {"is_following": True})


@admin_router.post(
    "/clubs/{int:club_id}/merge",
    response={200: ClubRefOut, codes_4xx: ErrorOut},
    summary="Merge duplicate clubs into this one",
    description="Their players (and so their nominations) and followers move to this club, "
    "their names become its aliases, and the merge is in the moderation log. 400 when a club "
    "is of another sport; 404 `Club not found`.",
)
def club_merge(request: HttpRequest, club_id: int, payload: ClubMergeIn) -> Any:
    return services.club_merge(
        admin=current_user(request), keep_id=club_id, merge_ids=payload.merge_ids
    )
