"""Wire shapes of claims and the claimant's controls (camelCase)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from django.utils import timezone
from pydantic import AfterValidator, Field, StrictBool

from project.common.schemas import CamelSchema, InputSchema, spec_error
from project.scouting.schemas import PlayerOut, UserRefOut

EVIDENCE_MAX = 1000
REASON_MAX = 500
PHONE_MAX = 32
EVIDENCE_REQUIRED = "Tell us how we can check the claim"
BIRTH_YEAR_INVALID = "Enter a valid year of birth"


def _evidence(value: str) -> str:
    value = value.strip()
    if not value:
        raise spec_error(EVIDENCE_REQUIRED)
    if len(value) > EVIDENCE_MAX:
        raise spec_error(f"Evidence must be at most {EVIDENCE_MAX} characters")
    return value


def _birth_year(value: int) -> int:
    year = timezone.localdate().year
    if not year - 100 <= value <= year:
        raise spec_error(BIRTH_YEAR_INVALID)
    return value


def _phone(value: str | None) -> str:
    value = (value or "").strip()
    if len(value) > PHONE_MAX:
        raise spec_error(f"Contact phone must be at most {PHONE_MAX} characters")
    return value


def _reason(value: str | None) -> str:
    value = (value or "").strip()
    if len(value) > REASON_MAX:
        raise spec_error(f"Reason must be at most {REASON_MAX} characters")
    return value


class ClaimIn(InputSchema):
    relationship: Literal["self", "parent_or_guardian"]
    birth_year: Annotated[int, AfterValidator(_birth_year)] = Field(
        description="The athlete's year of birth"
    )
    evidence: Annotated[str, AfterValidator(_evidence)] = Field(
        description="How admins can check the claim (a club roster link, a coach who can "
        f"vouch), at most {EVIDENCE_MAX} characters"
    )
    contact_phone: Annotated[str | None, AfterValidator(_phone)] = None


class ClaimOut(CamelSchema):
    """A claim as its claimant sees it."""

    id: int
    player_id: int
    relationship: str
    birth_year: int
    evidence: str
    contact_phone: str
    status: Literal["pending", "approved", "rejected", "ended"]
    decision_reason: str
    created_at: datetime
    decided_at: datetime | None


class AdminClaimOut(ClaimOut):
    """A claim in the admins' queue: with the player, the claimant and the nominators."""

    player: PlayerOut
    claimant: UserRefOut
    nominated_by: list[UserRefOut]
    decided_by: UserRefOut | None


class ClaimDecideIn(InputSchema):
    reason: Annotated[str | None, AfterValidator(_reason)] = Field(
        None, description="Optional; told to the claimant"
    )


class ClaimListQuery(CamelSchema):
    status: Literal["pending", "approved", "rejected", "ended"] = "pending"


class ClaimsChangedOut(CamelSchema):
    """claims.changed: the Claims tab's pending count, the claim that changed and how."""

    pending: int
    item: AdminClaimOut
    action: Literal[
        "created", "approved", "rejected", "removed", "restored", "transferred", "revoked"
    ]


class ControlsIn(InputSchema):
    hide_club: StrictBool | None = None
    hide_nationality: StrictBool | None = None
    share_card: StrictBool | None = None
    voting_open: StrictBool | None = None
    comments_open: StrictBool | None = None
    indexable: StrictBool | None = None


class ClaimTransferIn(InputSchema):
    username: str = Field(max_length=150, description="The member who takes the controls")
    relationship: Literal["self", "parent_or_guardian"]
    reason: Annotated[str | None, AfterValidator(_reason)] = None


class AthleteInviteIn(InputSchema):
    username: str = Field(max_length=150, description="The athlete's own account")


class ControlsOut(CamelSchema):
    player_id: int
    managed_by: Literal["family", "athlete"]
    athlete_may_hold: bool = Field(
        description="A guardian holds the controls of an athlete of 16 or over, who may take them"
    )
    athlete: UserRefOut | None = Field(
        description="The athlete's account the guardian named, until it accepts"
    )
    hide_club: bool
    hide_nationality: bool
    share_card: bool
    voting_open: bool
    comments_open: bool
    indexable: bool
    removed_at: datetime | None


class ManagedPlayerOut(CamelSchema):
    """A profile the member holds the controls of, or is invited to take (the athlete)."""

    player_id: int
    name: str
    nomination_id: int | None
    managed_by: Literal["family", "athlete"]
    removed_at: datetime | None
    restore_until: datetime | None
    restorable: bool = Field(description="Removed by the member, and still within the 30 days")
    invited: bool
