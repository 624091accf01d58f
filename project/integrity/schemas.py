"""Wire shapes of vote integrity: flags, voter lists, void and restore."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from project.common.schemas import CamelSchema, InputSchema
from project.integrity.models import FlagRule, FlagStatus


class FlagOut(CamelSchema):
    id: int
    rule: FlagRule
    status: FlagStatus
    nomination_id: int | None = Field(None, description="The nomination voted (rules a and c)")
    player_name: str = Field("", description="Its player's name, for people")
    accounts: list[int] = Field(description="The accounts whose votes the flag is about")
    nominators: list[int] = Field(description="The nominators who received them (rules b, d)")
    evidence: dict[str, Any] = Field(description="The numbers that matched the rule")
    explanation: str = Field(description="The rule and its numbers, in words")
    created_at: datetime
    updated_at: datetime

    @staticmethod
    def resolve_player_name(obj: Any) -> str:
        return getattr(obj, "player_name", None) or ""


class FlagQuery(CamelSchema):
    status: FlagStatus | None = Field(None, description="One status only (default: every flag)")


class VoteSelectionIn(InputSchema):
    """Which votes: a flag's, or every vote between these users (each one's votes on the
    others' nominations)."""

    flag_id: int | None = None
    user_ids: list[int] | None = Field(None, max_length=100)
    reason: str = Field("", max_length=2000)


class CountOut(CamelSchema):
    nomination_id: int
    vote_count: int
    version: int


class VoteSelectionOut(CamelSchema):
    votes: int = Field(description="How many votes changed status")
    nominations: list[CountOut] = Field(description="The new counts of the nominations touched")


class AuditVoteOut(CamelSchema):
    id: int
    nomination_id: int
    player_name: str
    nominator_id: int
    voter_id: int
    voter_name: str
    voter_username: str
    voted_at: datetime
    account_created_at: datetime
    account_age_hours: float = Field(description="The voter account's age when it voted")
    cluster_id: str = Field(
        description="IP-cluster id: a keyed hash of the /24 or /48 (never the address); empty "
        "once the retention period has passed"
    )
    trusted: bool = Field(description="Whether it counts on the boards and in points")
    status: str = Field(description="active, or void when an admin voided it")

    @staticmethod
    def resolve_account_age_hours(obj: Any) -> float:
        return round((obj.voted_at - obj.account_created_at).total_seconds() / 3600, 1)


class VoterListViewOut(CamelSchema):
    id: int
    viewer_id: int
    viewer_name: str
    target_type: str
    target_id: int
    created_at: datetime
