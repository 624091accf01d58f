from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from project.accounts.schemas import SingleSettingIn
from project.common.schemas import CamelSchema, spec_error


def _strict_bool(name: str) -> Any:
    def check(value: Any) -> Any:
        if value is not None and not isinstance(value, bool):
            raise spec_error(f"{name} must be true or false")
        return value

    return BeforeValidator(check)


class EngagementSettingsIn(SingleSettingIn):
    quests: Annotated[bool | None, _strict_bool("quests")] = None
    show_streak: Annotated[bool | None, _strict_bool("showStreak")] = None


class EngagementSettingsOut(CamelSchema):
    quests: bool
    show_streak: bool


class QuestOut(CamelSchema):
    """A member's quest in its current period (``quest.progress`` carries one too)."""

    type: Literal["daily_vote", "weekly_votes", "follow_players", "share_profile"]
    name: str
    description: str
    points_reward: int
    progress: int
    target: int
    completed: bool
    completed_at: datetime | None
    # The end of the period in the member's time zone (ISO 8601 with its offset); null for a
    # quest done once.
    expires_at: datetime | None


class QuestsOut(CamelSchema):
    enabled: bool
    time_zone: str
    quests: list[QuestOut]


class StreakOut(CamelSchema):
    current: int
    longest: int
    last_day: date | None
    freezes_left: int
    # A broken streak that activity before ``repairUntil`` earns back.
    broken_length: int
    repair_until: datetime | None
    shown_on_profile: bool


class ReferredOut(CamelSchema):
    name: str
    joined_at: datetime
    state: Literal["waiting", "rewarded", "not_rewarded"]
    # Why not rewarded: too_new (not yet), same_network, flagged, monthly_cap, inactive,
    # not_adult, deleted; "" otherwise.
    reason: str


class ReferralsOut(CamelSchema):
    code: str
    link: str
    points_per_referral: int
    rewarded_this_month: int
    monthly_cap: int
    referred: list[ReferredOut]


class ReferralNodeOut(CamelSchema):
    """One account of a referral tree: who they are, how their referral stands, the integrity
    flags naming them, and the accounts they referred in turn."""

    id: int
    name: str
    username: str
    joined_at: datetime
    state: str
    reason: str
    open_flags: int
    flags: int
    referred: list[ReferralNodeOut]


class ReferralTreeOut(CamelSchema):
    """A member's place in the invitation tree: who invited them (up to the root) and whom
    they invited, down to ``depth`` levels."""

    invited_by: list[ReferralNodeOut]
    member: ReferralNodeOut
