from __future__ import annotations

from django.contrib.auth import authenticate, login, logout
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.middleware.csrf import rotate_token

from project.accounts.models import Role, User, UserSettings
from project.accounts.throttle import forget_login_attempts, register_login_attempt
from project.common.errors import Conflict, NotAuthenticated
from realtime.publish import close_user_sockets

INVALID_CREDENTIALS = "Invalid username or password"


def _raise_if_taken(*, username: str, email: str) -> None:
    if User.objects.filter(username__iexact=username).exists():
        raise Conflict(
            "Username is already taken",
            code="username_taken",
            fields={"username": "Username is already taken"},
        )
    if User.objects.filter(email__iexact=email).exists():
        raise Conflict(
            "An account with this email already exists",
            code="email_taken",
            fields={"email": "An account with this email already exists"},
        )


@transaction.atomic
def user_create(
    *,
    username: str,
    email: str,
    password: str,
    name: str,
    favorite_sport: str = "football",
    role: str = Role.SCOUT,
) -> User:
    """Create a user together with its settings row."""
    _raise_if_taken(username=username, email=email)
    try:
        with transaction.atomic():
            user = User(
                username=username,
                email=email.lower(),
                name=name,
                favorite_sport=favorite_sport,
                role=role,
                is_staff=role == Role.ADMIN,
            )
            user.set_password(password)
            user.save()
            UserSettings.objects.create(user=user)
    except IntegrityError:
        # Lost a race with a concurrent registration of the same name or email.
        _raise_if_taken(username=username, email=email)
        raise
    return user


def user_register(
    *, request: HttpRequest, username: str, email: str, password: str, name: str, favorite_sport: str
) -> User:
    user = user_create(
        username=username, email=email, password=password, name=name, favorite_sport=favorite_sport
    )
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    return user


def user_login(*, request: HttpRequest, username: str, password: str) -> User:
    register_login_attempt(request, username)
    user = authenticate(request, username=username, password=password)
    if user is None:
        # Usernames are unique without regard to case; let people type them as they like.
        match = User.objects.filter(username__iexact=username).only("username").first()
        if match is not None and match.username != username:
            user = authenticate(request, username=match.username, password=password)
    if not isinstance(user, User) or not user.is_active:
        raise NotAuthenticated(INVALID_CREDENTIALS, code="invalid_credentials")
    forget_login_attempts(request, username)
    # login() cycles the session key and the CSRF token, so a planted session cannot be reused.
    login(request, user)
    return user


def user_logout(*, request: HttpRequest) -> None:
    user_id = request.user.pk if request.user.is_authenticated else None
    logout(request)
    rotate_token(request)
    if user_id is not None:
        close_user_sockets(int(user_id), reason="logout")
