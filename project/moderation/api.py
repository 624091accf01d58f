"""The admin dashboard's calls: admins only (401 signed out, 403 for other roles)."""

from __future__ import annotations

from functools import partial

from django.db.models import QuerySet
from django.http import HttpRequest
from ninja import Query, Status
from ninja.responses import codes_4xx

from project.accounts.auth import admin_auth, csrf_only, current_user
from project.accounts.throttle import client_ip
from project.common.addresses import address_key
from project.common.budgets import budget_for
from project.common.pagination import Pager, paginate
from project.common.router import Router
from project.common.schemas import ErrorOut
from project.moderation import selectors
from project.moderation.schemas import (
    AdminLeaderboardOut,
    AdminStatsOut,
    AdminUserOut,
    DecisionConflictOut,
    LeaderboardQuery,
    RejectIn,
    ReportCreatedOut,
    ReportGroupOut,
    ReportIn,
    ReportResolvedOut,
    ReportResolveIn,
    RestoreIn,
    RoleIn,
    TakedownConfirmedOut,
    TakedownConfirmIn,
    TakedownDecideIn,
    TakedownIn,
    TakedownListQuery,
    TakedownOut,
    TakedownReceivedOut,
    TakedownRefusalOut,
    TakedownStopIn,
    UnderReviewOut,
    VerifiedIn,
)
from project.moderation.services import decisions, takedowns
from project.moderation.services import reports as report_services
from project.moderation.services import users as user_services
from project.modlog.schemas import ModlogEntryOut, ModlogQuery
from project.modlog.selectors import modlog_list
from project.scouting.schemas import NominationOut, PlayerOut

router = Router(tags=["admin"], auth=admin_auth)
# The SPA's page a takedown request's email links to (its "no more emails" page is beside it).
CONFIRM_PAGE = "/takedown/confirm"

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
    return decisions.nomination_approve(admin=current_user(request), nomination_id=nomination_id)


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
    return decisions.nomination_reject(
        admin=current_user(request), nomination_id=nomination_id, reason=reason or ""
    )


@router.put(
    "/players/{int:player_id}/verified",
    response={200: PlayerOut, codes_4xx: ErrorOut},
    summary="Verify a player or remove the verification",
)
def player_verified(request: HttpRequest, player_id: int, payload: VerifiedIn) -> object:
    return decisions.player_verified_set(
        admin=current_user(request), player_id=player_id, verified=payload.verified
    )


@router.delete(
    "/users/{int:user_id}",
    response={204: None, codes_4xx: ErrorOut},
    summary="Delete a user and everything that is theirs",
    description="Never oneself (400). Same cascade as deleting one's own account.",
)
def user_delete(request: HttpRequest, user_id: int) -> Status[None]:
    user_services.admin_user_delete(admin=current_user(request), user_id=user_id)
    return Status(204, None)


@router.put(
    "/users/{int:user_id}/role",
    response={200: AdminUserOut, codes_4xx: ErrorOut},
    summary="Make a user a scout or an admin",
    description="Never oneself (400). The user's live sockets close to pick up the new rights.",
)
def user_role(request: HttpRequest, user_id: int, payload: RoleIn) -> object:
    return user_services.user_role_change(
        admin=current_user(request), user_id=user_id, role=payload.role
    )


# --- Reports, takedown requests, the moderation log -----------------------------------------


@router.get(
    "/reports",
    response={200: list[ReportGroupOut], codes_4xx: ErrorOut},
    summary="Open reports grouped per item, the longest waiting first",
    description="One entry per reported nomination, scout profile or endorsement, with its "
    "count and its open reports (at most 200 items).",
)
def reports(request: HttpRequest) -> list[dict[str, object]]:
    return selectors.report_groups()


@router.post(
    "/reports/resolve",
    response={200: ReportResolvedOut, codes_4xx: ErrorOut},
    summary="Resolve every open report of one item",
    description="Exactly one of nominationId, userId or endorsementId; an action (dismiss, "
    "edit_player, hide_nomination, hide_endorsement, warn_user, remove_user) and a reason, "
    "kept in the moderation log and told to the member it affects. 409 `already_resolved` "
    "when none is open.",
)
def reports_resolve(request: HttpRequest, payload: ReportResolveIn) -> dict[str, object]:
    resolved = report_services.reports_resolve(
        admin=current_user(request),
        action=payload.action,
        reason=payload.reason,
        nomination_id=payload.nomination_id,
        user_id=payload.user_id,
        endorsement_id=payload.endorsement_id,
    )
    return {"resolved": resolved, "action": payload.action}


@router.get(
    "/takedown-requests",
    response={200: list[TakedownOut], codes_4xx: ErrorOut},
    summary="Takedown requests in one status (open by default: unconfirmed and pending), "
    "the oldest first",
    description=PAGINATED,
)
@paginate(ordering=selectors.TAKEDOWN_ORDERING)
def takedown_requests(request: HttpRequest, query: Query[TakedownListQuery]) -> QuerySet:
    return selectors.takedown_list(status=query.status)


@router.get(
    "/takedown-refusals",
    response={200: list[TakedownRefusalOut], codes_4xx: ErrorOut},
    summary="Takedown requests refused over the last 7 days, per player, reason and day",
    description="The latest first, at most 200 rows.",
)
def takedown_refusals(request: HttpRequest) -> object:
    return list(selectors.takedown_refusals())


