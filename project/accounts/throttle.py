"""Login throttling: atomic failure counters in the cache, per IP and per username.

The cache is Redis when ``REDIS_URL`` is set. While Redis cannot be reached the counters live
in a per-process fallback store, so sign-in and password change keep working (each process
then counts on its own until Redis is back) instead of answering 500.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import logging
import time
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest

from project.accounts.models import username_key
from project.common.errors import Throttled

logger = logging.getLogger(__name__)

_WINDOW_MESSAGE = "Too many login attempts. Please wait {minutes} minute{s} and try again."

IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=1)
def _trusted_networks(configured: tuple[str, ...]) -> tuple[IpNetwork, ...]:
    return tuple(ipaddress.ip_network(item, strict=False) for item in configured)


@receiver(setting_changed)
def _reset_trusted(*, setting: str, **kwargs: Any) -> None:
    if setting == "TRUSTED_PROXIES":
        _trusted_networks.cache_clear()


def _is_trusted(address: str) -> bool:
    networks = _trusted_networks(tuple(settings.TRUSTED_PROXIES))
    if not networks:
        return False
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_ip(request: HttpRequest) -> str:
    """The client's address for per-IP limits.

    The peer address (REMOTE_ADDR) unless the peer is one of ``TRUSTED_PROXIES``; then the
    right-most address in X-Forwarded-For that is not a trusted proxy (each proxy appends the
    address it saw, so everything left of that is whatever the client wrote), or X-Real-IP
    when there is no X-Forwarded-For. A client's own X-Forwarded-For therefore chooses
    nothing: it is left of the hop our proxy appended.
    """
    peer = request.META.get("REMOTE_ADDR") or "unknown"
    if not _is_trusted(peer):
        return peer
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop):
            return hop[:64]
    real_ip = request.META.get("HTTP_X_REAL_IP", "").strip()
    if real_ip and not hops:
        return real_ip[:64]
    # Every hop is a trusted proxy: the left-most one is as close to the client as we know.
    return hops[0][:64] if hops else peer


# --- the counters' store ------------------------------------------------------------------

_fallback = LocMemCache("login-throttle-fallback", {"OPTIONS": {"MAX_ENTRIES": 100_000}})
_FALLBACK_RETRY_SECONDS = 5.0
_cache_down_until = 0.0


def _store_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [ConnectionError, TimeoutError, OSError]
    with contextlib.suppress(ImportError):
        import redis

        errors.append(redis.exceptions.RedisError)
    return tuple(errors)


_STORE_ERRORS = _store_errors()


def _call(operation: str, *args: Any, **kwargs: Any) -> Any:
    """Run one cache operation on the shared cache, or on the per-process fallback while the
    shared one is unreachable (tried again every few seconds)."""
    global _cache_down_until
    if time.monotonic() >= _cache_down_until:
        try:
            return getattr(cache, operation)(*args, **kwargs)
        except _STORE_ERRORS as exc:
            _cache_down_until = time.monotonic() + _FALLBACK_RETRY_SECONDS
            logger.warning("Login throttle: cache unreachable (%s); counting per process", exc)
    return getattr(_fallback, operation)(*args, **kwargs)


def _keys(request: HttpRequest, username: str) -> list[tuple[str, int]]:
    limit = settings.LOGIN_THROTTLE_LIMIT
    # The username's key (NFKC + casefold): "SCOUT14" and a long-s "scout14" count as scout14.
    # Hashed: a typed username may hold any character, and cache keys should not.
    user_hash = hashlib.sha256(username_key(username).encode()).hexdigest()
    return [
        (f"login-fail:user:{user_hash}", limit),
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
    _call("add", key, 0, timeout=window)
    try:
        return int(_call("incr", key))
    except ValueError:  # expired between add() and incr()
        _call("set", key, 1, timeout=window)
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
    _call("delete", user_key)
    with contextlib.suppress(ValueError):
        _call("decr", ip_key)


def clear_fallback() -> None:
    """Tests: forget the per-process counters and try the shared cache again at once."""
    global _cache_down_until
    _fallback.clear()
    _cache_down_until = 0.0
