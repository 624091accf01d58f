"""Coach verifications (members, admins) and endorsements of players (verified coaches)."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Query, Status
from ninja.responses import codes_4xx

from project.accounts.auth import admin_auth, csrf_only, current_user
from project.coaches import selectors, services
from project.coaches.schemas import (
    AdminCoachVerificationOut,
    CoachDecideIn,
    CoachIdsOut,
    CoachVerificationIn,
    CoachVerificationListQuery,
    CoachVerificationOut,
    EmailConfirmIn,
    EndorsementIn,
    EndorsementListOut,
    EndorsementOut,
)
from project.common.budgets import budget_for
from project.common.router import Router
from project.common.schemas import ErrorOut
from project.scouting.models import Endorsement

router = Router(tags=["coaches"])
admin_router = Router(tags=["admin"], auth=admin_auth)


def _admin_item(verification_id: int) -> dict[str, object]:
    row = selectors.verification_queryset().get(pk=verification_id)
    return selectors.admin_verifications([row])[0]


@router.post(
    "/coach-verifications",
    response={201: CoachVerificationOut, codes_4xx: ErrorOut},
    summary="Ask to be verified as a coach",
    description="`organization` (the club or school), `roleTitle` there, and evidence: "
    "`evidenceUrl` (a public roster or staff page) and/or `workEmail` (a signed link sent to "
    "it confirms the member controls it). Admins decide in the Coaches tab. 409 "
    "`already_verified`, 409 `verification_open`; 429 `throttled` beyond "
    "`BUDGET_COACH_VERIFICATIONS_PER_DAY` per member.",
)
def verification_create(request: HttpRequest, payload: CoachVerificationIn) -> Status[object]:
    user = current_user(request)
    with budget_for("COACH_VERIFICATIONS", user.pk, "DAY"):
        verification = services.verification_create(
            user=user,
            organization=payload.organization,
            role_title=payload.role_title,
            evidence_url=payload.evidence_url or "",
            work_email=payload.work_email or "",
        )
    return Status(201, selectors.verification_data(verification))


@router.get(
    "/coach-verifications/mine",
    response={200: CoachVerificationOut | None, codes_4xx: ErrorOut},
    summary="The member's latest coach verification request (null: none)",
)
def verification_mine(request: HttpRequest) -> dict[str, object] | None:
    verification = selectors.verification_mine(user=current_user(request))
    return None if verification is None else selectors.verification_data(verification)


@router.post(
    "/coach-verifications/confirm-email",
    auth=csrf_only,
    response={200: CoachVerificationOut, codes_4xx: ErrorOut},
    summary="Confirm a coach's work email from its signed link (no session needed)",
    description="400 `link_invalid` or `link_expired` (7 days).",
)
def work_email_confirm(request: HttpRequest, payload: EmailConfirmIn) -> dict[str, object]:
    verification = services.work_email_confirm(token=payload.token)
    return selectors.verification_data(verification)


@router.get(
    "/coaches",
    response={200: CoachIdsOut, codes_4xx: ErrorOut},
    summary='The ids of every verified coach (their names show the "Verified coach" badge)',
)
def coach_ids(request: HttpRequest) -> dict[str, object]:
    return {"ids": selectors.verified_coach_ids()}


@admin_router.get(
    "/coach-verifications",
    response={200: list[AdminCoachVerificationOut], codes_4xx: ErrorOut},
    summary="Coach verifications in one status (pending by default)",
    description="Pending: the longest waiting first; the others: the latest decided first "
    "(at most 200). With the evidence and whether the work email was confirmed.",
)
def verifications(
    request: HttpRequest, query: Query[CoachVerificationListQuery]
) -> list[dict[str, object]]:
    return selectors.verification_list(status=query.status)


def _reason(payload: CoachDecideIn | None) -> str:
    return (payload.reason if payload is not None else "") or ""


@admin_router.post(
    "/coach-verifications/{int:verification_id}/approve",
    response={200: AdminCoachVerificationOut, codes_4xx: ErrorOut},
    summary="Approve a coach verification: the member becomes a verified coach",
    description="Optional reason. 409 `already_decided` when it is no longer pending.",
)
def verification_approve(
    request: HttpRequest, verification_id: int, payload: CoachDecideIn | None = None
) -> dict[str, object]:
    services.verification_approve(
        admin=current_user(request), verification_id=verification_id, reason=_reason(payload)
    )
    return _admin_item(verification_id)


@admin_router.post(
    "/coach-verifications/{int:verification_id}/reject",
    response={200: AdminCoachVerificationOut, codes_4xx: ErrorOut},
    summary="Reject a coach verification",
    description="Optional reason, told to the member. 409 `already_decided`.",
)
def verification_reject(
    request: HttpRequest, verification_id: int, payload: CoachDecideIn | None = None
) -> dict[str, object]:
    services.verification_reject(
        admin=current_user(request), verification_id=verification_id, reason=_reason(payload)
    )
    return _admin_item(verification_id)


@admin_router.post(
    "/coach-verifications/{int:verification_id}/withdraw",
    response={200: AdminCoachVerificationOut, codes_4xx: ErrorOut},
    summary="Withdraw a verified coach's badge; their endorsements leave every page",
    description="Optional reason, told to the member. 409 `already_decided` unless approved.",
)
def verification_withdraw(
    request: HttpRequest, verification_id: int, payload: CoachDecideIn | None = None
) -> dict[str, object]:
    services.verification_withdraw(
        admin=current_user(request), verification_id=verification_id, reason=_reason(payload)
    )
    return _admin_item(verification_id)


# --- Endorsements -----------------------------------------------------------------------------


@router.get(
    "/players/{int:player_id}/endorsements",
    response={200: EndorsementListOut, codes_4xx: ErrorOut},
    tags=["players"],
    summary="A player's endorsements by verified coaches, the latest first",
    description="Members see the text and the coach; `rating` is null unless the reader is a "
    "verified coach, the player's claimant or an admin. The claimant and admins also see "
    "those the claimant hid (`hidden`). 404 for a player the reader cannot see.",
)
def endorsement_list(request: HttpRequest, player_id: int) -> dict[str, object]:
    return selectors.endorsement_list(viewer=current_user(request), player_id=player_id)


def _out(endorsement: Endorsement) -> dict[str, object]:
    """The coach's own endorsement, with its rating (a verified coach sees ratings)."""
    return selectors.endorsement_data(endorsement, rating=True)


