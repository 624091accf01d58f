"""Session authentication for the API, with CSRF checked on every unsafe method."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.http.multipartparser import MultiPartParserError
from ninja.security import SessionAuth
from ninja.utils import check_csrf

from project.accounts.models import User
from project.accounts.two_factor import two_factor_enabled
from project.common.errors import PermissionDenied, ValidationFailed
from project.common.second_factor import acts_as_admin

CSRF_FAILED = "CSRF verification failed. Refresh the page and try again."
TURN_ON_TWO_FACTOR = "Turn on two-factor sign-in in Settings to use the admin tools"
SIGN_IN_AGAIN = "Sign in again with your authenticator code to use the admin tools"


def ensure_csrf(request: HttpRequest) -> None:
    try:
        refused = check_csrf(request) is not None
    except MultiPartParserError:
        # The CSRF check reads form bodies for a token; a broken form body is bad input.
        raise ValidationFailed("Malformed request body", code="bad_request") from None
    if refused:
        raise PermissionDenied(CSRF_FAILED, code="csrf_failed")


def csrf_only(request: HttpRequest) -> bool:
    """Auth for public unsafe operations (login, register): django-ninja checks CSRF only
    in its cookie auth classes, so these check it themselves, before the body is parsed."""
    ensure_csrf(request)
    return True


class UserAuth(SessionAuth):
    def _get_key(self, request: HttpRequest) -> str | None:
        ensure_csrf(request)
        return request.COOKIES.get(self.param_name)

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        user = request.user
        if user.is_authenticated and user.is_active:
            return user
        return None


class AdminAuth(UserAuth):
    """Signed out answers 401; signed in without the admin role, or (``ADMIN_2FA_REQUIRED``)
    from a session that did not pass two-factor sign-in, answers 403."""

    def authenticate(self, request: HttpRequest, key: str | None) -> Any:
        user = super().authenticate(request, key)
        if user is None:
            return None
        if not user.has_admin_role:
            raise PermissionDenied("Admin access required", code="admin_required")
        if not acts_as_admin(user, request.session):
            message = SIGN_IN_AGAIN if two_factor_enabled(user) else TURN_ON_TWO_FACTOR
            raise PermissionDenied(message, code="two_factor_required")
        return user


def current_user(request: HttpRequest) -> User:
    user = request.auth  # type: ignore[attr-defined]
    assert isinstance(user, User)
    return user


user_auth = UserAuth()
admin_auth = AdminAuth()
