"""Settings: every deployment knob is an environment variable.

With nothing set the product runs embedded (SQLite file, in-memory channel layer, local
avatar files, DEBUG on). ``DATABASE_URL``, ``REDIS_URL`` and ``S3_BUCKET`` switch to the
services; ``DJANGO_ENV=production`` turns on the hardened profile.
"""

from __future__ import annotations

import contextlib
import copy
import os
import secrets
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from redis.connection import parse_url as parse_redis_url

from project.sentry import init_from_env as init_sentry

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def _redis_db(url: str) -> int:
    """The database number of a Redis URL, as redis-py reads it (path or ``?db=``)."""
    return int(parse_redis_url(url).get("db", 0))


def _db_location(config: Any) -> dict[str, Any]:
    return {
        key: config[key] for key in ("NAME", "USER", "PASSWORD", "HOST", "PORT") if key in config
    }


def _prepare_threshold(value: str) -> int | None:
    """psycopg's prepare_threshold from its variable: a number of runs, or none (empty)."""
    return int(value) if value.strip() else None


def db_pooler(value: str, port: Any) -> str:
    """What stands between the app and PostgreSQL: ``transaction`` (a pooler in transaction
    mode: a server connection per transaction, nothing kept between them) or ``none``;
    unset, ``transaction`` on PgBouncer's port 6432."""
    value = value.strip().lower() or ("transaction" if str(port) == "6432" else "none")
    if value not in {"none", "transaction"}:
        raise ImproperlyConfigured("DB_POOLER must be 'transaction' or 'none'")
    return value


DJANGO_ENV = os.environ.get("DJANGO_ENV", "development")
PRODUCTION = DJANGO_ENV == "production"

DEBUG = env_bool("DJANGO_DEBUG", not PRODUCTION)

_DEV_SECRET_FILE = BASE_DIR / ".dev-secret-key"


def _secret_key() -> str:
    configured = os.environ.get("DJANGO_SECRET_KEY", "")
    if configured:
        if PRODUCTION and (len(configured) < 50 or configured.startswith("django-insecure")):
            raise ImproperlyConfigured("DJANGO_SECRET_KEY is too weak for production")
        return configured
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

ALLOWED_HOSTS = env_list(
    "DJANGO_ALLOWED_HOSTS", [] if PRODUCTION else ["127.0.0.1", "localhost", "[::1]", "testserver"]
)
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

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
    "project.modlog",
    "project.integrity",
    "project.media",
    "project.sharing",
    "project.ops",
    "project.jobs",
    "project.notify",
    "project.push",
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

# --- Database ---------------------------------------------------------------------------
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    _db: dict[str, Any] = dict(dj_database_url.parse(DATABASE_URL))
    DB_POOLER = db_pooler(os.environ.get("DB_POOLER", ""), _db.get("PORT"))
    _TRANSACTION_POOLER = DB_POOLER == "transaction"
    if _db["ENGINE"] == "django.db.backends.postgresql":
        # Under ASGI a persistent connection leaks one per worker thread; psycopg's pool
        # is the one that reuses connections.
        _db["CONN_MAX_AGE"] = 0
        # After a PostgreSQL restart every pooled connection is dead: the pool checks each
        # one it hands out, by its socket rather than a round trip (this backend: project/
        # common/postgresql/base.py), so a request gets a live one or a new one rather than
        # "server closed the connection". CONN_HEALTH_CHECKS would put psycopg's round-trip
        # check in its place.
        _db["ENGINE"] = "project.common.postgresql"
        _db["CONN_HEALTH_CHECKS"] = False
        _db["OPTIONS"] = {
            "pool": {
                "min_size": int(os.environ.get("DB_POOL_MIN", "2")),
                "max_size": int(os.environ.get("DB_POOL_MAX", "20")),
                "timeout": float(os.environ.get("DB_POOL_TIMEOUT", "10")),
            },
            # Values sent apart from the statement, and a statement a pooled connection has
            # run DB_PREPARE_THRESHOLD times prepared on it (psycopg's prepare_threshold; an
            # empty value: never), so PostgreSQL parses and plans a vote's statements once per
            # connection rather than on every vote (docs/decisions.md#prepared-statements).
            # Behind a pooler in transaction mode (DB_POOLER) a prepared statement would outlive
            # the transaction that made it (docs/decisions.md#behind-pgbouncer-in-transaction-mode).
            "server_side_binding": not _TRANSACTION_POOLER,
            "prepare_threshold": None
            if _TRANSACTION_POOLER
            else _prepare_threshold(os.environ.get("DB_PREPARE_THRESHOLD", "5")),
        }
        # ... and so would a server-side cursor: .iterator() reads through an ordinary one.
        _db["DISABLE_SERVER_SIDE_CURSORS"] = _TRANSACTION_POOLER
    DATABASES = {"default": _db}
    # Streaming replicas for the reads of safe requests (project/common/replicas.py): each
    # with the primary's options, its own pool, and the primary as its test database.
    for _index, _url in enumerate(env_list("DATABASE_REPLICA_URLS", []), 1):
        _replica = {**_db, **_db_location(dj_database_url.parse(_url))}
        _replica["OPTIONS"] = copy.deepcopy(_db.get("OPTIONS", {}))
        _replica["TEST"] = {"MIRROR": "default"}
        DATABASES[f"replica{_index}"] = _replica
    if len(DATABASES) > 1:
        DATABASE_ROUTERS = ["project.common.replicas.ReplicaRouter"]
