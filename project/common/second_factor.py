"""Whether a session passed the second factor, the one rule the admin API, the Django admin and
the live layer's admin group read. A session carries it when its sign-in checked an
authenticator or recovery code, or when it enrolled one."""

from __future__ import annotations

from typing import Any

from django.conf import settings

SESSION_KEY = "second_factor_user"


def second_factor_passed(session: Any, user_id: int) -> None:
    """Mark ``session`` (of ``user_id``) as having passed the second factor."""
    session[SESSION_KEY] = user_id


def admin_session_allowed(session: Any, user_id: int) -> bool:
    """An admin's session may use the admin tools: always when ``ADMIN_2FA_REQUIRED`` is off,
    else only once it passed the second factor."""
    if not settings.ADMIN_2FA_REQUIRED:
        return True
    return session is not None and session.get(SESSION_KEY) == user_id
