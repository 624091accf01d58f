"""Adults' quests, streaks and referrals (project/engagement)."""

from __future__ import annotations

from project.settings.env import setting

REFERRAL_POINTS = setting(
    "REFERRAL_POINTS",
    25,
    "Points a member earns when an account they referred qualifies.",
)
REFERRAL_MONTHLY_CAP = setting(
    "REFERRAL_MONTHLY_CAP",
    10,
    "Referrals rewarded per member in a calendar month (UTC) at most; past it a qualifying "
    "referral is not rewarded.",
)
REFERRAL_QUALIFY_DAYS = setting(
    "REFERRAL_QUALIFY_DAYS",
    7,
    "Days a referred account must exist before it can qualify.",
)
REFERRAL_ACTIVE_DAYS = setting(
    "REFERRAL_ACTIVE_DAYS",
    3,
    "Different days (its own time zone) on which a referred account must have voted or "
    "nominated to qualify.",
)
REFERRAL_DECIDE_DAYS = setting(
    "REFERRAL_DECIDE_DAYS",
    30,
    "Days a referral waits to qualify; past them it is not rewarded (inactive).",
)