else:
    DB_POOLER = "none"
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": {
                # Writers queue (IMMEDIATE takes the write lock at BEGIN, so a read-then-write
                # transaction cannot fail half way) and wait up to 20 s; WAL lets the live
                # summaries and the browser tests' server read while a request writes.
                "timeout": 20,
                "transaction_mode": "IMMEDIATE",
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            # A file, not memory, so another process (the browser tests' server) and other
            # threads see the test database; one per test run, so parallel runs stay apart.
            "TEST": {
                "NAME": str(Path(tempfile.gettempdir()) / f"scoutvote-test-{os.getpid()}.sqlite3")
            },
        }
    }

# A client that wrote reads from the primary until a replica has replayed its write, for at
# most this long (its cookie's age).
REPLICA_STICKY_SECONDS = int(os.environ.get("REPLICA_STICKY_SECONDS", "300"))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
AUTH_USER_MODEL = "accounts.User"

# --- Redis: channel layer and cache -----------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")

# The channel layer is the live layer's control plane: per-user commands (close a user's
# sockets) as group_send to the user's group (realtime/control.py). The events themselves
# go through the live layer's hub, which talks to Redis itself (realtime/README.md).
if REDIS_URL:
    _redis_host = {
        "address": REDIS_URL,
        # The pub/sub layer holds two connections per process (a subscriber and one to
        # publish); the bound only keeps a storm of commands from failing (redis-py's async
        # pool raises past it).
        "max_connections": 1000,
        # The subscriber reads with its own timeout; redis-py's 5 s default would end idle
        # reads. A command that cannot be sent is given up after
        # realtime.control.SEND_TIMEOUT instead.
        "socket_timeout": None,
        "socket_connect_timeout": 2,
    }
    CHANNEL_LAYERS = {
        "default": {
            # Pub/sub: one PUBLISH per command, one message per process, nothing queued in
            # Redis for a socket that is gone; the subscriber reconnects and subscribes again
            # by itself after an outage (the core layer's read loop would raise into a
            # consumer instead).
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [_redis_host],
                # Pub/sub channels are shared by every database of a server: the db number
                # keeps two deployments (or test runs) on one Redis apart.
                "prefix": f"ctl:{_redis_db(REDIS_URL)}:",
            },
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_PREFIX", "scout"),
            # Fail fast when Redis is down: the login throttle then counts per process.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            # A membership is dropped after group_expiry seconds (for consumers that died
            # without leaving): a socket may stay open for weeks (a wall display).
            "CONFIG": {"group_expiry": 90 * 86400},
        }
    }
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "scouting-platform",
        }
    }

