"""The admin dashboard's calls: admins only (401 signed out, 403 for other roles)."""

from __future__ import annotations

from functools import partial

from django.http import HttpRequest
from ninja import Query, Status
from ninja.responses import codes_4xx

from project.accounts.auth import admin_auth, current_user
from project.common.pagination import Pager, paginate
from project.common.router import Router
from project.common.schemas import ErrorOut
from project.moderation import selectors, services
from project.moderation.schemas import (
    AdminLeaderboardOut,
    AdminStatsOut,
    AdminUserOut,
    DecisionConflictOut,
    LeaderboardQuery,
    RejectIn,
    RoleIn,
    VerifiedIn,
)
from project.scouting.schemas import NominationOut, PlayerOut

router = Router(tags=["admin"], auth=admin_auth)

PAGINATED = (
    "Paginated: `limit` (default 50, max 200) and `cursor`; the next page is in the "
    '`Link: <url>; rel="next"` header.'
)
DECISION = {200: NominationOut, codes_4xx: ErrorOut, 409: DecisionConflictOut}


@router.get("/stats", response={200: AdminStatsOut, codes_4xx: ErrorOut}, summary="Admin stats")
def stats(request: HttpRequest) -> object:
    return selectors.admin_stats()


@router.get(
    "/nominations/pending",
    response={200: list[NominationOut], codes_4xx: ErrorOut},
    summary="Pending nominations, newest first",
    description=PAGINATED,
)
@paginate()
def pending_nominations(request: HttpRequest) -> Pager:
    return partial(selectors.pending_nomination_list, admin=current_user(request))


@router.get(
    "/leaderboard",
    response={200: list[AdminLeaderboardOut], codes_4xx: ErrorOut},
    summary="Users by points (top 10 by default)",
)
def leaderboard(request: HttpRequest, query: Query[LeaderboardQuery]) -> list[object]:
    return list(selectors.points_leaderboard(limit=query.limit))


@router.get(
    "/users",
    response={200: list[AdminUserOut], codes_4xx: ErrorOut},
    summary="Every user, newest first",
    description=PAGINATED,
)
@paginate()
def users(request: HttpRequest) -> Pager:
    return selectors.user_list


@router.post(
    "/nominations/{int:nomination_id}/approve",
    response=DECISION,
    summary="Approve a pending nomination",
    description=(
        "The nominator gets 25 points and a notification. 409 `already_decided` when it is "
        "no longer pending, naming who decided it."
    ),
)
def approve(request: HttpRequest, nomination_id: int) -> object:
    return services.nomination_approve(admin=current_user(request), nomination_id=nomination_id)


@router.post(
    "/nominations/{int:nomination_id}/reject",
    response=DECISION,
    summary="Reject a pending nomination",
    description=(
        "Optional reason (omit it or send it empty for none), kept on the nomination and put "
        "in the nominator's notification. 409 `already_decided` when it is no longer pending."
    ),
)
def reject(request: HttpRequest, nomination_id: int, payload: RejectIn | None = None) -> object:
    reason = payload.reason if payload is not None else ""
    return services.nomination_reject(
        admin=current_user(request), nomination_id=nomination_id, reason=reason or ""
    )


@router.put(
    "/players/{int:player_id}/verified",
    response={200: PlayerOut, codes_4xx: ErrorOut},
    summary="Verify a player or remove the verification",
)
def player_verified(request: HttpRequest, player_id: int, payload: VerifiedIn) -> object:
    return services.player_verified_set(player_id=player_id, verified=payload.verified)


@router.delete(
    "/users/{int:user_id}",
    response={204: None, codes_4xx: ErrorOut},
    summary="Delete a user and everything that is theirs",
    description="Never oneself (400). Same cascade as deleting one's own account.",
)
def user_delete(request: HttpRequest, user_id: int) -> Status[None]:
    services.admin_user_delete(admin=current_user(request), user_id=user_id)
    return Status(204, None)


@router.put(
    "/users/{int:user_id}/role",
    response={200: AdminUserOut, codes_4xx: ErrorOut},
    summary="Make a user a scout or an admin",
    description="Never oneself (400). The user's live sockets close to pick up the new rights.",
)
def user_role(request: HttpRequest, user_id: int, payload: RoleIn) -> object:
    return services.user_role_change(
        admin=current_user(request), user_id=user_id, role=payload.role
    )