@router.post(
    "/players/{int:player_id}/endorsements",
    response={200: EndorsementOut, 201: EndorsementOut, codes_4xx: ErrorOut},
    tags=["players"],
    summary="Endorse a player (verified coaches; a second endorsement is an edit)",
    description="`content` (1 to 2,000 characters) and `rating` (1 to 5). 201 for the first, "
    "200 when it edits the coach's endorsement of the player. 403 `not_verified_coach` for "
    "anyone else. 429 `throttled` beyond `BUDGET_ENDORSEMENTS_PER_HOUR`.",
)
def endorsement_create(
    request: HttpRequest, player_id: int, payload: EndorsementIn
) -> Status[object]:
    coach = current_user(request)
    with budget_for("ENDORSEMENTS", coach.pk, "HOUR"):
        endorsement, created = services.endorsement_write(
            coach=coach, player_id=player_id, content=payload.content, rating=payload.rating
        )
    return Status(201 if created else 200, _out(endorsement))


@router.put(
    "/players/{int:player_id}/endorsements/{int:endorsement_id}",
    response={200: EndorsementOut, codes_4xx: ErrorOut},
    tags=["players"],
    summary="Change one's own endorsement",
    description="403 `not_verified_coach`, 403 `not_your_endorsement`.",
)
def endorsement_update(
    request: HttpRequest, player_id: int, endorsement_id: int, payload: EndorsementIn
) -> dict[str, object]:
    endorsement = services.endorsement_update(
        coach=current_user(request),
        player_id=player_id,
        endorsement_id=endorsement_id,
        content=payload.content,
        rating=payload.rating,
    )
    return _out(endorsement)


@router.delete(
    "/players/{int:player_id}/endorsements/{int:endorsement_id}",
    response={204: None, codes_4xx: ErrorOut},
    tags=["players"],
    summary="Delete one's own endorsement",
    description="403 `not_your_endorsement`.",
)
def endorsement_delete(request: HttpRequest, player_id: int, endorsement_id: int) -> Status[None]:
    services.endorsement_delete(
        user=current_user(request), player_id=player_id, endorsement_id=endorsement_id
    )
    return Status(204, None)


@router.post(
    "/players/{int:player_id}/endorsements/{int:endorsement_id}/hide",
    response={204: None, codes_4xx: ErrorOut},
    tags=["players"],
    summary="Hide an endorsement from the player's page (its claimant)",
    description="403 `not_claimant` for anyone but the player's claimant.",
)
def endorsement_hide(request: HttpRequest, player_id: int, endorsement_id: int) -> Status[None]:
    services.endorsement_hide(
        user=current_user(request), player_id=player_id, endorsement_id=endorsement_id, hidden=True
    )
    return Status(204, None)


@router.post(
    "/players/{int:player_id}/endorsements/{int:endorsement_id}/show",
    response={204: None, codes_4xx: ErrorOut},
    tags=["players"],
    summary="Show a hidden endorsement on the player's page again (its claimant)",
    description="403 `not_claimant` for anyone but the player's claimant.",
)
def endorsement_show(request: HttpRequest, player_id: int, endorsement_id: int) -> Status[None]:
    services.endorsement_hide(
        user=current_user(request), player_id=player_id, endorsement_id=endorsement_id, hidden=False
    )
    return Status(204, None)
