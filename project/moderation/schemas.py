"""Wire shapes of the admin calls (camelCase)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from pydantic import AfterValidator, BeforeValidator, Field, JsonValue

from project.common.schemas import CamelSchema, InputSchema, checked, one_of, spec_error
from project.scouting.schemas import NominationEventOut, PlayerOut, UserRefOut

ASSIGNABLE_ROLES = ("scout", "admin")
REASON_MAX = 500


class AdminStatsOut(CamelSchema):
    pending_nominations: int
    approved_nominations: int
    rejected_nominations: int
    total_votes: int
    active_scouts: int = Field(description="Active accounts with the scout role")
    total_nominations: int


class ModerationChangedOut(CamelSchema):
    """moderation.changed: the admin tabs' counts after a decision, the decided item, the
    decision and who made it."""

    pending: int
    approved: int
    rejected: int
    item: NominationEventOut
    action: Literal["approved", "rejected"]
    by: UserRefOut | None


class AdminUserOut(CamelSchema):
    id: int
    name: str
    username: str
    email: str
    role: str
    points: int


class AdminLeaderboardOut(CamelSchema):
    id: int
    name: str
    username: str
    points: int


class LeaderboardQuery(CamelSchema):
    limit: int = Field(10, description="How many (default 10, at most 100)")


def _reason(value: str | None) -> str:
    value = (value or "").strip()
    if len(value) > REASON_MAX:
        raise spec_error(f"Reason must be at most {REASON_MAX} characters")
    return value


# The bound is told in the schema (and so to the SPA's fields) and checked after trimming by
# the validator, which answers in the product's words.
REASON_SCHEMA: dict[str, JsonValue] = {"maxLength": REASON_MAX}


class RejectIn(InputSchema):
    reason: Annotated[str | None, AfterValidator(_reason)] = Field(
        None,
        description="Optional; kept on the nomination and told to the nominator",
        json_schema_extra=REASON_SCHEMA,
    )


def _strict_bool(value: Any) -> Any:
    if not isinstance(value, bool):
        raise spec_error("verified must be true or false")
    return value


class VerifiedIn(CamelSchema):
    verified: Annotated[bool, BeforeValidator(_strict_bool)]


class RoleIn(InputSchema):
    role: Annotated[
        str,
        AfterValidator(one_of(ASSIGNABLE_ROLES, "Role must be scout or admin")),
        Field(json_schema_extra={"enum": list(ASSIGNABLE_ROLES)}),
    ]


class DecisionConflictOut(CamelSchema):
    """409 when another admin decided first: who, and what they decided."""

    message: str
    code: Literal["already_decided"]
    status: str
    decided_by: UserRefOut | None


# --- Reports, takedown requests, export -----------------------------------------------------

REPORT_TEXT_MAX = 2000
TAKEDOWN_DETAILS_MAX = 4000
REASON_REQUIRED = "A reason is required"
ONE_REPORT_TARGET = "Give exactly one of nominationId, userId, endorsementId or commentId"


def _optional_text(limit: int, label: str) -> Any:
    def check(value: str | None) -> str:
        value = (value or "").strip()
        if len(value) > limit:
            raise spec_error(f"{label} must be at most {limit} characters")
        return value

    return check


def _required_reason(value: str) -> str:
    value = _reason(value)
    if not value:
        raise spec_error(REASON_REQUIRED)
    return value


def _email(value: str) -> str:
    value = value.strip()
    try:
        validate_email(value)
    except DjangoValidationError:
        raise spec_error("Invalid email address") from None
    return value


RequiredReason = Annotated[
    str, AfterValidator(_required_reason), Field(json_schema_extra=REASON_SCHEMA)
]


class ReportIn(InputSchema):
    nomination_id: int | None = Field(None, description="Report a nomination ...")
    user_id: int | None = Field(None, description="... or a scout profile ...")
    endorsement_id: int | None = Field(None, description="... or an endorsement ...")
    comment_id: int | None = Field(None, description="... or a comment (exactly one)")
    reason: Literal["not_real", "wrong_information", "inappropriate", "privacy", "other"]
    text: Annotated[
        str | None,
        checked(_optional_text(REPORT_TEXT_MAX, "Details"), maxLength=REPORT_TEXT_MAX),
    ] = Field(None, description="Optional details")


class ReportCreatedOut(CamelSchema):
    id: int
    reason: str
    created_at: datetime


class ReportItemOut(CamelSchema):
    id: int
    reason: str
    text: str
    created_at: datetime
    reporter: UserRefOut


class ReportedEndorsementOut(CamelSchema):
    """A reported endorsement as admins see it (with its rating)."""

    id: int
    player_id: int
    player_name: str
    nomination_id: int | None = Field(description="The player's page: /nominations/{id}")
    content: str
    rating: int | None
    endorser: UserRefOut
    removed_at: datetime | None


class ReportGroupOut(CamelSchema):
    """The open reports of one item: a nomination, a scout profile or an endorsement."""

    target_type: Literal["nomination", "user", "endorsement"]
    target_id: int
    nomination: NominationEventOut | None = None
    user: UserRefOut | None = None
    endorsement: ReportedEndorsementOut | None = None
    count: int
    first_reported_at: datetime
    last_reported_at: datetime
    reports: list[ReportItemOut]


class ReportResolveIn(InputSchema):
    nomination_id: int | None = None
    user_id: int | None = None
    endorsement_id: int | None = None
    action: Literal[
        "dismiss", "edit_player", "hide_nomination", "hide_endorsement", "warn_user", "remove_user"
    ]
    reason: RequiredReason


class ReportResolvedOut(CamelSchema):
    resolved: int = Field(description="How many open reports this resolved")
    action: str


class TakedownIn(InputSchema):
    nomination_id: int = Field(description="The player's page: /nominations/{id}")
    relationship: Literal["athlete", "parent_or_guardian"]
    kind: Literal["remove", "correct"] = Field(description="Remove the profile or correct it")
    contact_email: Annotated[str, Field(max_length=254), AfterValidator(_email)]
    details: Annotated[
        str | None,
        checked(_optional_text(TAKEDOWN_DETAILS_MAX, "Details"), maxLength=TAKEDOWN_DETAILS_MAX),
    ] = Field(None, description="What to change, or anything the moderators should know")


class TakedownReceivedOut(CamelSchema):
    reference: str
    status: str = Field(description="unconfirmed: nothing happens until the emailed link")


class TakedownConfirmIn(InputSchema):
    token: Annotated[str, Field(min_length=1, max_length=200)] = Field(
        description="The token of the emailed link (/takedown/confirm?token=...)"
    )


class TakedownConfirmedOut(CamelSchema):
    reference: str
    status: str
    player_hidden: bool = Field(
        description="Whether the profile is off the site now, for everyone but admins"
    )
    under_review: bool = Field(
        description="Whether the profile is hidden from the public (previews, share cards) "
        "and marked under review for members while moderators review it (both false when the "
        "request waits for them without hiding anything)"
    )


class TakedownOut(CamelSchema):
    id: int
    reference: str
    status: str
    relationship: str
    kind: str
    contact_email: str
    details: str
    created_at: datetime
    confirmed_at: datetime | None
    decided_at: datetime | None
    decided_by: UserRefOut | None
    decision_reason: str
    nomination_id: int | None
    player: PlayerOut


class TakedownRefusalOut(CamelSchema):
    player: PlayerOut
    reason: str = Field(
        description="network (per client address), recipient (confirmation emails to one "
        "address), player (enough confirmed requests; the address was seen before), "
        "open_request (one waits for confirmation), emails_stopped"
    )
    day: date
    count: int
    last_at: datetime


class TakedownStopIn(InputSchema):
    token: Annotated[str, Field(min_length=1, max_length=200)] = Field(
        description="The token of the emailed link (/takedown/stop-emails?token=...)"
    )


class UnderReviewOut(CamelSchema):
    under_review: bool = Field(
        description="A confirmed takedown request waits for review: the public does not see "
        "the player meanwhile"
    )


class TakedownListQuery(CamelSchema):
    status: Literal["open", "unconfirmed", "pending", "removed", "corrected", "restored"] = Field(
        "open", description="open: unconfirmed and pending (those an admin can decide)"
    )


class TakedownDecideIn(InputSchema):
    decision: Literal["remove", "correct", "restore"] = Field(
        description="remove: the profile stays off the site; correct (after editing the "
        "player) or restore: it is shown again"
    )
    reason: RequiredReason


class RestoreIn(InputSchema):
    reason: RequiredReason
