"""Claims of a player's page (members), their review (admins), the claimant's controls."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Query, Status
from ninja.responses import codes_4xx

from project.accounts.auth import admin_auth, current_user
from project.claims import selectors, services
from project.claims.schemas import (
    AdminClaimOut,
    ClaimDecideIn,
    ClaimIn,
    ClaimListQuery,
    ClaimOut,
    ControlsIn,
    ControlsOut,
)
from project.common.budgets import budget_for
from project.common.router import Router
from project.common.schemas import ErrorOut
from project.privacy.models import PlayerControls
from project.privacy.players import managed_by_of

router = Router(tags=["claims"])
admin_router = Router(tags=["admin"], auth=admin_auth)


@router.post(
    "/players/{int:player_id}/claims",
    response={201: ClaimOut, codes_4xx: ErrorOut},
    summary="Claim a player's profile (the athlete from 16, else a parent or guardian)",
    description="`relationship` `self` or `parent_or_guardian`, the athlete's `birthYear`, "
    "`evidence` (at most 1,000 characters) and an optional `contactPhone`. Under 16 (from the "
    "birth year) only a parent or guardian claims (400 `guardian_required`). 409 "
    "`claim_already_open` for a second open claim of the same player, 409 "
    "`player_already_claimed` once it is claimed. 429 `throttled` beyond "
    "`BUDGET_CLAIMS_PER_DAY` per member (a refused claim spends nothing).",
)
def claim_create(request: HttpRequest, player_id: int, payload: ClaimIn) -> Status[object]:
    claimant = current_user(request)
    with budget_for("CLAIMS", claimant.pk, "DAY"):
        claim = services.claim_create(
            claimant=claimant,
            player_id=player_id,
            relationship=payload.relationship,
            birth_year=payload.birth_year,
            evidence=payload.evidence,
            contact_phone=payload.contact_phone or "",
        )
    return Status(201, claim)


@admin_router.get(
    "/claims",
    response={200: list[AdminClaimOut], codes_4xx: ErrorOut},
    summary="Claims in one status (pending by default), the longest waiting first",
    description="With the evidence, the player, the claimant and the player's nominators "
    "(at most 200).",
)
def claims(request: HttpRequest, query: Query[ClaimListQuery]) -> list[dict[str, object]]:
    return selectors.claim_list(status=query.status)


@admin_router.post(
    "/claims/{int:claim_id}/approve",
    response={200: AdminClaimOut, codes_4xx: ErrorOut},
    summary="Approve a claim: the claimant manages the player's profile",
    description="Optional reason. 409 `already_decided` when it is no longer pending, 409 "
    "`player_already_claimed` when another claim of the player was approved.",
)
def claim_approve(
    request: HttpRequest, claim_id: int, payload: ClaimDecideIn | None = None
) -> dict[str, object]:
    claim = services.claim_approve(
        admin=current_user(request),
        claim_id=claim_id,
        reason=(payload.reason if payload is not None else "") or "",
    )
    return selectors.admin_claims([claim])[0]


@admin_router.post(
    "/claims/{int:claim_id}/reject",
    response={200: AdminClaimOut, codes_4xx: ErrorOut},
    summary="Reject a claim",
    description="Optional reason, told to the claimant. 409 `already_decided` when it is no "
    "longer pending.",
)
def claim_reject(
    request: HttpRequest, claim_id: int, payload: ClaimDecideIn | None = None
) -> dict[str, object]:
    claim = services.claim_reject(
        admin=current_user(request),
        claim_id=claim_id,
        reason=(payload.reason if payload is not None else "") or "",
    )
    return selectors.admin_claims([claim])[0]


# --- The claimant's controls -----------------------------------------------------------------

CLAIMANT_ONLY = " For the player's claimant only (403 `not_claimant` for anyone else, admins "
"included: they have their own tools)."


def _controls_out(controls: PlayerControls) -> dict[str, object]:
    return {
        "player_id": controls.player_id,
        "managed_by": managed_by_of(controls.relationship),
        **{field: getattr(controls, field) for field in services.CONTROL_FIELDS},
        "removed_at": controls.removed_at,
    }


@router.get(
    "/players/{int:player_id}/controls",
    response={200: ControlsOut, codes_4xx: ErrorOut},
    tags=["players"],
    summary="The controls of a claimed player's profile",
    description=CLAIMANT_ONLY,
)
def controls_get(request: HttpRequest, player_id: int) -> dict[str, object]:
    return _controls_out(services.controls_get(user=current_user(request), player_id=player_id))


@router.put(
    "/players/{int:player_id}/controls",
    response={200: ControlsOut, codes_4xx: ErrorOut},
    tags=["players"],
    summary="Change what members and the public see of a claimed player, and its voting",
    description="Any of `hideClub`, `hideNationality` (from everyone but admins), `shareCard` "
    "(the share card and link previews), `votingOpen` (closed: the nomination stays with "
    "its count, votes are refused), `commentsOpen` (closed: comments are refused and "
    "hidden), `indexable` (search engines may index its page); omitted ones stay." + CLAIMANT_ONLY,
)
def controls_update(request: HttpRequest, player_id: int, payload: ControlsIn) -> dict[str, object]:
    changes = {k: v for k, v in payload.dict().items() if v is not None}
    controls = services.controls_update(
        user=current_user(request), player_id=player_id, changes=changes
    )
    return _controls_out(controls)


@router.post(
    "/players/{int:player_id}/controls/remove",
    response={200: ControlsOut, codes_4xx: ErrorOut},
    tags=["players"],
    summary="Remove a claimed player's profile at once",
    description="Hidden from everyone but admins like a confirmed takedown; brought back by "
    "`/restore` within 30 days. 409 `already_removed`." + CLAIMANT_ONLY,
)
def profile_remove(request: HttpRequest, player_id: int) -> dict[str, object]:
    controls = services.profile_remove(user=current_user(request), player_id=player_id)
    return _controls_out(controls)


@router.post(
    "/players/{int:player_id}/controls/restore",
    response={200: ControlsOut, codes_4xx: ErrorOut},
    tags=["players"],
    summary="Bring back a profile its claimant removed (within 30 days)",
    description="409 `not_removed`; 400 `restore_too_late` after 30 days." + CLAIMANT_ONLY,
)
def profile_restore(request: HttpRequest, player_id: int) -> dict[str, object]:
    controls = services.profile_restore(user=current_user(request), player_id=player_id)
    return _controls_out(controls)


@router.get(
    "/players/{int:player_id}/export",
    response={200: dict[str, Any], codes_4xx: ErrorOut},
    tags=["players"],
    summary="Everything the product holds about a claimed player (JSON)",
    description="Its profile, controls, the claimant's claims, its nominations and counts, "
    "the takedown requests about it, what the feed says of it, its number of followers."
    + CLAIMANT_ONLY,
)
def player_export(request: HttpRequest, player_id: int) -> dict[str, Any]:
    return services.player_export(user=current_user(request), player_id=player_id)
