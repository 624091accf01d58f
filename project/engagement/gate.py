"""The one rule of who has quests, streaks and referrals: known adults only.

An account has them when its stated year of birth makes it 18 or over (the youngest age the
year allows, ``project.accounts.ages``), it is active, it is not a player's account, and it has
never claimed a player's page as the athlete (a claim with relationship ``self`` that was not
rejected). An account with no year of birth, a teen account, a claimant athlete and a player's
account see none of it: every endpoint answers 403 ``adults_only``, no quest moves, no streak
is kept, no referral code is given or honoured and no engagement notification is written.
Each adult can turn quests off (they start off) and choose whether their streak shows on
their profile (it starts hidden)."""

from __future__ import annotations

from datetime import datetime

from project.accounts.ages import AgeBand, age_band_of
from project.accounts.models import Role, User
from project.claims.models import Claim, ClaimRelationship, ClaimStatus
from project.common.errors import PermissionDenied
from project.engagement.models import EngagementSettings

ADULTS_ONLY = "Quests, streaks and referrals are for members aged 18 and over."


def engagement_allowed(user: User, *, now: datetime | None = None) -> bool:
    """Whether ``user`` may have quests, a streak and referrals (the module's rule)."""
    if not user.is_active or user.pk is None:
        return False
    if age_band_of(user.birth_year, now=now) != AgeBand.ADULT:
        return False
    if user.role == Role.PLAYER:
        return False
    return not (
        Claim.objects.filter(claimant_id=user.pk, relationship=ClaimRelationship.SELF)
        .exclude(status=ClaimStatus.REJECTED)
        .exists()
    )


def engagement_require(user: User) -> None:
    """403 ``adults_only`` unless ``user`` may have any of it."""
    if not engagement_allowed(user):
        raise PermissionDenied(ADULTS_ONLY, code="adults_only")


def engagement_settings_of(user: User) -> EngagementSettings:
    """The member's switches (the defaults, unsaved, when they never changed one)."""
    found = EngagementSettings.objects.filter(user_id=user.pk).first()
    return found if found is not None else EngagementSettings(user_id=user.pk)


def quests_on(user: User) -> bool:
    """Quests move for ``user``: an adult who turned them on."""
    return engagement_allowed(user) and engagement_settings_of(user).quests


def streak_shown(user: User) -> bool:
    """``user``'s streak shows on their profile: an adult who chose to show it."""
    return engagement_allowed(user) and engagement_settings_of(user).show_streak