# --- Live layer (realtime/README.md) ------------------------------------------------------
# Redis keys and pub/sub channels start with this prefix (tests use one of their own).
REALTIME_PREFIX = os.environ.get("REALTIME_PREFIX", "rt")
# Events kept per group for clients resuming after a reconnect: for this many seconds, within
# this many bytes per group (realtime/README.md: memory per group).
REALTIME_REPLAY_AGE = float(os.environ.get("REALTIME_REPLAY_AGE", "3900"))
REALTIME_REPLAY_BYTES = int(os.environ.get("REALTIME_REPLAY_BYTES", str(64 << 20)))
REALTIME_REPLAY_TTL = int(os.environ.get("REALTIME_REPLAY_TTL", "86400"))
# Bytes of replay one socket may be sent over its life; a resume past it answers resync.
REALTIME_RESUME_MAX_BYTES = int(os.environ.get("REALTIME_RESUME_MAX_BYTES", str(32 << 20)))
# Bytes of replay one user's sockets together may get per REALTIME_RESUME_USER_WINDOW
# seconds, across every process (then resync): sockets opened again start with a fresh budget
# of their own, not of their user's.
REALTIME_RESUME_USER_MAX_BYTES = int(
    os.environ.get("REALTIME_RESUME_USER_MAX_BYTES", str(32 << 20))
)
REALTIME_RESUME_USER_WINDOW = float(os.environ.get("REALTIME_RESUME_USER_WINDOW", "60"))
# Sockets one session may hold open at once, across every process (more: closed with 4429);
# 0: no limit.
REALTIME_SOCKETS_PER_SESSION = int(os.environ.get("REALTIME_SOCKETS_PER_SESSION", "20"))
# Client messages per socket: a burst, then this many a second; more closes it (4429).
REALTIME_CLIENT_MESSAGE_BURST = int(os.environ.get("REALTIME_CLIENT_MESSAGE_BURST", "30"))
REALTIME_CLIENT_MESSAGE_RATE = float(os.environ.get("REALTIME_CLIENT_MESSAGE_RATE", "2"))
# "N watching": seconds a process's presence entries live without being refreshed.
REALTIME_PRESENCE_TTL = float(os.environ.get("REALTIME_PRESENCE_TTL", "5"))
# Connections per process to Redis for publishing and for cursor/replay reads (callers wait
# for a free one rather than fail).
REALTIME_REDIS_MAX_CONNECTIONS = int(os.environ.get("REALTIME_REDIS_MAX_CONNECTIONS", "50"))
# The Redis instances the live layer's groups (sequences, replay logs, pub/sub channels) are
# spread over by a hash of the group's name (comma-separated URLs; REDIS_URL may be one of
# them). Unset: the groups live on REDIS_URL. Changing the list moves groups: every client
# resyncs once (deploy/README.md, "Sharding the live layer").
REALTIME_REDIS_SHARDS = env_list("REALTIME_REDIS_SHARDS", [])
# Bytes a socket may fall behind (beyond Twisted's 64 KiB buffer) before it is closed (4008).
REALTIME_SOCKET_MAX_PENDING = int(os.environ.get("REALTIME_SOCKET_MAX_PENDING", "1048576"))
# permessage-deflate for clients that offer it (browsers do): each event compressed once,
# without context takeover, for every socket (realtime/connection.py).
REALTIME_COMPRESSION = env_bool("REALTIME_COMPRESSION", True)
# Seconds a daphne process takes on SIGTERM to close its sockets (1001, spread over the window
# so their clients come back to the other processes gradually) and exit (realtime/drain.py).
REALTIME_DRAIN_SECONDS = float(os.environ.get("REALTIME_DRAIN_SECONDS", "10"))
# Leaderboard and stats events: at most one per sport per interval (seconds).
REALTIME_SUMMARY_INTERVAL = float(os.environ.get("REALTIME_SUMMARY_INTERVAL", "0.25"))
# ... and at most one per this interval while changes keep coming (a crowd voting): seconds.
REALTIME_SUMMARY_SUSTAINED_INTERVAL = float(
    os.environ.get("REALTIME_SUMMARY_SUSTAINED_INTERVAL", "1.0")
)
# ... computed this long after the change that asked for them (seconds): the change's own
# events and answer go out first (realtime/summaries.py).
REALTIME_SUMMARY_DELAY = float(os.environ.get("REALTIME_SUMMARY_DELAY", "0.1"))
# vote.changed: the first count of a window goes out at once, the rest merged into one event
# at the window's end (seconds, per sport, shared by every process).
REALTIME_VOTE_WINDOW = float(os.environ.get("REALTIME_VOTE_WINDOW", "0.15"))
# Each daphne process serving metrics publishes a delivery probe this often (seconds; 0: never;
# realtime/probe.py).
REALTIME_PROBE_INTERVAL = float(os.environ.get("REALTIME_PROBE_INTERVAL", "5"))
# The feed's activity of a vote follows its count by this long (seconds, realtime/merge.py).
REALTIME_ACTIVITY_DELAY = float(os.environ.get("REALTIME_ACTIVITY_DELAY", "0.05"))
# ... and those that come during a window of this long go out together at its end (seconds, per
# sport, shared by every process): under a crowd, the feeds move twice a second.
REALTIME_ACTIVITY_WINDOW = float(os.environ.get("REALTIME_ACTIVITY_WINDOW", "0.5"))
# Check every published event's data against its model (realtime/event_payloads.py): on in
# DEBUG and the tests (tests/conftest.py), off in production (a drifted payload fails tests,
# never a user's write).
REALTIME_VALIDATE_EVENTS = env_bool("REALTIME_VALIDATE_EVENTS", DEBUG)

