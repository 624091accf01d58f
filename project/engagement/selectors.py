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
from project.engagement.schemas import (
    ReferralNodeOut,
    ReferralsOut,
    ReferralTreeOut,
    ReferredOut,
)
from project.engagement.services.referrals import referral_link
from project.integrity.models import FlagStatus, IntegrityFlag

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


TREE_DEPTH = 4


def _flag_counts(user_ids: set[int]) -> dict[int, tuple[int, int]]:
    """Per account, (open flags, all flags) naming it."""
    counts: dict[int, tuple[int, int]] = {}
    for accounts, status in IntegrityFlag.objects.values_list("accounts", "status"):
        for account in set(accounts or []) & user_ids:
            open_, all_ = counts.get(account, (0, 0))
            counts[account] = (open_ + (status == FlagStatus.OPEN), all_ + 1)
    return counts


def referral_tree(*, user_id: int, depth: int = TREE_DEPTH) -> ReferralTreeOut:
    """For admins: the member's inviters up to the root and their invitations ``depth`` levels
    down (Lobsters' invitation tree), each account with its referral's state and flags."""
    member = User.objects.filter(pk=user_id).first()
    if member is None:
        raise NotFound("Scout not found", code="not_found")
    chain: list[User] = []
    seen = {member.pk}
    current = member
    while current.referred_by_id is not None and current.referred_by_id not in seen:
        parent = User.objects.filter(pk=current.referred_by_id).first()
        if parent is None:
            break
        chain.append(parent)
        seen.add(parent.pk)
        current = parent
    levels: list[list[Referral]] = []
    frontier = [member.pk]
    for _ in range(depth):
        found = list(
            Referral.objects.filter(referrer_id__in=frontier)
            .select_related("referred")
            .order_by("created_at", "id")
        )
        if not found:
            break
        levels.append(found)
        frontier = [referral.referred_id for referral in found]
    everyone = seen | {r.referred_id for level in levels for r in level}
    flags = _flag_counts(everyone)
    states = {
        r.referred_id: (r.state, r.reason)
        for r in Referral.objects.filter(referred_id__in=everyone)
    }
    children: dict[int, list[int]] = {}
    users = {member.pk: member, **{u.pk: u for u in chain}}
    for level in levels:
        for referral in level:
            children.setdefault(referral.referrer_id, []).append(referral.referred_id)
            users[referral.referred_id] = referral.referred

    def node(user: User, *, below: bool) -> ReferralNodeOut:
        state, reason = states.get(user.pk, ("", ""))
        open_flags, all_flags = flags.get(user.pk, (0, 0))
        return ReferralNodeOut(
            id=user.pk,
            name=user.name,
            username=user.username,
            joined_at=user.date_joined,
            state=state,
            reason=reason,
            open_flags=open_flags,
            flags=all_flags,
            referred=[node(users[c], below=True) for c in children.get(user.pk, [])]
            if below
            else [],
        )

    return ReferralTreeOut(
        invited_by=[node(user, below=False) for user in chain],
        member=node(member, below=True),
    )
