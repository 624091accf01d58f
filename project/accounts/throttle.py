"""Login throttling: atomic failure counters in the cache, per IP and per username."""

from __future__ import annotations

import contextlib
import hashlib

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

from project.common.errors import Throttled

_WINDOW_MESSAGE = "Too many login attempts. Please wait {minutes} minute{s} and try again."


def client_ip(request: HttpRequest) -> str:
    return request.META.get("REMOTE_ADDR") or "unknown"


def _keys(request: HttpRequest, username: str) -> list[tuple[str, int]]:
    limit = settings.LOGIN_THROTTLE_LIMIT
    return [
        # Hashed: a typed username may hold any character, and cache keys should not.
        (f"login-fail:user:{hashlib.sha256(username.strip().lower().encode()).hexdigest()}", limit),
        # One address may serve many people (an office, a school): allow more per IP.
        (f"login-fail:ip:{client_ip(request)}", limit * 3),
    ]


def _raise_throttled() -> None:
    window = settings.LOGIN_THROTTLE_WINDOW
    minutes = max(1, round(window / 60))
    raise Throttled(
        _WINDOW_MESSAGE.format(minutes=minutes, s="" if minutes == 1 else "s"), retry_after=window
    )


def _incr(key: str, window: int) -> int:
    # add() opens the window once; incr() is atomic in Redis and in locmem.
    cache.add(key, 0, timeout=window)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add() and incr()
        cache.set(key, 1, timeout=window)
        return 1


def register_login_attempt(request: HttpRequest, username: str) -> None:
    """Count an attempt before checking the password, so concurrent guesses are counted too."""
    window = settings.LOGIN_THROTTLE_WINDOW
    over = False
    for key, limit in _keys(request, username):
        if _incr(key, window) > limit:
            over = True
    if over:
        _raise_throttled()


def forget_login_attempts(request: HttpRequest, username: str) -> None:
    """A successful sign-in clears its username's counter and gives its attempt back to the IP."""
    user_key, ip_key = (key for key, _ in _keys(request, username))
    cache.delete(user_key)
    with contextlib.suppress(ValueError):
        cache.decr(ip_key)