# --- Boards (project/scouting/boards.py) --------------------------------------------------
# Trending halves a vote's weight every this many seconds (changing it needs
# `manage.py boards_rebuild`, since the stored scores carry it).
BOARD_TRENDING_HALF_LIFE = float(os.environ.get("BOARD_TRENDING_HALF_LIFE", "86400"))
# The weekly board's weeks are ISO weeks (Monday 00:00) in this time zone.
BOARD_WEEK_TIME_ZONE = os.environ.get("BOARD_WEEK_TIME_ZONE", "UTC")

# --- Auth -------------------------------------------------------------------------------
PASSWORD_HASHERS = [
    # Argon2id with OWASP's parameters (19 MiB, t=2, p=1); hashes made with Django's defaults
    # (100 MiB, p=8) still verify and are rehashed at the next sign-in.
    "project.accounts.hashers.Argon2idPasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
]
# Password hashes computed at once per process (each Argon2 hash holds 19 MiB while it runs);
# more sign-ins or registrations wait their turn.
PASSWORD_HASH_CONCURRENCY = int(os.environ.get("PASSWORD_HASH_CONCURRENCY", "4"))
AUTH_PASSWORD_VALIDATORS: list[dict[str, Any]] = []

# Failed sign-ins per account from one client (3x per client over every account) within the
# window; per account from clients it never signed in from, the higher ceiling. Each hold lasts
# twice the one before, up to the longest delay (seconds).
LOGIN_THROTTLE_LIMIT = int(os.environ.get("LOGIN_THROTTLE_LIMIT", "10"))
LOGIN_THROTTLE_ACCOUNT_LIMIT = int(os.environ.get("LOGIN_THROTTLE_ACCOUNT_LIMIT", "100"))
LOGIN_THROTTLE_WINDOW = int(os.environ.get("LOGIN_THROTTLE_WINDOW", "300"))
LOGIN_THROTTLE_MAX_DELAY = int(os.environ.get("LOGIN_THROTTLE_MAX_DELAY", "86400"))
# Admins use the admin tools (API, Django admin, the live moderation queue) only from a session
# that passed two-factor sign-in; without a second factor they can only enrol one.
ADMIN_2FA_REQUIRED = env_bool("ADMIN_2FA_REQUIRED", PRODUCTION)
TWO_FACTOR_ISSUER = os.environ.get("TWO_FACTOR_ISSUER", "ScoutVote")
# Addresses (or networks, CIDR) of the reverse proxies in front of the app. X-Forwarded-For
# and X-Real-IP are read only from these; the client is the right-most address in
# X-Forwarded-For that is not one of them. Empty: the peer address is the client.
TRUSTED_PROXIES = env_list("TRUSTED_PROXIES", [])

