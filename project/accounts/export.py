"""A member's export of their own data: their account and settings, and the sections every
other app registers (its nominations, votes, reports ...), at most once an hour."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from django.utils import timezone

from project.accounts.models import User, UserSettings
from project.common.errors import Throttled
from project.common.schemas import camel_keys

ExportSection = Callable[[User], dict[str, Any]]

EXPORT_WINDOW = 3600
EXPORT_TOO_SOON = "You can export your data once an hour. Please try again in {minutes} minutes."

_ACCOUNT_FIELDS = (
    "id",
    "username",
    "email",
    "name",
    "role",
    "points",
    "referral_code",
    "current_streak",
    "longest_streak",
    "last_activity_date",
    "avatar_url",
    "bio",
    "location",
    "favorite_sport",
    "phone_number",
    "birth_year",
    "time_zone",
    "created_at",
    "last_login",
)
_SETTINGS_FIELDS = (
    "email_notifications",
    "vote_notifications",
    "nomination_notifications",
    "vote_emails",
    "nomination_emails",
    "weekly_digest",
    "profile_visibility",
    "allow_discoverability",
    "two_factor_enabled",
    "password_changed_at",
    "created_at",
    "updated_at",
)

_sections: list[ExportSection] = []


def register_export_section(section: ExportSection) -> None:
    """Add what an app holds about a member to their export (its keys to the document)."""
    if section not in _sections:
        _sections.append(section)


def profile_export(*, user: User) -> dict[str, Any]:
    """Everything the product holds about ``user``, as one JSON-ready document."""
    account = User.objects.filter(pk=user.pk).values(*_ACCOUNT_FIELDS).get()
    settings = UserSettings.objects.filter(user_id=user.pk).values(*_SETTINGS_FIELDS).first()
    document: dict[str, Any] = {
        "exported_at": timezone.now(),
        "account": camel_keys(account),
        "settings": camel_keys(settings) if settings is not None else None,
    }
    for section in _sections:
        document.update(section(user))
    return document


def profile_export_take(*, user: User) -> dict[str, Any]:
    """The user's data export, at most once an hour (429 with Retry-After before)."""
    key = f"export:{user.pk}"
    now = time.time()
    # The time taken is what counts (the cache's expiry only cleans up after it).
    if not cache.add(key, now, timeout=EXPORT_WINDOW):
        wait = int(EXPORT_WINDOW - (now - float(cache.get(key) or 0)))
        if wait > 0:
            minutes = max(1, round(wait / 60))
            raise Throttled(EXPORT_TOO_SOON.format(minutes=minutes), retry_after=wait)
        cache.set(key, now, timeout=EXPORT_WINDOW)
    try:
        return profile_export(user=user)
    except Exception:
        cache.delete(key)
        raise
