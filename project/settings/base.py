"""The environment, secrets and hosts.

With nothing set the product runs embedded (SQLite file, in-memory channel layer, local
avatar files, DEBUG on). ``DATABASE_URL``, ``REDIS_URL`` and ``S3_BUCKET`` switch to the
services; ``DJANGO_ENV=production`` turns on the hardened profile.
"""

from __future__ import annotations

import contextlib
import secrets
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from project.settings.env import setting

BASE_DIR = Path(__file__).resolve().parent.parent.parent

DJANGO_ENV = setting(
    "DJANGO_ENV",
    "development",
    "`production` turns on the hardened profile (HSTS, secure cookies, SSL redirect, a secret "
    "required, JSON logs, admin two-factor sign-in).",
)
PRODUCTION = DJANGO_ENV == "production"

DEBUG = setting(
    "DJANGO_DEBUG",
    not PRODUCTION,
    "Django's DEBUG.",
    shown="on, off with `DJANGO_ENV=production`",
)

_DEV_SECRET_FILE = BASE_DIR / ".dev-secret-key"
_SECRET = setting(
    "DJANGO_SECRET_KEY",
    "",
    "Signs sessions, CSRF tokens and address hashes; required in production (at least 50 "
    "characters); unset elsewhere: one generated per checkout and kept in `.dev-secret-key`.",
)


def _secret_key() -> str:
    if _SECRET:
        if PRODUCTION and (len(_SECRET) < 50 or _SECRET.startswith("django-insecure")):
            raise ImproperlyConfigured("DJANGO_SECRET_KEY is too weak for production")
        return _SECRET
    if PRODUCTION:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_ENV=production")
    # A per-checkout generated secret: stable across restarts so sessions survive.
    if _DEV_SECRET_FILE.exists():
        return _DEV_SECRET_FILE.read_text().strip()
    key = secrets.token_urlsafe(64)
    with contextlib.suppress(OSError):
        _DEV_SECRET_FILE.write_text(key)
    return key


SECRET_KEY = _secret_key()

ALLOWED_HOSTS = setting(
    "DJANGO_ALLOWED_HOSTS",
    [] if PRODUCTION else ["127.0.0.1", "localhost", "[::1]", "testserver"],
    "Comma-separated host names the app answers (also checked against websocket origins; "
    "nginx closes requests for other hosts).",
    shown="127.0.0.1,localhost,[::1],testserver; none with `DJANGO_ENV=production`",
)
CSRF_TRUSTED_ORIGINS: list[str] = setting(
    "DJANGO_CSRF_TRUSTED_ORIGINS",
    [],
    "Comma-separated origins (`https://scoutvote.example`) trusted for CSRF and websocket origins.",
)
# The public origin (scheme and host, e.g. https://scoutvote.example) emails' links and the
# link previews' absolute addresses are made from; empty: the request's own host.
PUBLIC_BASE_URL = setting(
    "PUBLIC_BASE_URL",
    "",
    "The public origin (`https://scoutvote.example`) every email's links and the link "
    "previews' absolute addresses are made from. Required with DEBUG off (a system check "
    "refuses anything but `http(s)://host[:port]`); `make run` and `make serve-prod` set it.",
).rstrip("/")

INSTALLED_APPS = [
    "daphne",
    "project.accounts.admin_apps.ScoutAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "project.common",
    "project.accounts",
    "project.scouting",
    "project.moderation",
    "project.privacy",
    "project.claims",
    "project.updates",
    "project.coaches",
    "project.comments",
    "project.clubs",
    "project.modlog",
    "project.integrity",
    "project.media",
    "project.sharing",
    "project.ops",
    "project.jobs",
    "project.notify",
    "project.push",
    "project.engagement",
    "django_tasks",
    "django_tasks_db",
    "realtime",
]

MIDDLEWARE = [
    # First: its count and time of a request include every other middleware's work.
    "project.common.metrics.RequestMetricsMiddleware",
    # The request's id (a trusted proxy's X-Request-ID, else a new one) on its log lines and
    # its response (project/logs.py).
    "project.logs.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "project.middleware.ContentSecurityPolicyMiddleware",
    "project.middleware.ApiErrorBodyMiddleware",
    "project.common.replicas.ReplicaMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "project.accounts.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "project.urls"
ASGI_APPLICATION = "project.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

LANGUAGE_CODE = "en-us"
TIME_ZONE = setting("TIME_ZONE", "UTC", "Django's TIME_ZONE (stored times are UTC).")
USE_I18N = False
USE_TZ = True

# --- Static files and the SPA ------------------------------------------------------------
STATIC_URL = "/static/"
# collectstatic's target (the Docker image runs it). Without it, WhiteNoise serves the built
# SPA straight from its finders, which is what `make run` does.
STATIC_ROOT = Path(
    setting(
        "STATIC_ROOT",
        str(BASE_DIR / "staticfiles"),
        "collectstatic's target (the Docker image runs it); outside production, used only "
        "when it exists (WhiteNoise otherwise serves the built SPA from its finders).",
        shown="`staticfiles/` in the checkout",
    )
)
if not PRODUCTION and not STATIC_ROOT.exists():
    STATIC_ROOT = None  # type: ignore[assignment]
SPA_DIST_DIR = Path(
    setting(
        "SPA_DIST_DIR",
        str(BASE_DIR / "frontend" / "dist"),
        "The built SPA served as static files.",
        shown="`frontend/dist/` in the checkout",
    )
)
STATICFILES_DIRS = [SPA_DIST_DIR] if SPA_DIST_DIR.exists() else []
WHITENOISE_USE_FINDERS = True
WHITENOISE_KEEP_ONLY_HASHED_FILES = False