# --- Budgets, trust and vote integrity (project/common/budgets.py, project/integrity) ------
# Writes allowed per subject (a user, or a client address's keyed hash) per window, counted in
# the cache every process shares. 0 turns one budget off; BUDGETS=off turns them all off.
BUDGETS_ENABLED = os.environ.get("BUDGETS", "on").strip().lower() not in {"off", "0", "false"}
BUDGET_DEFAULTS = {
    "VOTES_PER_MINUTE": 10,
    "VOTES_PER_DAY": 100,
    "NOMINATIONS_PER_DAY": 20,
    "IP_NOMINATIONS_PER_HOUR": 60,
    "REGISTRATIONS_PER_HOUR": 20,
    "FOLLOWS_PER_MINUTE": 30,
    "PLAYER_EDITS_PER_MINUTE": 10,
    # Takedown requests, made without an account, per client address.
    "TAKEDOWNS_PER_HOUR": 5,
    # ... and about one player: confirmed requests over the last 24 hours (counted in the
    # database); beyond it an address already seen for the player is refused, a new one never.
    "TAKEDOWNS_PER_PLAYER_PER_DAY": 3,
    # Confirmation emails per recipient (a keyed hash of the address).
    "TAKEDOWN_EMAILS_PER_DAY": 3,
    # Confirmations per email domain that hide a player from the public at once; beyond it a
    # confirmed request waits for an admin.
    "TAKEDOWN_DOMAIN_CONFIRMATIONS_PER_DAY": 10,
    # Reports per member, and per client address (several members may share one).
    "REPORTS_PER_HOUR": 20,
    "IP_REPORTS_PER_HOUR": 60,
    # Claims of a player's profile per member.
    "CLAIMS_PER_DAY": 5,
}
BUDGETS = {
    name: int(os.environ.get(f"BUDGET_{name}", str(default)))
    for name, default in BUDGET_DEFAULTS.items()
}
# Hours a takedown request's confirmation link (emailed to its address) stays valid.
TAKEDOWN_CONFIRM_HOURS = float(os.environ.get("TAKEDOWN_CONFIRM_HOURS", "24"))
# Confirmed takedown requests about one player, from different email domains and different
# client networks, that take it down fully without an admin (one hides it from the public).
TAKEDOWN_INDEPENDENT_CONFIRMATIONS = int(os.environ.get("TAKEDOWN_INDEPENDENT_CONFIRMATIONS", "3"))
# Votes of accounts younger than this count in voteCount but not on the ranked boards nor in
# the nominator's points (0 trusts every account).
TRUST_ACCOUNT_AGE_HOURS = float(os.environ.get("TRUST_ACCOUNT_AGE_HOURS", "24"))
# Days a vote keeps its IP-prefix key (a keyed hash of the /24 or /48) for clustering;
# `manage.py purge_vote_prefixes` clears older ones.
VOTE_PREFIX_RETENTION_DAYS = int(os.environ.get("VOTE_PREFIX_RETENTION_DAYS", "30"))
# Live detection: accounts of one prefix voting one nomination within an hour (rule a), and
# votes from new accounts on one nomination within an hour (rule c), that raise a flag.
INTEGRITY_PREFIX_ACCOUNTS = int(os.environ.get("INTEGRITY_PREFIX_ACCOUNTS", "5"))
INTEGRITY_NEW_ACCOUNT_BURST = int(os.environ.get("INTEGRITY_NEW_ACCOUNT_BURST", "6"))

# Database sessions indexed by user, so a password change can end the other ones.
SESSION_ENGINE = "project.accounts.sessions"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 14
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_HTTPONLY = False  # the SPA reads it to send X-CSRFToken

# --- I18N -------------------------------------------------------------------------------
LANGUAGE_CODE = "en-us"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = False
USE_TZ = True

# --- Static files and the SPA ------------------------------------------------------------
STATIC_URL = "/static/"
# collectstatic's target (the Docker image runs it). Without it, WhiteNoise serves the built
# SPA straight from its finders, which is what `make run` does.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
if not PRODUCTION and not STATIC_ROOT.exists():
    STATIC_ROOT = None  # type: ignore[assignment]
SPA_DIST_DIR = Path(os.environ.get("SPA_DIST_DIR", str(BASE_DIR / "frontend" / "dist")))
STATICFILES_DIRS = [SPA_DIST_DIR] if SPA_DIST_DIR.exists() else []
WHITENOISE_USE_FINDERS = True
WHITENOISE_KEEP_ONLY_HASHED_FILES = False

