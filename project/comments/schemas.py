"""Wire shapes of comments (camelCase)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field

from project.common.schemas import CamelSchema, InputSchema, checked, spec_error

CONTENT_MAX = 1000
CONTENT_REQUIRED = "Comment is required"
CONTENT_TOO_LONG = f"Comment must be at most {CONTENT_MAX} characters"

Badge = Literal["admin", "nominator", "family", "athlete"]


def _content(value: str) -> str:
    value = value.strip()
    if not value:
        raise spec_error(CONTENT_REQUIRED)
    if len(value) > CONTENT_MAX:
        raise spec_error(CONTENT_TOO_LONG)
    return value


class CommentIn(InputSchema):
    content: Annotated[str, checked(_content, minLength=1, maxLength=CONTENT_MAX)]


class CommentAuthorOut(CamelSchema):
    id: int
    name: str
    username: str
    badges: list[Badge] = Field(
        description="admin; nominator (of this nomination); family or athlete (manages the "
        "player's page)"
    )


class CommentEventOut(CamelSchema):
    """A comment as everyone who may see it reads it (comment.created carries it)."""

    id: int
    nomination_id: int
    author: CommentAuthorOut
    content: str
    created_at: datetime
    status: Literal["published", "pending"] = Field(
        description="pending: awaiting review, seen by its author and admins only"
    )
    comment_count: int = Field(description="The nomination's published comments now")


class CommentOut(CommentEventOut):
    can_delete: bool = Field(description="The reader may delete it (author, claimant, admin)")


class CommentsPageOut(CamelSchema):
    """A nomination's comments, oldest first, and whether members may comment."""

    open: bool
    closed_reason: str | None = Field(None, description="Why comments are off, for the section")
    minor: bool = Field(description="Contact details are refused on this page")
    can_moderate: bool = Field(
        description="The reader deletes any comment here (the player's claimant, admins): "
        "what a comment arriving live is given"
    )
    items: list[CommentOut]


class CommentRemovedOut(CamelSchema):
    """comment.removed: a comment left the page (deleted, removed or held on reports)."""

    id: int
    nomination_id: int
    comment_count: int


class HoldReasonOut(CamelSchema):
    code: Literal["new_member", "low_trust", "watched_word", "classifier", "reports"]
    label: str
    detail: str


class CommentReportOut(CamelSchema):
    reason: str
    text: str
    weight: float
    created_at: datetime
    reporter: dict[str, Any]


class AdminCommentOut(CamelSchema):
    id: int
    nomination_id: int
    player_name: str
    author: CommentAuthorOut
    content: str
    created_at: datetime
    status: Literal["published", "pending", "removed"]
    reasons: list[HoldReasonOut]
    classifier_score: float
    watched_words: list[str]
    report_weight: float
    reports: list[CommentReportOut]


class AdminCommentQuery(CamelSchema):
    status: Literal["pending", "reported", "removed"] = "pending"


class CommentDecisionIn(InputSchema):
    reason: str = ""


class CommentReviewChangedOut(CamelSchema):
    """comments.review: the Comments tab's pending count and the comment that changed."""

    pending: int
    id: int
    action: Literal["held", "reported", "approved", "removed", "deleted"]
    item: AdminCommentOut | None = None


class CommentReportCreatedOut(CamelSchema):
    id: int
    reason: str
    created_at: datetime
