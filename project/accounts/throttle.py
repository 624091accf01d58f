"""Login throttling: atomic failure counters in the cache, per account and client together,
per client, and per account from clients it never signed in from (OWASP's authentication
guidance; django-axes counts the same way). Guessing one account from one address holds that
pair only; the account's own ceiling is higher and spares the clients its owner signs in from,
so no one can lock an owner out of their account from elsewhere. Each hold lasts twice the one
before (up to LOGIN_THROTTLE_MAX_DELAY).

The cache is Redis when ``REDIS_URL`` is set. While Redis cannot be reached the counters live
in a per-process fallback store, so sign-in and password change keep working (each process
then counts on its own until Redis is back) instead of answering 500.
"""

from __future__ import annotations

import contextlib
import hashlib
import ipaddress
import logging
import math
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.locmem import LocMemCache
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpRequest

from project.accounts.models import username_key
from project.common.addresses import address_key
from project.common.budgets import wait_words
from project.common.errors import Throttled

logger = logging.getLogger(__name__)

_WINDOW_MESSAGE = "Too many login attempts. Please wait {wait} and try again."

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


# A client that has signed in to an account is remembered for it this long: its attempts
# are not held to the account's ceiling, so a flood from elsewhere cannot lock the owner out.
KNOWN_CLIENT_SECONDS = 90 * 86400


@dataclass(frozen=True)
class _Counter:
    """Failed attempts of one subject within the window; ``limit`` of them allowed."""

    key: str
    limit: int


def _subjects(request: HttpRequest, username: str) -> tuple[str, str]:
    """The account (its name's key, NFKC + casefold, hashed: a typed name may hold any
    character and cache keys should not) and the client (``address_key``: an IPv4 address or
    an IPv6 /64)."""
    account = hashlib.sha256(username_key(username).encode()).hexdigest()
    return account, address_key(client_ip(request))


def _known_key(account: str, client: str) -> str:
    return f"login-known:{account}:{client}"


def _counters(account: str, client: str, *, known: bool) -> list[_Counter]:
    limit = settings.LOGIN_THROTTLE_LIMIT
    counters = [
        # This account from this client: the owner mistyping, or a guesser on one address.
        _Counter(f"login-fail:pair:{account}:{client}", limit),
        # This client, whatever the account: one address spraying many accounts. One address
        # may serve many people (an office, a school): allow more.
        _Counter(f"login-fail:ip:{client}", limit * 3),
    ]
    if not known:
        # This account from clients it never signed in from: guessing from many addresses.
        counters.append(
            _Counter(f"login-fail:user:{account}", settings.LOGIN_THROTTLE_ACCOUNT_LIMIT)
        )
    return counters


def _raise_throttled(wait: float) -> None:
    retry_after = max(1, math.ceil(wait))
    raise Throttled(_WINDOW_MESSAGE.format(wait=wait_words(retry_after)), retry_after=retry_after)


def _incr(key: str, window: int) -> int:
    # add() opens the window once; incr() is atomic in Redis and in locmem.
    _call("add", key, 0, timeout=window)
    try:
        return int(_call("incr", key))
    except ValueError:  # expired between add() and incr()
        _call("set", key, 1, timeout=window)
        return 1


def _hold(counter: _Counter, now: float) -> float:
    """The attempt that passes a counter's limit holds the subject for a delay that doubles
    with each hold within LOGIN_THROTTLE_MAX_DELAY (the window, twice it, four times...): the
    counter is kept until the hold ends, then the subject has its attempts again."""
    window = settings.LOGIN_THROTTLE_WINDOW
    longest = settings.LOGIN_THROTTLE_MAX_DELAY
    holds = _incr(f"{counter.key}:holds", 2 * longest)
    delay = min(longest, window * 2 ** (holds - 1))
    _call("set", f"{counter.key}:until", now + delay, timeout=math.ceil(delay))
    _call("touch", counter.key, math.ceil(delay))
    return delay


def register_login_attempt(request: HttpRequest, username: str) -> None:
    """Count an attempt before checking the password, so concurrent guesses are counted too,
    and refuse it (429) while one of its counters is held."""
    window = settings.LOGIN_THROTTLE_WINDOW
    account, client = _subjects(request, username)
    known = _call("get", _known_key(account, client)) is not None
    now = time.time()
    waits = []
    for counter in _counters(account, client, known=known):
        attempts = _incr(counter.key, window)
        if attempts == counter.limit + 1:
            waits.append(_hold(counter, now))
        elif attempts > counter.limit:
            until = _call("get", f"{counter.key}:until")
            waits.append(until - now if until is not None else window)
    if waits:
        _raise_throttled(max(waits))


def forget_login_attempts(request: HttpRequest, username: str) -> None:
    """A successful sign-in clears this account's counters on this client, gives its attempt
    back to the client's and the account's counters, and remembers the client for the account."""
    account, client = _subjects(request, username)
    known_key = _known_key(account, client)
    known = _call("get", known_key) is not None
    pair, *shared = _counters(account, client, known=known)
    _call("delete_many", [pair.key, f"{pair.key}:holds", f"{pair.key}:until"])
    for counter in shared:
        with contextlib.suppress(ValueError):
            _call("decr", counter.key)
    _call("set", known_key, 1, timeout=KNOWN_CLIENT_SECONDS)


def clear_fallback() -> None:
    """Tests: forget the per-process counters and try the shared cache again at once."""
    global _cache_down_until
    _fallback.clear()
    _cache_down_until = 0.0
