"""Wire shapes of coach verifications and endorsements (camelCase)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import URLValidator, validate_email
from pydantic import Field, model_validator

from project.common.schemas import CamelSchema, Checked, InputSchema, checked, spec_error
from project.scouting.schemas import UserRefOut

ORGANIZATION_MAX = 200
ROLE_TITLE_MAX = 100
EVIDENCE_URL_MAX = 500
WORK_EMAIL_MAX = 254
ENDORSEMENT_MAX = 2000
REASON_MAX = 500
EVIDENCE_REQUIRED = "Give a roster or staff page link, a work email, or both"
CONTENT_REQUIRED = "Write what you have seen of the player"
RATING_RANGE = "Rating must be from 1 to 5"


def _required_text(limit: int, label: str) -> Checked:
    def check(value: str) -> str:
        value = value.strip()
        if not value:
            raise spec_error(f"{label} is required")
        if len(value) > limit:
            raise spec_error(f"{label} must be at most {limit} characters")
        return value

    return checked(check, minLength=1, maxLength=limit)


def _evidence_url(value: str | None) -> str:
    value = (value or "").strip()
    if not value:
        return ""
    if len(value) > EVIDENCE_URL_MAX:
        raise spec_error(f"Link must be at most {EVIDENCE_URL_MAX} characters")
    try:
        URLValidator(schemes=["http", "https"])(value)
    except DjangoValidationError:
        raise spec_error("Enter a valid link (https://...)") from None
    return value


def _work_email(value: str | None) -> str:
    value = (value or "").strip()
    if not value:
        return ""
    try:
        validate_email(value)
    except DjangoValidationError:
        raise spec_error("Invalid email address") from None
    return value


def _content(value: str) -> str:
    value = value.strip()
    if not value:
        raise spec_error(CONTENT_REQUIRED)
    if len(value) > ENDORSEMENT_MAX:
        raise spec_error(f"Endorsement must be at most {ENDORSEMENT_MAX:,} characters")
    return value


def _rating(value: int) -> int:
    if not 1 <= value <= 5:
        raise spec_error(RATING_RANGE)
    return value


def _reason(value: str | None) -> str:
    value = (value or "").strip()
    if len(value) > REASON_MAX:
        raise spec_error(f"Reason must be at most {REASON_MAX} characters")
    return value


class CoachVerificationIn(InputSchema):
    organization: Annotated[str, _required_text(ORGANIZATION_MAX, "Club or school")] = Field(
        description="The club or school the member coaches at"
    )
    role_title: Annotated[str, _required_text(ROLE_TITLE_MAX, "Role")] = Field(
        description="Their role there (head coach, assistant coach, ...)"
    )
    evidence_url: Annotated[str | None, checked(_evidence_url, maxLength=EVIDENCE_URL_MAX)] = Field(
        None, description="A public roster or staff page naming them"
    )
    work_email: Annotated[str | None, checked(_work_email, maxLength=WORK_EMAIL_MAX)] = Field(
        None, description="A work email at the club or school: a signed link is sent to it"
    )

    @model_validator(mode="after")
    def _some_evidence(self) -> CoachVerificationIn:
        if not self.evidence_url and not self.work_email:
            raise spec_error(EVIDENCE_REQUIRED)
        return self


class CoachVerificationOut(CamelSchema):
    """A coach verification as its member sees it."""

    id: int
    organization: str
    role_title: str
    evidence_url: str
    work_email: str
    email_confirmed: bool
    status: Literal["pending", "approved", "rejected", "withdrawn"]
    decision_reason: str
    created_at: datetime
    decided_at: datetime | None


class AdminCoachVerificationOut(CoachVerificationOut):
    """A coach verification in the admins' Coaches tab: with the member and who decided."""

    user: UserRefOut
    decided_by: UserRefOut | None
    endorsements: int = Field(description="How many endorsements the member wrote")


class CoachDecideIn(InputSchema):
    reason: Annotated[str | None, checked(_reason, maxLength=REASON_MAX)] = Field(
        None, description="Optional when approving; told to the member"
    )


class CoachVerificationListQuery(CamelSchema):
    status: Literal["pending", "approved", "rejected", "withdrawn"] = "pending"


class EmailConfirmIn(InputSchema):
    token: Annotated[str, Field(min_length=1, max_length=200)]


class CoachesChangedOut(CamelSchema):
    """coaches.changed: the Coaches tab's pending count, the request that changed and how."""

    pending: int
    item: AdminCoachVerificationOut
    action: Literal["created", "email_confirmed", "approved", "rejected", "withdrawn"]


class EndorsementIn(InputSchema):
    content: Annotated[str, checked(_content, minLength=1, maxLength=ENDORSEMENT_MAX)]
    rating: Annotated[int, checked(_rating, minimum=1, maximum=5)]


class EndorsementCoachOut(UserRefOut):
    """The coach who wrote an endorsement, with where they coach."""

    organization: str
    role_title: str


class EndorsementOut(CamelSchema):
    id: int
    player_id: int
    content: str
    rating: int | None = Field(
        description="Only for verified coaches, the player's claimant and admins; else null"
    )
    coach: EndorsementCoachOut
    hidden: bool = Field(
        description="Hidden from the page by the claimant (only they and admins see it)"
    )
    created_at: datetime
    updated_at: datetime


class EndorsementListOut(CamelSchema):
    """A player's endorsements as the reader may see them."""

    items: list[EndorsementOut]
    count: int = Field(description="Endorsements shown on the page (verified coaches)")
    rating_visible: bool
    can_endorse: bool = Field(description="The reader is a verified coach")
    can_hide: bool = Field(description="The reader is the player's claimant")


class EndorsementsChangedOut(CamelSchema):
    """endorsements.changed: a player's endorsements changed (read them again); no text nor
    rating, which depend on the reader."""

    player_id: int
    count: int


class CoachIdsOut(CamelSchema):
    """Every verified coach's id: the SPA shows the "Verified coach" badge by their names."""

    ids: list[int]
