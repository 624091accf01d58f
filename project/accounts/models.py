from __future__ import annotations

import secrets
from importlib import import_module
from typing import ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.db.models.functions import Lower

from project.common.choices import Sport, choices_check


def new_referral_code() -> str:
    return secrets.token_hex(5).upper()


class Role(models.TextChoices):
    SCOUT = "scout", "Scout"
    ADMIN = "admin", "Admin"
    PLAYER = "player", "Player"
    COACH = "coach", "Coach"


class ProfileVisibility(models.TextChoices):
    PUBLIC = "public", "Public"
    FOLLOWERS = "followers", "Followers"
    PRIVATE = "private", "Private"


class User(AbstractUser):
    email = models.EmailField(unique=True)
    name = models.CharField(max_length=150)
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.SCOUT)
    points = models.PositiveIntegerField(default=0)
    referred_by = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="referrals"
    )
    referral_code = models.CharField(max_length=16, unique=True, default=new_referral_code)
    current_streak = models.PositiveIntegerField(default=0)
    longest_streak = models.PositiveIntegerField(default=0)
    last_activity_date = models.DateField(null=True, blank=True)
    avatar_url = models.CharField(max_length=500, blank=True, default="")
    bio = models.TextField(blank=True, default="")
    location = models.CharField(max_length=200, blank=True, default="")
    favorite_sport = models.CharField(
        max_length=32, choices=Sport.choices, blank=True, default=Sport.FOOTBALL
    )
    phone_number = models.CharField(max_length=40, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    objects: ClassVar[UserManager[User]] = UserManager()  # type: ignore[assignment]

    class Meta:
        constraints = [
            choices_check("role", Role, "user_role_valid"),
            models.CheckConstraint(
                condition=models.Q(favorite_sport__in=[*Sport.values, ""]),
                name="user_favorite_sport_valid",
            ),
            models.CheckConstraint(condition=models.Q(points__gte=0), name="user_points_gte_0"),
            models.UniqueConstraint(Lower("username"), name="user_username_ci_unique"),
            models.UniqueConstraint(Lower("email"), name="user_email_ci_unique"),
        ]
        indexes = [models.Index(fields=["-points"], name="user_points_idx")]

    @property
    def is_admin(self) -> bool:
        return self.role == Role.ADMIN

    def __str__(self) -> str:
        return self.username


class UserSettings(models.Model):
    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="settings")
    email_notifications = models.BooleanField(default=True)
    vote_notifications = models.BooleanField(default=True)
    nomination_notifications = models.BooleanField(default=True)
    profile_visibility = models.CharField(
        max_length=16, choices=ProfileVisibility.choices, default=ProfileVisibility.PUBLIC
    )
    allow_discoverability = models.BooleanField(default=True)
    two_factor_enabled = models.BooleanField(default=False)
    password_changed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "user settings"
        constraints = [
            choices_check("profile_visibility", ProfileVisibility, "settings_visibility_valid")
        ]

    def __str__(self) -> str:
        return f"Settings of {self.user_id}"


class UserSession(AbstractBaseSession):
    """The session table, with the signed-in user's id on each row.

    Django's database sessions keep the user id only inside the encoded data, so "end every
    other session of this user" would have to decode every session. This engine (Django's
    documented way to extend database sessions) writes the id on each save, indexed, so a
    user's sessions are one indexed query away. A plain integer, not a foreign key: a request
    that saves its session while the account is being deleted must not fail on a constraint.
    """

    user_id = models.BigIntegerField(null=True, db_index=True)

    class Meta(AbstractBaseSession.Meta):
        db_table = "accounts_user_session"

    @classmethod
    def get_session_store_class(cls) -> type[SessionBase]:
        # The configured engine (project.accounts.sessions), looked up rather than imported:
        # that module reads this model, and models import nothing that imports them.
        store: type[SessionBase] = import_module(settings.SESSION_ENGINE).SessionStore
        return store
