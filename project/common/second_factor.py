"""Whether a request acts as an admin: its user holds the admin role and, with
``ADMIN_2FA_REQUIRED``, its session passed the second factor. A session carries that when its
sign-in checked an authenticator or recovery code, or when it enrolled one.

``acts_as_admin`` is the one check: the authentication middleware applies it to every
request's user (``User.is_admin`` reads its answer, so every service and selector that asks
whether its caller is an admin gets it, as does the session payload's ``actsAsAdmin``), and
the admin API and the live layer's admin group ask it directly. The Django admin asks
``admin_session_allowed`` beside Django's own staff rule. An admin whose session has not
passed the second factor is a member everywhere."""

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


def acts_as_admin(user: Any, session: Any) -> bool:
    """Whether ``user``, signed in with ``session``, acts as an admin: signed in, active,
    holding the admin role, and allowed the admin tools by ``admin_session_allowed``."""
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and getattr(user, "has_admin_role", False)
        and admin_session_allowed(session, user.pk)
    )
