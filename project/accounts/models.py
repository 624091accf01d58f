from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models
from django.db.models.functions import Lower

from project.common.choices import Sport, choices_check
from project.common.text import fold


def new_referral_code() -> str:
    return secrets.token_hex(5).upper()


def username_key(username: str) -> str:
    """The form a user name is looked up, compared and throttled by: NFKC, case-folded, NFKC
    again (Unicode's NFKC_Casefold). "\u017fcout14" (long s), "SCOUT14" and fullwidth letters
    all give "scout14",
    so no one can register a name that reads like another's or dodge its throttle with one."""
    folded = unicodedata.normalize("NFKC", username.strip()).casefold()
    return unicodedata.normalize("NFKC", folded)


@cache
def _prototypes() -> dict[str, str]:
    """Unicode's confusables (UTS #39, confusables.txt): each character that looks like
    another and the prototype it reads as."""
    prototypes = {}
    text = (Path(__file__).with_name("confusables.txt")).read_text(encoding="utf-8")
    for line in text.splitlines():
        if line and not line.startswith("#"):
            source, target = line.split(";")
            prototypes[chr(int(source, 16))] = "".join(
                chr(int(point, 16)) for point in target.split()
            )
    return prototypes


def _skeleton(text: str) -> str:
    # UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again.
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(c, c) for c in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def username_skeleton(username: str) -> str:
    """What a user name looks like, whatever its script or case: the UTS #39 skeleton of its
    key (``username_key``), case-folded, and the skeleton of that (a look-alike of a capital
    reads as its small letter). Names with one skeleton are confusable: "admin" with a
    Cyrillic a (U+0430), "ADMIN" with a Greek alpha (U+0391), "adrnin" and "admin" give one;
    so do "scout14" and "scoutl4"."""
    return _skeleton(_skeleton(username_key(username)).casefold())


class ScoutUserManager(UserManager["User"]):
    def get_by_natural_key(self, username: str | None) -> User:
        # Sign-in (the API's and the Django admin's) finds the account by its key in one
        # query: a name typed in another case costs one hash like any other attempt.
        try:
            return self.get(username_key=username_key(username or ""))
        except self.model.DoesNotExist:
            # An account from before keys whose name folds to an older account's key.
            return self.get(username=username, username_key__isnull=True)

    def confusable_with(self, username: str) -> models.QuerySet[User]:
        """The accounts whose name reads like ``username``: the same key (NFKC + casefold) or
        the same skeleton (``username_skeleton``)."""
        return self.filter(
            models.Q(username_key=username_key(username))
            | models.Q(username_skeleton=username_skeleton(username))
        )

    def bulk_create(self, objs: Iterable[User], *args: Any, **kwargs: Any) -> list[User]:
        objs = list(objs)
        for user in objs:
            user.username_key = username_key(user.username)
            user.username_skeleton = username_skeleton(user.username)
            user.name_key = fold(user.name)
        return super().bulk_create(objs, *args, **kwargs)


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
    """A member: a scout or an admin, with their points and voting streaks."""

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
    # The year of birth the member gave (at registration, or asked once at sign-in for an
    # account from before): it decides the age band (project/accounts/ages.py). NULL: not
    # asked yet.
    birth_year = models.PositiveSmallIntegerField(null=True, blank=True)
    # The member's IANA time zone ("Europe/Paris"), from their browser or Settings; "" reads
    # the board's (BOARD_WEEK_TIME_ZONE). A teen account's quiet hours are kept in it.
    time_zone = models.CharField(max_length=64, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    # username_key(username), kept by save(): unique, so confusable names are refused.
    # NULL, not "": rows written by bulk_create before it sets keys, and pre-key duplicates.
    username_key = models.TextField(unique=True, null=True, editable=False)  # noqa: DJ001
    # username_skeleton(username), kept by save(): unique, so look-alike names are refused.
    # NULL for a pre-skeleton account that looks like an older one.
    username_skeleton = models.TextField(unique=True, null=True, editable=False)  # noqa: DJ001
    # fold(name), kept by save(): what a search by nominator name looks in.
    name_key = models.TextField(blank=True, default="", editable=False)

    objects: ClassVar[ScoutUserManager] = ScoutUserManager()

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

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Kept NULL only for a pre-key account whose name collides with an older one's key.
        if self._state.adding or self.username_key is not None:
            self.username_key = username_key(self.username)
        if self._state.adding or self.username_skeleton is not None:
            self.username_skeleton = username_skeleton(self.username)
        self.name_key = fold(self.name)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = update_fields = {
                *update_fields,
                "username_key",
                "username_skeleton",
            }
        if update_fields is not None and "name" in update_fields:
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    # For a request's user, whether it acts as an admin there (``acts_as_admin``: the admin
    # role and, with ADMIN_2FA_REQUIRED, a session that passed the second factor), set by the
    # authentication middleware and by sign-in. None for a user not read as a request's user,
    # which acts by its role (management commands, background tasks, the websocket's user,
    # which the live layer checks itself).
    acting_admin: bool | None = None

    @property
    def has_admin_role(self) -> bool:
        """The role alone: what the account is, whatever the session (who must turn on
        two-factor sign-in, whom the admin count covers)."""
        return self.role == Role.ADMIN

    @property
    def is_admin(self) -> bool:
        """Acts as an admin: holds the role and, as a request's user, its session may use
        admin powers. Every admin check on a caller reads this."""
        return self.has_admin_role and self.acting_admin is not False

    def __str__(self) -> str:
        return self.username


class UserSettings(models.Model):
    """A member's notification, privacy and security settings."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="settings")
    # Every notification email (the weekly digest has its own switch below).
    email_notifications = models.BooleanField(default=True)
    # In the app (the bell) and on the member's devices (web push).
    vote_notifications = models.BooleanField(default=True)
    nomination_notifications = models.BooleanField(default=True)
    # By email, each kind on its own: an email's unsubscribe link turns off its kind's email
    # and leaves the in-app switches above as the member set them.
    vote_emails = models.BooleanField(default=True)
    nomination_emails = models.BooleanField(default=True)
    weekly_digest = models.BooleanField(default=True)
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


class TwoFactorDevice(models.Model):
    """A member's authenticator app (TOTP, RFC 6238). Unconfirmed until its first code is
    entered; ``last_step`` is the time step of the last code accepted, so a code signs in once."""

    user = models.OneToOneField(User, on_delete=models.CASCADE, related_name="two_factor_device")
    secret = models.CharField(max_length=64)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    last_step = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Authenticator of {self.user_id}"


class RecoveryCode(models.Model):
    """One of the ten single-use codes shown once at enrolment, kept as a SHA-256 digest (the
    codes are random, so a plain digest is as strong as a password hash here)."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="recovery_codes")
    digest = models.CharField(max_length=64)
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "digest"], name="recovery_code_unique")
        ]

    def __str__(self) -> str:
        return f"Recovery code of {self.user_id}"
