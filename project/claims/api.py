"""Claims of a player's page (members), their review (admins), the claimant's controls."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Query, Status
from ninja.responses import codes_4xx

from project.accounts.auth import admin_auth, current_user
from project.claims import selectors, services
from project.claims.schemas import AdminClaimOut, ClaimDecideIn, ClaimIn, ClaimListQuery, ClaimOut
from project.common.budgets import budget_for
from project.common.router import Router
from project.common.schemas import ErrorOut

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