# --- Link previews and share cards ----------------------------------------------------
# The public origin (scheme and host, e.g. https://scoutvote.example) the link previews'
# absolute addresses use; empty: the request's own host.
PUBLIC_BASE_URL = os.environ.get("PUBLIC_BASE_URL", "").rstrip("/")
# Seconds a nomination's or scout's preview stays in the cache at most (project/sharing/cache.py):
# writes that change or hide it invalidate it at commit; the TTL bounds a lost invalidation.
SHARE_PREVIEW_TTL = int(os.environ.get("SHARE_PREVIEW_TTL", "60"))
# Previews are cached only in a cache every process shares (Redis): a process's own memory
# would miss the invalidations other processes make.
SHARE_PREVIEW_CACHE = env_bool("SHARE_PREVIEW_CACHE", bool(REDIS_URL))
# Seconds a preview stays at most in a process's own memory, in front of that cache
# (project/sharing/local.py): used only while the process is subscribed to the invalidations
# on Redis; 0: no local layer.
SHARE_PREVIEW_LOCAL_TTL = float(os.environ.get("SHARE_PREVIEW_LOCAL_TTL", "5"))
# Seconds a vote's card redraw waits, so that the votes of a burst share one redraw.
SHARE_CARD_REDRAW_DELAY = float(os.environ.get("SHARE_CARD_REDRAW_DELAY", "10"))
# The fonts a share card draws a character in when its DejaVu Sans has none (Chinese,
# Japanese and Korean names, emoji), tried in this order: comma-separated paths, "{weight}"
# standing for Regular or Bold and "#N" choosing a font in a collection. Debian's
# fonts-noto-cjk and fonts-noto-color-emoji (`make fonts`, the Dockerfile); a path that is not
# there is left out. Empty: DejaVu alone (boxes for what it lacks).
SHARE_CARD_FALLBACK_FONTS = [
    path.strip()
    for path in os.environ.get(
        "SHARE_CARD_FALLBACK_FONTS",
        "/usr/share/fonts/opentype/noto/NotoSansCJK-{weight}.ttc#2,"
        "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf",
    ).split(",")
    if path.strip()
]

# --- Media: avatars -------------------------------------------------------------------
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", str(BASE_DIR / "media")))
S3_BUCKET = os.environ.get("S3_BUCKET", "")
S3_ENDPOINT_URL = os.environ.get("S3_ENDPOINT_URL", "") or None
S3_REGION = os.environ.get("S3_REGION", "us-east-1")
S3_PUBLIC_ENDPOINT_URL = os.environ.get("S3_PUBLIC_ENDPOINT_URL", "") or S3_ENDPOINT_URL
S3_ADDRESSING_STYLE = os.environ.get("S3_ADDRESSING_STYLE", "path" if S3_ENDPOINT_URL else "auto")
AVATAR_MAX_BYTES = 5_242_880
AVATAR_MAX_DIMENSION = 4096
# Pixels (width x height) an avatar may have: a decoded frame takes 4 bytes a pixel.
AVATAR_MAX_PIXELS = int(os.environ.get("AVATAR_MAX_PIXELS", "16000000"))
# Avatars decoded at once per process (project/media/images.py); the others wait their turn.
AVATAR_DECODE_CONCURRENCY = int(os.environ.get("AVATAR_DECODE_CONCURRENCY", "2"))
AVATAR_UPLOAD_LIFETIME = 600  # seconds an upload form (S3 presigned POST) is accepted
AVATAR_CONFIRM_GRACE = 300  # seconds after that to confirm an upload that started in time
AVATAR_URL_LIFETIME = 3600  # presigned GET behind /media/avatars/... (S3)
AVATAR_MAX_PENDING_UPLOADS = 5
# Browsers POST to and load avatars from the S3 endpoint: allow a plain-http one (MinIO).
_s3_public = urlsplit(S3_PUBLIC_ENDPOINT_URL or "")
_S3_ORIGIN = (
    f" {_s3_public.scheme}://{_s3_public.netloc}" if S3_BUCKET and _s3_public.netloc else ""
)

