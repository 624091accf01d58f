"""The admins' integrity calls: flags, voter lists (the audit), void and restore."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest
from ninja import Query
from ninja.responses import codes_4xx

from project.accounts.auth import admin_auth, current_user
from project.common import metrics
from project.common.pagination import paginate
from project.common.router import Router
from project.common.schemas import ErrorOut
from project.integrity import selectors
from project.integrity.schemas import (
    AuditVoteOut,
    FlagOut,
    FlagQuery,
    VoterListViewOut,
    VoteSelectionIn,
    VoteSelectionOut,
)
from project.integrity.services import audit, voiding

router = Router(tags=["integrity"], auth=admin_auth)

PAGED = (
    " Paginated: `limit` (default 50, max 200) and `cursor`; the next page is in the "
    '`Link: <url>; rel="next"` header.'
)
SELECTION = (
    " Body: `flagId` (the flag's votes) or `userIds` (every vote of one of them on another's "
    "nomination, at least two users), and a `reason` (required)."
)


@router.get(
    "/integrity/flags",
    response={200: list[FlagOut], codes_4xx: ErrorOut},
    summary="Vote-integrity flags, most recently changed first",
    description="Raised live by the detection rules on each vote (shared_prefix, "
    "one_nominator, new_account_burst, reciprocal), one open flag per rule and subject, "
    "updated as its evidence grows; pushed as `integrity.flagged` to admins." + PAGED,
)
@paginate(ordering=("-updated_at", "-id"))
def flag_list(request: HttpRequest, filters: Query[FlagQuery]) -> QuerySet:
    return selectors.flag_list(status=filters.status)


@router.post(
    "/integrity/void",
    response={200: VoteSelectionOut, codes_4xx: ErrorOut},
    summary="Void a set of votes",
    description="The votes leave counts, boards and points (pushed live) but their rows stay "
    "with status=void, and their voters still see them as their votes; a flag's votes close "
    "the flag. Written to the moderation log." + SELECTION,
)
def votes_void(request: HttpRequest, payload: VoteSelectionIn) -> dict[str, Any]:
    result = voiding.votes_status_set(admin=current_user(request), void=True, **payload.dict())
    metrics.VOTES_VOIDED.inc(result["votes"])
    return result


@router.post(
    "/integrity/restore",
    response={200: VoteSelectionOut, codes_4xx: ErrorOut},
    summary="Restore voided votes",
    description="Undoes a void of the same selection: the votes count again exactly as before "
    "(a vote its voter took back meanwhile is gone). Written to the moderation log." + SELECTION,
)
def votes_restore(request: HttpRequest, payload: VoteSelectionIn) -> dict[str, Any]:
    result = voiding.votes_status_set(admin=current_user(request), void=False, **payload.dict())
    metrics.VOTES_RESTORED.inc(result["votes"])
    return result


@router.get(
    "/integrity/views",
    response={200: list[VoterListViewOut], codes_4xx: ErrorOut},
    summary="Who opened which voter list, newest first",
    description="Every opening of a nomination's or a user's voter list." + PAGED,
)
@paginate(ordering=("-created_at", "-id"))
def voter_list_views(request: HttpRequest) -> QuerySet:
    return selectors.voter_list_views()


@router.get(
    "/nominations/{int:nomination_id}/votes",
    response={200: list[AuditVoteOut], codes_4xx: ErrorOut},
    summary="A nomination's voters (the vote audit), newest first",
    description="Who voted, when, the account's age then, its IP-cluster id (a keyed hash of "
    "the /24 or /48, never the address) and whether the vote is trusted; voided votes too. "
    "Every opening is logged (GET /api/admin/integrity/views)." + PAGED,
)
@paginate(ordering=("-created_at", "-id"))
def nomination_votes(request: HttpRequest, nomination_id: int) -> QuerySet:
    return audit.nomination_votes_open(viewer=current_user(request), nomination_id=nomination_id)


@router.get(
    "/users/{int:user_id}/votes",
    response={200: list[AuditVoteOut], codes_4xx: ErrorOut},
    summary="A user's votes (the vote audit), newest first",
    description="As the nomination's list, for every vote of one user. Every opening is "
    "logged." + PAGED,
)
@paginate(ordering=("-created_at", "-id"))
def user_votes(request: HttpRequest, user_id: int) -> QuerySet:
    return audit.user_votes_open(viewer=current_user(request), user_id=user_id)
