"""Accounts: passwords, sign-in throttle, two-factor sign-in and sessions."""

from __future__ import annotations

from typing import Any

from project.settings.base import PRODUCTION
from project.settings.env import setting

PASSWORD_HASHERS = [
    # Argon2id with OWASP's parameters (19 MiB, t=2, p=1); hashes made with Django's defaults
    # (100 MiB, p=8) still verify and are rehashed at the next sign-in.
    "project.accounts.hashers.Argon2idPasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
PASSWORD_HASH_CONCURRENCY = setting(
    "PASSWORD_HASH_CONCURRENCY",
    4,
    "Password hashes computed at once per process (each Argon2 hash holds 19 MiB while it "
    "runs); more sign-ins or registrations wait their turn.",
)
AUTH_PASSWORD_VALIDATORS: list[dict[str, Any]] = []

# Failed sign-ins per account from one client (3x per client over every account) within the
# window; per account from clients it never signed in from, the higher ceiling. Each hold lasts
# twice the one before, up to the longest delay (seconds).
LOGIN_THROTTLE_LIMIT = setting(
    "LOGIN_THROTTLE_LIMIT",
    10,
    "Failed sign-ins per account and client address within the window (3x that per client "
    "address over every account).",
)
LOGIN_THROTTLE_ACCOUNT_LIMIT = setting(
    "LOGIN_THROTTLE_ACCOUNT_LIMIT",
    100,
    "Failed sign-ins per account from addresses it never signed in from, within the window.",
)
LOGIN_THROTTLE_WINDOW = setting(
    "LOGIN_THROTTLE_WINDOW", 300, "Seconds of the failed sign-ins' window and first hold."
)
LOGIN_THROTTLE_MAX_DELAY = setting(
    "LOGIN_THROTTLE_MAX_DELAY",
    86400,
    "Seconds the longest hold lasts (each hold lasts twice the one before).",
)
# Admins use the admin tools (API, Django admin, the live moderation queue) only from a session
# that passed two-factor sign-in; without a second factor they can only enrol one.
ADMIN_2FA_REQUIRED = setting(
    "ADMIN_2FA_REQUIRED",
    PRODUCTION,
    "Admins act as admins only from a session that passed two-factor sign-in.",
    shown="on with `DJANGO_ENV=production`, else off",
)
TWO_FACTOR_ISSUER = setting(
    "TWO_FACTOR_ISSUER", "ScoutVote", "The name authenticator apps show beside the code."
)

# Database sessions indexed by user, so a password change can end the other ones.
SESSION_ENGINE = "project.accounts.sessions"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 14
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = False  # the SPA reads it to send X-CSRFToken
