"""Quests, streaks and referrals, for adult members only (``project.engagement.gate``): every
route answers 403 ``adults_only`` to anyone else."""

from __future__ import annotations

from django.http import HttpRequest
from ninja import Status
from ninja.responses import codes_4xx

from project.accounts.auth import admin_auth, current_user
from project.accounts.throttle import client_ip
from project.common.router import Router
from project.common.schemas import CamelSchema, ErrorOut
from project.engagement import gate, selectors
from project.engagement.clock import local_now
from project.engagement.models import EngagementSettings, QuestType
from project.engagement.schemas import (
    EngagementSettingsIn,
    EngagementSettingsOut,
    QuestsOut,
    ReferralsOut,
    ReferralTreeOut,
    StreakOut,
)
from project.engagement.services import quests, referrals, streaks

router = Router(tags=["engagement"])
admin_router = Router(tags=["engagement"], auth=admin_auth)

ADULTS = (
    " For adult members only: 403 `adults_only` for an account under 18, with no year of "
    "birth, a claimant athlete's or a player's."
)


def _settings_out(settings: EngagementSettings) -> EngagementSettingsOut:
    return EngagementSettingsOut(quests=settings.quests, show_streak=settings.show_streak)


@router.get(
    "/settings/engagement",
    response={200: EngagementSettingsOut, codes_4xx: ErrorOut},
    summary="My quests and streak switches",
    description="quests (opt-in, off until turned on), showStreak (off: the streak is private)."
    + ADULTS,
)
def engagement_settings(request: HttpRequest) -> object:
    user = current_user(request)
    gate.engagement_require(user)
    return _settings_out(gate.engagement_settings_of(user))


@router.put(
    "/settings/engagement",
    response={200: EngagementSettingsOut, codes_4xx: ErrorOut},
    summary="Change one engagement setting",
    description="Exactly one of quests or showStreak (a boolean); anything else is a 400." + ADULTS,
)
def engagement_settings_update(request: HttpRequest, payload: EngagementSettingsIn) -> object:
    user = current_user(request)
    gate.engagement_require(user)
    field, value = payload.single_change()
    settings, _ = EngagementSettings.objects.update_or_create(
        user_id=user.pk, defaults={field: value}
    )
    return _settings_out(settings)


@router.get(
    "/quests",
    response={200: QuestsOut, codes_4xx: ErrorOut},
    summary="My quests, with progress and expiry",
    description="`enabled` false: the member has not turned quests on (nothing moves). "
    "`expiresAt` is the end of the quest's day or week in the member's time zone, with its "
    "offset; null for a quest done once. Progress moves live (`quest.progress`)." + ADULTS,
)
def quests_get(request: HttpRequest) -> object:
    user = current_user(request)
    gate.engagement_require(user)
    referrals.network_seen(user=user, address=client_ip(request))
    return QuestsOut(
        enabled=gate.engagement_settings_of(user).quests,
        time_zone=str(local_now(user).tzinfo),
        quests=quests.quests_list(user=user),
    )


@router.post(
    "/quests/share-profile",
    response={204: None, codes_4xx: ErrorOut},
    summary="I shared my own scout profile",
    description="Counts toward share_profile (once). No body." + ADULTS,
)
def share_profile(request: HttpRequest) -> Status[None]:
    user = current_user(request)
    gate.engagement_require(user)
    quests.quest_step(user=user, quest_type=QuestType.SHARE_PROFILE, key="share")
    return Status(204, None)


@router.get(
    "/streak",
    response={200: StreakOut, codes_4xx: ErrorOut},
    summary="My streak",
    description="Days in a row (in the member's time zone) with a vote or a nomination; two "
    "freezes a month cover missed days on their own; a broken streak is earned back by "
    "activity before `repairUntil` (48 hours)." + ADULTS,
)
def streak_get(request: HttpRequest) -> object:
    user = current_user(request)
    gate.engagement_require(user)
    return streaks.streak_read(user=user)


class ProfileStreakOut(CamelSchema):
    current: int
    longest: int


@router.get(
    "/users/{int:user_id}/streak",
    response={200: ProfileStreakOut, codes_4xx: ErrorOut},
    summary="A scout's streak, when they show it on their profile",
    description='404 "Streak not shown" unless the scout is an adult who turned showStreak on '
    "(and 404 like their profile when the caller may not see it).",
)
def profile_streak(request: HttpRequest, user_id: int) -> object:
    current, longest = selectors.streak_on_profile(viewer=current_user(request), user_id=user_id)
    return ProfileStreakOut(current=current, longest=longest)


@router.get(
    "/referrals",
    response={200: ReferralsOut, codes_4xx: ErrorOut},
    summary="My referral code, link and the accounts I referred",
    description="Each referred account: waiting (to qualify: 7 days old and active on 3 "
    "different days), rewarded, or not_rewarded with its reason (not_adult, flagged, "
    "same_network, inactive, monthly_cap, referrer_ineligible)." + ADULTS,
)
def referrals_list(request: HttpRequest) -> object:
    user = current_user(request)
    gate.engagement_require(user)
    referrals.network_seen(user=user, address=client_ip(request))
    return selectors.referrals_get(user=user)


@admin_router.get(
    "/referrals/{int:user_id}/tree",
    response={200: ReferralTreeOut, codes_4xx: ErrorOut},
    summary="A member's referral tree (admins)",
    description="Who invited the member, up to the root, and whom they invited, four levels "
    "down; each account with its referral's state and reason and the integrity flags naming "
    "it (open and all). 404 for an unknown account.",
)
def referral_tree(request: HttpRequest, user_id: int) -> object:
    return selectors.referral_tree(user_id=user_id)
