from __future__ import annotations

from django.conf import settings
from django.utils import timezone

from project.accounts.models import User
from project.accounts.selectors import scout_get
from project.common.errors import NotFound
from project.engagement import gate
from project.engagement.models import Referral, ReferralState, Streak
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
