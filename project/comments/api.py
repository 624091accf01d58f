"""Comments on a nomination (members) and their review (admins)."""

from __future__ import annotations

from functools import partial
from typing import Any

from django.http import HttpRequest
from ninja import Query, Status
from ninja.responses import codes_4xx

from project.accounts.auth import admin_auth, current_user
from project.comments import selectors, services
from project.comments.schemas import (
    AdminCommentOut,
    AdminCommentQuery,
    CommentDecisionIn,
    CommentIn,
    CommentOut,
    CommentsPageOut,
)
from project.common.budgets import budget_for
from project.common.pagination import paginate
from project.common.router import Router
from project.common.schemas import ErrorOut

router = Router(tags=["comments"])
admin_router = Router(tags=["admin"], auth=admin_auth)


@router.get(
    "/nominations/{int:nomination_id}/comments",
    response={200: CommentsPageOut, codes_4xx: ErrorOut},
    summary="A nomination's comments, oldest first, and whether members may comment",
    description="`open` false with `closedReason` while comments are off: the player is under "
    "13 (or of unknown age), its claimant turned them off (then no comments are listed), or "
    "the nomination is not live. A held comment (`status` `pending`) is listed to its author "
    "and admins only. `minor`: contact details are refused on this page. 404 as the "
    "nomination's.",
)
@paginate(ordering=selectors.OLDEST_FIRST)
def comment_list(request: HttpRequest, nomination_id: int) -> dict[str, Any]:
    viewer = current_user(request)
    nomination, section = selectors.comments_section(viewer=viewer, nomination_id=nomination_id)
    return {
        **section,
        "items": partial(selectors.comment_page, viewer=viewer, nomination=nomination),
    }


@router.post(
    "/nominations/{int:nomination_id}/comments",
    response={201: CommentOut, codes_4xx: ErrorOut},
    summary="Comment on a nomination",
    description="`content`: 1 to 1,000 characters. 403 `comments_off` with the reason while "
    "comments are off; 400 `contact_details` for a phone number, email address, link or "
    "social handle on a minor's page. A new or flagged member's comment, or one with a watched "
    "word or a high classifier score, is held for review (`status` `pending`). 429 "
    "`throttled` with `Retry-After` beyond `BUDGET_COMMENTS_PER_MINUTE` or "
    "`BUDGET_COMMENTS_PER_DAY` per member (a refused comment spends nothing).",
)
def comment_create(request: HttpRequest, nomination_id: int, payload: CommentIn) -> Status[object]:
    author = current_user(request)
    with budget_for("COMMENTS", author.pk, "MINUTE", "DAY"):
        comment = services.comment_create(
            author=author, nomination_id=nomination_id, content=payload.content
        )
    return Status(201, {**selectors.comment_data(comment), "canDelete": True})


@router.delete(
    "/comments/{int:comment_id}",
    response={204: None, codes_4xx: ErrorOut},
    summary="Delete a comment (its author, the player's claimant or an admin)",
    description="403 `not_allowed` for anyone else who sees it; 404 for a comment the reader "
    "does not see.",
)
def comment_delete(request: HttpRequest, comment_id: int) -> Status[None]:
    services.comment_delete(viewer=current_user(request), comment_id=comment_id)
    return Status(204, None)


@admin_router.get(
    "/comments",
    response={200: list[AdminCommentOut], codes_4xx: ErrorOut},
    summary="The Comments tab: held, reported or removed comments, the longest waiting first",
    description="`status` `pending` (held: new member, low trust, watched word, classifier "
    "score or reports, each in `reasons`), `reported` (published with open reports) or "
    "`removed`.",
)
@paginate(ordering=selectors.OLDEST_FIRST)
def admin_comments(request: HttpRequest, filters: Query[AdminCommentQuery]) -> Any:
    queryset = selectors.admin_comments(status=filters.status)

    def page(**kwargs: Any) -> Any:
        from project.common.pagination import keyset_paginate

        rows = keyset_paginate(queryset, ordering=selectors.OLDEST_FIRST, **kwargs)
        return selectors.CommentPage(
            items=[selectors.admin_comment_data(comment) for comment in rows.items],
            next_cursor=rows.next_cursor,
        )

    return page


@admin_router.post(
    "/comments/{int:comment_id}/approve",
    response={200: AdminCommentOut, codes_4xx: ErrorOut},
    summary="Publish a held comment, or restore a removed one (in the moderation log)",
    description="Its open reports are dismissed; its notifications go now. 409 "
    "`already_decided` for a published one.",
)
def admin_comment_approve(
    request: HttpRequest, comment_id: int, payload: CommentDecisionIn
) -> dict[str, Any]:
    comment = services.comment_approve(
        admin=current_user(request), comment_id=comment_id, reason=payload.reason
    )
    return selectors.admin_comment_data(comment)


@admin_router.post(
    "/comments/{int:comment_id}/remove",
    response={200: AdminCommentOut, codes_4xx: ErrorOut},
    summary="Remove a held or reported comment (in the moderation log)",
    description="Its open reports are upheld (their reporters' records gain). 409 "
    "`already_decided` for a removed one.",
)
def admin_comment_remove(
    request: HttpRequest, comment_id: int, payload: CommentDecisionIn
) -> dict[str, Any]:
    comment = services.comment_remove(
        admin=current_user(request), comment_id=comment_id, reason=payload.reason
    )
    return selectors.admin_comment_data(comment)