@router.post(
    "/takedown-requests/{int:request_id}/decide",
    response={200: TakedownOut, codes_4xx: ErrorOut},
    summary="Decide a takedown request",
    description="remove keeps the profile off the site; correct (after editing the player) "
    "and restore show it again. The requester is emailed the decision and its reason. 409 "
    "`already_decided`.",
)
def takedown_decide(request: HttpRequest, request_id: int, payload: TakedownDecideIn) -> object:
    return takedowns.takedown_request_decide(
        admin=current_user(request),
        request_id=request_id,
        decision=payload.decision,
        reason=payload.reason,
    )


@router.post(
    "/players/{int:player_id}/restore",
    response={200: PlayerOut, codes_4xx: ErrorOut},
    summary="Show a taken-down player again",
    description="409 `not_hidden` when it is not taken down, `takedown_pending` while a "
    "request about it waits for a decision.",
)
def player_restore(request: HttpRequest, player_id: int, payload: RestoreIn) -> object:
    return takedowns.player_restore(
        admin=current_user(request), player_id=player_id, reason=payload.reason
    )


@router.get(
    "/modlog",
    response={200: list[ModlogEntryOut], codes_4xx: ErrorOut},
    summary="The moderation log, newest first",
    description="Every admin action with who, when, the target, the reason and the changed "
    "fields' before/after. Filters: actor, action, targetType + targetId, since/until. "
    + PAGINATED,
)
@paginate()
def modlog(request: HttpRequest, filters: Query[ModlogQuery]) -> QuerySet:
    return modlog_list(
        actor=filters.actor,
        action=filters.action,
        target_type=filters.target_type,
        target_id=filters.target_id,
        since=filters.since,
        until=filters.until,
    )


# --- Members and the public -----------------------------------------------------------------

community_router = Router(tags=["safety"])


@community_router.post(
    "/reports",
    response={201: ReportCreatedOut, codes_4xx: ErrorOut},
    summary="Report a nomination, a scout profile, an endorsement or a comment",
    description="Exactly one of nominationId, userId, endorsementId or commentId, a reason and "
    "optional text. Once per member and item: 409 `already_reported` the second time. 429 "
    "`throttled` with "
    "`Retry-After` beyond `BUDGET_REPORTS_PER_HOUR` per member or "
    "`BUDGET_IP_REPORTS_PER_HOUR` per client address (a refused report spends nothing).",
)
def report_create(request: HttpRequest, payload: ReportIn) -> Status[object]:
    reporter = current_user(request)
    with (
        budget_for("REPORTS", reporter.pk, "HOUR"),
        budget_for("IP_REPORTS", address_key(client_ip(request)), "HOUR"),
    ):
        report = report_services.report_create(
            reporter=reporter,
            reason=payload.reason,
            text=payload.text or "",
            nomination_id=payload.nomination_id,
            user_id=payload.user_id,
            endorsement_id=payload.endorsement_id,
            comment_id=payload.comment_id,
        )
    return Status(201, report)


@community_router.post(
    "/takedown-requests",
    auth=csrf_only,
    response={201: TakedownReceivedOut, codes_4xx: ErrorOut},
    summary="Ask to remove or correct a player's profile (no account needed)",
    description="For the athlete or a parent/guardian. Nothing changes until the request is "
    "confirmed from the link emailed to contactEmail (status unconfirmed; admins see it). "
    "404 for a player nobody can see. 429 with Retry-After beyond "
    "`BUDGET_TAKEDOWNS_PER_HOUR` per client address or `BUDGET_TAKEDOWN_EMAILS_PER_DAY` "
    "per recipient, or for an address already seen for the player once "
    "`BUDGET_TAKEDOWNS_PER_PLAYER_PER_DAY` requests about it were confirmed; 409 "
    "`already_sent` while one from this address waits for confirmation, `emails_stopped` "
    "when the address asked for no more emails.",
)
def takedown_create(request: HttpRequest, payload: TakedownIn) -> Status[object]:
    takedown = takedowns.takedown_request_create(
        nomination_id=payload.nomination_id,
        relationship=payload.relationship,
        kind=payload.kind,
        contact_email=payload.contact_email,
        details=payload.details or "",
        client_address=client_ip(request),
        confirm_url=request.build_absolute_uri(CONFIRM_PAGE),
    )
    return Status(201, takedown)


@community_router.post(
    "/takedown-requests/confirm",
    auth=csrf_only,
    response={200: TakedownConfirmedOut, codes_4xx: ErrorOut},
    summary="Confirm a takedown request from the link of its email (no account needed)",
    description="The player is hidden from the public at once and marked under review for "
    "members, unless admins already reviewed it and kept it on the site or the email domain "
    "used its confirmations of the day (then the request waits for them); it is taken down "
    "for everyone once `TAKEDOWN_INDEPENDENT_CONFIRMATIONS` requests from different email "
    "domains and networks are confirmed. 400 `invalid_link` or `link_expired`.",
)
def takedown_confirm(request: HttpRequest, payload: TakedownConfirmIn) -> object:
    return takedowns.takedown_request_confirm(
        token=payload.token, client_address=client_ip(request)
    )


@community_router.post(
    "/takedown-requests/stop-emails",
    auth=csrf_only,
    response={204: None, codes_4xx: ErrorOut},
    summary="Send no more takedown confirmation emails to an address (no account needed)",
    description="From the link in a confirmation email. 400 `invalid_link`.",
)
def takedown_stop_emails(request: HttpRequest, payload: TakedownStopIn) -> Status[None]:
    takedowns.takedown_emails_stop(token=payload.token)
    return Status(204, None)


@community_router.get(
    "/nominations/{int:nomination_id}/under-review",
    response={200: UnderReviewOut, codes_4xx: ErrorOut},
    summary="Whether a player page is under review after a takedown request (members)",
)
def under_review(request: HttpRequest, nomination_id: int) -> dict[str, bool]:
    return {"under_review": selectors.player_under_review(nomination_id)}