# --- Email ----------------------------------------------------------------------------
# Sent by the background worker only (project/jobs), never inside a request. EMAIL_URL picks
# the backend: smtp://user:password@host:587 (plain, or STARTTLS with ?tls=1),
# smtp+tls://user:password@host:587 (STARTTLS), smtps://user:password@host:465 (implicit
# TLS) or console:// (printed on the worker's console). Without it, EMAIL_HOST / EMAIL_PORT /
# EMAIL_HOST_USER / EMAIL_HOST_PASSWORD / EMAIL_USE_TLS / EMAIL_USE_SSL (or EMAIL_BACKEND)
# pick one; with none of them set, emails are printed on the worker's console.
EMAIL_URL = os.environ.get("EMAIL_URL", "")
_email = urlsplit(EMAIL_URL) if EMAIL_URL else None
if _email is not None and _email.scheme not in {"smtp", "smtps", "smtp+tls", "console"}:
    raise ImproperlyConfigured(
        "EMAIL_URL must start with smtp://, smtp+tls://, smtps:// or console://"
    )
_email_query = dict(parse_qsl(_email.query)) if _email is not None else {}
_email_console = _email is not None and _email.scheme == "console"
if _email_console:
    _email = None
_smtp_configured = _email is not None or bool(os.environ.get("EMAIL_HOST"))
EMAIL_BACKEND = (
    "django.core.mail.backends.console.EmailBackend"
    if _email_console
    else os.environ.get(
        "EMAIL_BACKEND",
        "django.core.mail.backends.smtp.EmailBackend"
        if _smtp_configured
        else "django.core.mail.backends.console.EmailBackend",
    )
)
EMAIL_HOST = (_email.hostname if _email else None) or os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = (_email.port if _email else None) or int(
    os.environ.get(
        "EMAIL_PORT",
        "465"
        if _email and _email.scheme == "smtps"
        else "587"
        if _email and _email.scheme == "smtp+tls"
        else "25",
    )
)
EMAIL_HOST_USER = (
    unquote(_email.username or "") if _email else os.environ.get("EMAIL_HOST_USER", "")
)
EMAIL_HOST_PASSWORD = (
    unquote(_email.password or "") if _email else os.environ.get("EMAIL_HOST_PASSWORD", "")
)
EMAIL_USE_TLS = (
    env_bool("EMAIL_USE_TLS", False)
    or _email_query.get("tls", "") in {"1", "true"}
    or bool(_email and _email.scheme == "smtp+tls")
)
EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False) or bool(_email and _email.scheme == "smtps")
# Seconds an SMTP connection may block the worker before the attempt counts as failed.
EMAIL_TIMEOUT = float(os.environ.get("EMAIL_TIMEOUT", "10"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "ScoutVote <noreply@scoutvote.example>")
# Notification emails (project/notify): the first of a kind about one nomination goes at the
# next minute's dispatch, the others of the following EMAIL_FOLD_SECONDS fold into one; at
# most EMAIL_DAILY_CAP notification emails a member a day (UTC), the weekly digest apart.
EMAIL_FOLD_SECONDS = int(os.environ.get("EMAIL_FOLD_SECONDS", "3600"))
EMAIL_DAILY_CAP = int(os.environ.get("EMAIL_DAILY_CAP", "10"))
# Sent emails' and pushes' idempotency rows are deleted this many days after they were made
# (``prune_outbound``, daily); parked ones stay until an operator deals with them.
OUTBOUND_RETENTION_DAYS = int(os.environ.get("OUTBOUND_RETENTION_DAYS", "30"))
# How long an email's unsubscribe link works (seconds; 90 days).
EMAIL_UNSUBSCRIBE_MAX_AGE = int(os.environ.get("EMAIL_UNSUBSCRIBE_MAX_AGE", str(90 * 86400)))
# The mailto: form of List-Unsubscribe beside the https one (empty: https only).
EMAIL_UNSUBSCRIBE_MAILTO = os.environ.get("EMAIL_UNSUBSCRIBE_MAILTO", "")

# --- Background work (project/jobs, docs/decisions.md) ------------------------------------
# Django's tasks API on its database backend: a task is a row written in the transaction
# that causes it, run by `manage.py run_worker` (one process; `make run` starts one beside
# the server). Nothing of it is kept in Redis.
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default", "email", "periodic", "push"],
    }
}
# An email is tried this many times, the n-th retry waiting JOBS_RETRY_DELAY * 2**(n-1)
# seconds (at most JOBS_RETRY_MAX_DELAY), then parked for an admin or operator.
JOBS_MAX_ATTEMPTS = int(os.environ.get("JOBS_MAX_ATTEMPTS", "6"))
JOBS_RETRY_DELAY = float(os.environ.get("JOBS_RETRY_DELAY", "30"))
JOBS_RETRY_MAX_DELAY = float(os.environ.get("JOBS_RETRY_MAX_DELAY", "3600"))
# Seconds between the worker's heartbeats (and its scheduler's and reaper's rounds); a worker
# silent for JOBS_WORKER_DEAD_AFTER is dead, and the tasks it was running are run again.
JOBS_HEARTBEAT = float(os.environ.get("JOBS_HEARTBEAT", "5"))
JOBS_WORKER_DEAD_AFTER = float(os.environ.get("JOBS_WORKER_DEAD_AFTER", "30"))
# Seconds the worker waits between looks at an empty queue.
JOBS_POLL_INTERVAL = float(os.environ.get("JOBS_POLL_INTERVAL", "1"))

