"""Adult members' reasons to come back: their engagement switches, quests, streaks and
referrals. Everything here is read and written through ``project.engagement.gate``: an account
that is not a known adult has none of it."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from project.common.choices import choices_check

USER = settings.AUTH_USER_MODEL


class EngagementSettings(models.Model):
    """A member's two switches. Quests are opt-in; a streak is private until shown."""

    user = models.OneToOneField(
        USER, on_delete=models.CASCADE, primary_key=True, related_name="engagement"
    )
    quests = models.BooleanField(default=False)
    show_streak = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "engagement settings"

    def __str__(self) -> str:
        return f"Engagement of {self.user_id}"


class QuestType(models.TextChoices):
    DAILY_VOTE = "daily_vote"
    WEEKLY_VOTES = "weekly_votes"
    FOLLOW_PLAYERS = "follow_players"
    SHARE_PROFILE = "share_profile"


class QuestPeriod(models.TextChoices):
    DAY = "day"
    WEEK = "week"
    # Done once; it never expires.
    ONCE = "once"


class Quest(models.Model):
    """A challenge an adult member completes for points (the four are seeded by the app's
    migration; admins may change names, points and targets)."""

    type = models.CharField(max_length=32, choices=QuestType.choices, unique=True)
    name = models.CharField(max_length=200)
    description = models.TextField(blank=True, default="")
    points_reward = models.PositiveIntegerField(default=0)
    target_count = models.PositiveIntegerField(default=1)
    period = models.CharField(max_length=8, choices=QuestPeriod.choices)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            choices_check("type", QuestType, "engagement_quest_type_valid"),
            choices_check("period", QuestPeriod, "engagement_quest_period_valid"),
        ]

    def __str__(self) -> str:
        return self.name


class UserQuest(models.Model):
    """A member's run at a quest in one period (a local day, a local week, or once): its
    progress is the number of its distinct steps, and it is completed at most once (the row is
    unique per period and completion happens under its lock)."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="engagement_quests")
    quest = models.ForeignKey(Quest, on_delete=models.CASCADE, related_name="user_quests")
    # The first local day of the period (the member's time zone); 1970-01-01 for ``once``.
    period_start = models.DateField()
    progress = models.PositiveIntegerField(default=0)
    completed_at = models.DateTimeField(null=True, blank=True)
    # The end of the period in the member's time zone; None for ``once``.
    expires_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "quest", "period_start"], name="engagement_user_quest_once"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.quest_id} from {self.period_start}"


class QuestStep(models.Model):
    """One distinct step of a run (the nomination voted on, the member followed, "share"):
    a retry or a vote taken back and cast again adds nothing."""

    user_quest = models.ForeignKey(UserQuest, on_delete=models.CASCADE, related_name="steps")
    key = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user_quest", "key"], name="engagement_step_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_quest_id}: {self.key}"


class Streak(models.Model):
    """An adult member's streak of local days with a vote or a nomination, with its freezes
    and the repair window of a broken one (``project.engagement.streaks``)."""

    user = models.OneToOneField(
        USER, on_delete=models.CASCADE, primary_key=True, related_name="engagement_streak"
    )
    current = models.PositiveIntegerField(default=0)
    longest = models.PositiveIntegerField(default=0)
    # The member's last local day that counted (or was frozen).
    last_day = models.DateField(null=True, blank=True)
    # Freezes spent in ``freezes_month`` (the first day of that local month).
    freezes_month = models.DateField(null=True, blank=True)
    freezes_used = models.PositiveSmallIntegerField(default=0)
    # A streak that broke: its length and until when activity earns it back.
    broken_length = models.PositiveIntegerField(default=0)
    repair_until = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Streak of {self.user_id}: {self.current}"


class ActiveDay(models.Model):
    """A local day on which an adult member voted or nominated (referral qualification counts
    them)."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="engagement_days")
    day = models.DateField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "day"], name="engagement_day_once")]

    def __str__(self) -> str:
        return f"{self.user_id} on {self.day}"


class MemberNetwork(models.Model):
    """A network a member acted from: a keyed hash of its /24 (IPv4) or /64 (IPv6)
    (``referrals.network_key``), never the address."""

    user = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="engagement_networks")
    key = models.CharField(max_length=16)
    last_seen = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="engagement_network_once")
        ]
        indexes = [models.Index(fields=["key"], name="engagement_network_key")]

    def __str__(self) -> str:
        return f"{self.user_id} from {self.key}"


class ReferralState(models.TextChoices):
    WAITING = "waiting"
    REWARDED = "rewarded"
    NOT_REWARDED = "not_rewarded"


class Referral(models.Model):
    """An account registered with a member's code: waiting until it qualifies (or cannot),
    then rewarded or not, with the reason."""

    referrer = models.ForeignKey(USER, on_delete=models.CASCADE, related_name="referrals_made")
    referred = models.OneToOneField(USER, on_delete=models.CASCADE, related_name="referral")
    state = models.CharField(
        max_length=16, choices=ReferralState.choices, default=ReferralState.WAITING
    )
    # Why not rewarded (a ``referrals.NotRewarded`` value); "" otherwise.
    reason = models.CharField(max_length=32, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [choices_check("state", ReferralState, "engagement_referral_state_valid")]
        indexes = [
            models.Index(fields=["state", "created_at"], name="engagement_referral_state"),
            models.Index(fields=["referrer", "decided_at"], name="engagement_referral_month"),
        ]

    def __str__(self) -> str:
        return f"{self.referrer_id} referred {self.referred_id} ({self.state})"
