"""Wire shapes of the admin calls (spec section 3 read shapes, camelCase)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BeforeValidator, Field

from project.common.schemas import CamelSchema, InputSchema, one_of, spec_error
from project.scouting.schemas import UserRefOut

ASSIGNABLE_ROLES = ("scout", "admin")
REASON_MAX = 500


class AdminStatsOut(CamelSchema):
    pending_nominations: int
    approved_nominations: int
    rejected_nominations: int
    total_votes: int
    active_scouts: int = Field(description="Active accounts with the scout role")
    total_nominations: int


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


class RejectIn(InputSchema):
    reason: Annotated[str | None, AfterValidator(_reason)] = Field(
        None, description="Optional; kept on the nomination and told to the nominator"
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
