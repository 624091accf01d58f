from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import F
from django.utils import timezone

from project.accounts.models import User
from project.accounts.selectors import scout_get
from project.common.errors import NotFound
from project.common.schemas import camel_keys
from project.engagement import gate
from project.engagement.models import (
    ActiveDay,
    EngagementSettings,
    Referral,
    ReferralState,
    Streak,
    UserQuest,
)
from project.engagement.schemas import ReferralsOut, ReferredOut
from project.engagement.services.referrals import referral_link

STREAK_NOT_SHOWN = "Streak not shown"


def referrals_get(*, user: User) -> ReferralsOut:
    """The member's code, link and the accounts they referred (newest first)."""
    referred = (
        Referral.objects.filter(referrer_id=user.pk)
        .select_related("referred")
        .order_by("-created_at", "-id")
    )
    now = timezone.now()
    month = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    return ReferralsOut(
        code=user.referral_code,
        link=referral_link(user.referral_code),
        points_per_referral=settings.REFERRAL_POINTS,
        rewarded_this_month=sum(
            1
            for r in referred
            if r.state == ReferralState.REWARDED and r.decided_at and r.decided_at >= month
        ),
        monthly_cap=settings.REFERRAL_MONTHLY_CAP,
        referred=[
            ReferredOut(
                name=referral.referred.name,
                joined_at=referral.referred.created_at,
                state=referral.state,  # type: ignore[arg-type]
                reason=referral.reason,
            )
            for referral in referred
        ],
    )


def streak_on_profile(*, viewer: User, user_id: int) -> tuple[int, int]:
    """A member's streak (current, longest) as their profile shows it: only when they are an
    adult who turned showStreak on and the viewer may see their profile; 404 otherwise."""
    scout = scout_get(viewer=viewer, user_id=user_id)
    if not gate.streak_shown(scout):
        raise NotFound(STREAK_NOT_SHOWN, code="streak_not_shown")
    streak = Streak.objects.filter(user_id=scout.pk).first()
    return (streak.current, streak.longest) if streak else (0, 0)


def engagement_export(user: User) -> dict[str, Any]:
    """What engagement holds about ``user``, for their export of their own data."""
    settings_row = (
        EngagementSettings.objects.filter(user_id=user.pk)
        .values("quests", "show_streak", "updated_at")
        .first()
    )
    streak = (
        Streak.objects.filter(user_id=user.pk)
        .values("current", "longest", "last_day", "freezes_used", "broken_length", "repair_until")
        .first()
    )
    runs = (
        UserQuest.objects.filter(user_id=user.pk)
        .order_by("id")
        .values(
            "period_start", "progress", "completed_at", "expires_at", quest_type=F("quest__type")
        )
    )
    referred = (
        Referral.objects.filter(referrer_id=user.pk)
        .order_by("id")
        .values("referred_id", "state", "reason", "created_at", "decided_at")
    )
    return {
        "engagement": {
            "settings": camel_keys(settings_row) if settings_row else None,
            "streak": camel_keys(streak) if streak else None,
            "quests": [camel_keys(run) for run in runs],
            "activeDays": list(
                ActiveDay.objects.filter(user_id=user.pk)
                .order_by("day")
                .values_list("day", flat=True)
            ),
            "referred": [camel_keys(row) for row in referred],
        }
    }
