"""Django's authentication middleware, taking the user the session read brought.

Every signed-in request reads its session row; the session engine
(project/accounts/sessions.py) reads the row's user in the same statement. ``get_user`` is
``django.contrib.auth.get_user`` with that user in place of the backend's second read, for
sessions signed in through ``ModelBackend`` (every sign-in here): the same checks in the same
order (the backend is still configured, the user may authenticate, the session's hash matches
the password's, or a fallback secret's, which rotates the session). Any other session goes
through Django's own ``get_user``.

The user it gives is marked with whether this request acts as an admin (``acts_as_admin``),
which ``User.is_admin`` answers from then on.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import auth
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.middleware import AuthenticationMiddleware as DjangoAuthentication
from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject

from project.common.second_factor import acts_as_admin

MODEL_BACKEND = f"{ModelBackend.__module__}.{ModelBackend.__qualname__}"


def _joined_user(request: HttpRequest) -> Any:
    """The session's user as its read brought it, or None when that read did not bring the
    user the session names (or the session was not signed in through ModelBackend)."""
    session: Any = request.session
    try:
        user_id = session[SESSION_KEY]  # loads the session (and its user) if not yet read
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        return None
    user = getattr(session, "joined_user", None)
    if (
        user is None
        or backend_path != MODEL_BACKEND
        or backend_path not in settings.AUTHENTICATION_BACKENDS
        or str(user.pk) != str(user_id)
    ):
        return None
    return user


def get_user(request: HttpRequest) -> Any:
    user = _joined_user(request)
    if user is None:
        return auth.get_user(request)
    if not ModelBackend().user_can_authenticate(user):
        return AnonymousUser()
    session: Any = request.session
    session_hash = session.get(HASH_SESSION_KEY)
    if session_hash and constant_time_compare(session_hash, user.get_session_auth_hash()):
        return user
    if session_hash and any(
        constant_time_compare(session_hash, fallback)
        for fallback in user.get_session_auth_fallback_hash()
    ):
        session.cycle_key()
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        return user
    session.flush()
    return AnonymousUser()


def _cached_user(request: HttpRequest) -> Any:
    if not hasattr(request, "_cached_user"):
        user = get_user(request)
        if user.is_authenticated:
            # Every admin check on this request's user (User.is_admin) reads this answer.
            user.acting_admin = acts_as_admin(user, request.session)
        request._cached_user = user  # type: ignore[attr-defined]
    return request._cached_user  # type: ignore[attr-defined]


class AuthenticationMiddleware(DjangoAuthentication):
    def process_request(self, request: HttpRequest) -> None:
        super().process_request(request)
        request.user = SimpleLazyObject(lambda: _cached_user(request))  # type: ignore[assignment]