# --- Web push (project/push, README "Web push") --------------------------------------------
# The VAPID key pair (`manage.py vapid_keys` prints one) and its contact; with either key
# unset, push is off: GET /api/push/key answers null and subscribing answers 404.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "")
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:admin@scoutvote.example")
# Seconds a push service keeps a message for a device that is offline, and that a push
# service may take to connect and to answer before the attempt counts as failed.
PUSH_TTL = int(os.environ.get("PUSH_TTL", "3600"))
PUSH_TIMEOUT = float(os.environ.get("PUSH_TIMEOUT", "10"))
# Tests only: push endpoints on http and on local or private addresses are accepted.
PUSH_ALLOW_PRIVATE_ENDPOINTS = env_bool("PUSH_ALLOW_PRIVATE_ENDPOINTS", False)
if PRODUCTION and PUSH_ALLOW_PRIVATE_ENDPOINTS:
    raise ImproperlyConfigured("PUSH_ALLOW_PRIVATE_ENDPOINTS must not be set in production")

# --- Security headers ----------------------------------------------------------------
X_FRAME_OPTIONS = "DENY"
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
CONTENT_SECURITY_POLICY = os.environ.get(
    "CONTENT_SECURITY_POLICY",
    f"default-src 'self'; img-src 'self' data: blob: https:{_S3_ORIGIN}; "
    "style-src 'self' 'unsafe-inline'; "
    # connect-src: own origin only ('self' covers ws:/wss: to the same host in CSP Level 3
    # browsers: Chromium, Firefox and Safari today) plus the configured S3 endpoint.
    f"script-src 'self'; connect-src 'self'{_S3_ORIGIN}; frame-ancestors 'none'; "
    "base-uri 'self'; form-action 'self'; object-src 'none'",
)

if PRODUCTION:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    # Only a local plain-http demo (docker compose on localhost) turns these off.
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
    }

# json: one JSON object per line with the request's id (project/logs.py); text: plain lines.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "json" if PRODUCTION else "text")
# Seconds within which a repeated record (same logger, level and message) is counted, not
# written; the next one after carries the count (project/common/logrepeat.py). 0: write all.
LOG_REPEAT_INTERVAL = float(os.environ.get("LOG_REPEAT_INTERVAL", "10"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "repeats": {
            "()": "project.common.logrepeat.RepeatFilter",
            "interval": LOG_REPEAT_INTERVAL,
        },
        "request_id": {"()": "project.logs.RequestIdFilter"},
    },
    "formatters": {"json": {"()": "project.logs.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["repeats", "request_id"],
            **({"formatter": "json"} if LOG_FORMAT == "json" else {}),
        }
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
        # daphne's access log already has one line per request, 4xx included; django.request
        # would repeat every 4xx as a warning. Errors (5xx, with their traceback) still show.
        "django.request": {"level": "ERROR"},
    },
}

# Error reports to Sentry only when SENTRY_DSN is set: nothing is sent otherwise, and what is
# sent names no member (project/sentry.py).
SENTRY_ENABLED = init_sentry(DJANGO_ENV)
