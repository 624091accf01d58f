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
    AthleteInviteIn,
    ClaimDecideIn,
    ClaimIn,
    ClaimListQuery,
    ClaimOut,
    ClaimTransferIn,
    ControlsIn,
    ControlsOut,
    ManagedPlayerOut,
)
from project.common.budgets import budget_for
from project.common.router import Router
from project.common.schemas import ErrorOut
from project.privacy.models import PlayerControls
from project.privacy.players import ADULT_FROM, SELF_CLAIM_FROM, managed_by_of

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
    "/claims/{int:claim_id}/transfer",
    response={200: AdminClaimOut, codes_4xx: ErrorOut},
    summary="Pass a claimed player's controls to another member",
    description="`username` takes the controls, as `relationship` (the age bands of the "
    "verified birth year apply: 400 `guardian_required`, `adult_claims_self`), with the "
    "settings as they are; the claim that held them ends. Both members are told; in the "
    "moderation log. 409 `claim_not_held` unless the claim holds the controls, 409 "
    "`already_holds` for its own member, 404 for an unknown member. Returns the new claim.",
)
def claim_transfer(
    request: HttpRequest, claim_id: int, payload: ClaimTransferIn
) -> dict[str, object]:
    claim = services.claim_transfer(
        admin=current_user(request),
        claim_id=claim_id,
        username=payload.username,
        relationship=payload.relationship,
        reason=payload.reason or "",
    )
    return selectors.admin_claims([claim])[0]


@admin_router.post(
    "/claims/{int:claim_id}/revoke",
    response={200: AdminClaimOut, codes_4xx: ErrorOut},
    summary="End a claim: its member no longer manages the player's profile",
    description="The settings stay until a new claim of the player is approved (it accepts "
    "claims again). Optional reason, told to the member; in the moderation log. 409 "
    "`claim_not_held` unless the claim holds the controls.",
)
def claim_revoke(
    request: HttpRequest, claim_id: int, payload: ClaimDecideIn | None = None
) -> dict[str, object]:
    claim = services.claim_revoke(
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
    guardian = controls.relationship == "parent_or_guardian"
    age = services.controls_age(controls)
    athlete = controls.athlete
    return {
        "player_id": controls.player_id,
        "managed_by": managed_by_of(controls.relationship),
        "athlete_may_hold": guardian and SELF_CLAIM_FROM <= age < ADULT_FROM,
        "athlete": None
        if athlete is None
        else {"id": athlete.pk, "name": athlete.name, "username": athlete.username},
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


@router.post(
    "/players/{int:player_id}/controls/athlete",
    response={200: ControlsOut, codes_4xx: ErrorOut},
    tags=["players"],
    summary="Name the athlete's own account to hand them the controls (from 16)",
    description="For a guardian holding the controls of an athlete of 16 or over (400 "
    "`athlete_too_young`; 409 `athlete_holds` once the athlete holds them). The account's "
    "year of birth must be the verified claim's (400 `not_the_athlete`); 404 for an unknown "
    "member. The athlete is told and accepts with `/controls/accept`; at 18 it takes them."
    + CLAIMANT_ONLY,
)
def athlete_invite(
    request: HttpRequest, player_id: int, payload: AthleteInviteIn
) -> dict[str, object]:
    controls = services.athlete_invite(
        user=current_user(request), player_id=player_id, username=payload.username
    )
    return _controls_out(controls)


@router.post(
    "/players/{int:player_id}/controls/accept",
    response={200: ControlsOut, codes_4xx: ErrorOut},
    tags=["players"],
    summary="The athlete takes the controls their guardian handed them",
    description="For the account the guardian named only (403 `not_invited`); the guardian is "
    "told.",
)
def athlete_accept(request: HttpRequest, player_id: int) -> dict[str, object]:
    return _controls_out(services.athlete_accept(user=current_user(request), player_id=player_id))


@router.get(
    "/me/managed-players",
    response={200: list[ManagedPlayerOut], codes_4xx: ErrorOut},
    tags=["players"],
    summary="The profiles you manage, and those you are invited to take",
    description="A removed profile is listed with until when it can be brought back.",
)
def managed_players(request: HttpRequest) -> list[dict[str, object]]:
    return selectors.managed_players(
        user_id=current_user(request).pk, restore_days=services.PROFILE_RESTORE_DAYS
    )
