"""Player updates: posted by a player's claimant or a verified coach, read by members,
reviewed by admins when they carry media."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Query, Status
from ninja.responses import codes_4xx

from project.accounts.auth import admin_auth, current_user
from project.common.budgets import budget_for
from project.common.pagination import paginate
from project.common.router import Router
from project.common.schemas import ErrorOut
from project.updates import selectors, services
from project.updates.schemas import (
    AdminPlayerUpdateOut,
    PlayerUpdateDecideIn,
    PlayerUpdateListQuery,
    PlayerUpdateOut,
    PlayerUpdatePostIn,
)

router = Router(tags=["players"])
admin_router = Router(tags=["admin"], auth=admin_auth)


@router.post(
    "/players/{int:player_id}/updates",
    response={201: PlayerUpdateOut, codes_4xx: ErrorOut},
    summary="Post an update on a player's page (its claimant or a verified coach)",
    description="`title`, `content`, `milestone`, and either an `imageURL` (the objectURL of "
    "an upload from POST /api/objects/upload: PNG, JPEG, GIF or WebP, at most 5 MB, "
    "re-encoded without its metadata) or a `videoURL` (YouTube, Vimeo or Hudl only: 400 for "
    "any other address), not both (400 `one_media`). 403 `not_update_author` for anyone but "
    "the player's claimant or a member with the coach role. An update with an image or a "
    "video link, and any update on an unclaimed player under 13, waits for an admin "
    "(`status` `pending`) and only its author and admins see it; others are `published` at "
    "once and told to the player's followers. 429 `throttled` beyond "
    "`BUDGET_PLAYER_UPDATES_PER_DAY` per member.",
)
def update_create(request: HttpRequest, player_id: int, payload: PlayerUpdatePostIn) -> Status[Any]:
    user = current_user(request)
    with budget_for("PLAYER_UPDATES", user.pk, "DAY"):
        update = services.update_create(
            user=user,
            player_id=player_id,
            title=payload.title,
            content=payload.content or "",
            video_url=payload.video_url or "",
            image_url=payload.image_url or None,
            milestone=payload.milestone,
        )
    return Status(201, selectors.update_data(update))


@router.get(
    "/players/{int:player_id}/updates",
    response={200: list[PlayerUpdateOut], codes_4xx: ErrorOut},
    summary="A player's updates, newest first",
    description="The published ones, and the caller's own pending or rejected ones (admins: "
    "all). 404 for a player the caller cannot see. Paginated: `limit` (default 50, at most "
    '200) and `cursor`; the next page\'s address is in the `Link: <url>; rel="next"` header.',
)
@paginate()
def update_list(request: HttpRequest, player_id: int) -> Any:
    return selectors.update_list(user=current_user(request), player_id=player_id)


@router.delete(
    "/players/{int:player_id}/updates/{int:update_id}",
    response={204: None, codes_4xx: ErrorOut},
    summary="Delete an update (its author, the player's claimant or an admin)",
    description="403 `not_update_owner` for other members who see it; 404 for those who do not.",
)
def update_delete(request: HttpRequest, player_id: int, update_id: int) -> Status[None]:
    services.update_delete(user=current_user(request), player_id=player_id, update_id=update_id)
    return Status(204, None)


@admin_router.get(
    "/player-updates",
    response={200: list[AdminPlayerUpdateOut], codes_4xx: ErrorOut},
    summary="Player updates in one status (pending by default), the longest waiting first",
    description="With the player and the author (at most 200).",
)
def admin_updates(
    request: HttpRequest, query: Query[PlayerUpdateListQuery]
) -> list[dict[str, Any]]:
    return selectors.admin_update_list(status=query.status)


@admin_router.post(
    "/player-updates/{int:update_id}/approve",
    response={200: AdminPlayerUpdateOut, codes_4xx: ErrorOut},
    summary="Publish a pending player update",
    description="Optional reason. 409 `already_decided` when it is no longer pending.",
)
def update_approve(
    request: HttpRequest, update_id: int, payload: PlayerUpdateDecideIn | None = None
) -> dict[str, Any]:
    update = services.update_approve(
        admin=current_user(request),
        update_id=update_id,
        reason=(payload.reason if payload is not None else "") or "",
    )
    return selectors.admin_update_data(update)


@admin_router.post(
    "/player-updates/{int:update_id}/reject",
    response={200: AdminPlayerUpdateOut, codes_4xx: ErrorOut},
    summary="Refuse a pending player update (its image is deleted)",
    description="Optional reason, told to the author. 409 `already_decided` when it is no "
    "longer pending.",
)
def update_reject(
    request: HttpRequest, update_id: int, payload: PlayerUpdateDecideIn | None = None
) -> dict[str, Any]:
    update = services.update_reject(
        admin=current_user(request),
        update_id=update_id,
        reason=(payload.reason if payload is not None else "") or "",
    )
    return selectors.admin_update_data(update)
