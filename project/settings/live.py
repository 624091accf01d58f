"""Redis and the live layer (realtime/README.md)."""

from __future__ import annotations

from redis.connection import parse_url as parse_redis_url

from project.settings.base import DEBUG
from project.settings.env import setting


def _redis_db(url: str) -> int:
    """The database number of a Redis URL, as redis-py reads it (path or ``?db=``)."""
    return int(parse_redis_url(url).get("db", 0))


REDIS_URL = setting(
    "REDIS_URL",
    "",
    "`redis://host:6379/0`: the live layer's pub/sub, sequences and replay logs, the shared "
    "cache (budgets, login throttle, previews) and the per-user control channel; unset: all "
    "in the process.",
)
_CACHE_PREFIX = setting("CACHE_PREFIX", "scout", "Prefix of the cache's keys in Redis.")

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
            "KEY_PREFIX": _CACHE_PREFIX,
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

REALTIME_PREFIX = setting(
    "REALTIME_PREFIX", "rt", "Prefix of the live layer's Redis keys and pub/sub channels."
)
REALTIME_REPLAY_AGE = setting(
    "REALTIME_REPLAY_AGE",
    3900.0,
    "Seconds of events each group's replay log keeps for clients resuming after a reconnect.",
    shown="3900",
)
REALTIME_REPLAY_BYTES = setting(
    "REALTIME_REPLAY_BYTES",
    64 << 20,
    "Bytes at most of each group's replay log (memory per group in realtime/README.md).",
)
REALTIME_REPLAY_TTL = setting(
    "REALTIME_REPLAY_TTL", 86400, "Seconds a replay log lives after its group's last event."
)
REALTIME_RESUME_MAX_BYTES = setting(
    "REALTIME_RESUME_MAX_BYTES",
    32 << 20,
    "Bytes of replay one socket may be sent over its life; a resume past it answers resync.",
)
REALTIME_RESUME_USER_MAX_BYTES = setting(
    "REALTIME_RESUME_USER_MAX_BYTES",
    32 << 20,
    "Bytes of replay one user's sockets together may get per `REALTIME_RESUME_USER_WINDOW`, "
    "across every process (then resync).",
)
REALTIME_RESUME_USER_WINDOW = setting(
    "REALTIME_RESUME_USER_WINDOW",
    60.0,
    "Seconds of the per-user replay budget's window.",
    shown="60",
)
_SOCKETS_PER_SESSION = setting(
    "REALTIME_SOCKETS_PER_SESSION",
    "",
    "The older name of `REALTIME_SOCKETS_PER_MEMBER`, read when that one is unset.",
)
REALTIME_SOCKETS_PER_MEMBER = int(
    setting(
        "REALTIME_SOCKETS_PER_MEMBER",
        "",
        "Sockets one member may hold open at once, across their sign-ins and every process "
        "(more: closed with 4429); 0: no limit.",
        shown="20",
    )
    or _SOCKETS_PER_SESSION
    or "20"
)
REALTIME_CLIENT_MESSAGE_BURST = setting(
    "REALTIME_CLIENT_MESSAGE_BURST", 30, "Client messages per socket in a burst."
)
REALTIME_CLIENT_MESSAGE_RATE = setting(
    "REALTIME_CLIENT_MESSAGE_RATE",
    2.0,
    "Client messages per socket per second after the burst; more closes it (4429).",
    shown="2",
)
REALTIME_PRESENCE_TTL = setting(
    "REALTIME_PRESENCE_TTL",
    5.0,
    'Seconds a process\'s "N watching" entries live without being refreshed.',
    shown="5",
)
REALTIME_REDIS_MAX_CONNECTIONS = setting(
    "REALTIME_REDIS_MAX_CONNECTIONS",
    50,
    "The live layer's Redis connections per process (callers wait for a free one).",
)
REALTIME_REDIS_SHARDS: list[str] = setting(
    "REALTIME_REDIS_SHARDS",
    [],
    "Comma-separated Redis URLs the live layer's groups are spread over by a hash of their "
    "name; unset: `REDIS_URL`. Changing it makes every client resync once (deploy/README.md).",
)
REALTIME_SOCKET_MAX_PENDING = setting(
    "REALTIME_SOCKET_MAX_PENDING",
    1048576,
    "Bytes a socket may fall behind (beyond its 4 KiB Twisted and 64 KiB kernel buffers) "
    "before it is closed with 4008 and resumes.",
)
REALTIME_COMPRESSION = setting(
    "REALTIME_COMPRESSION",
    True,
    "Answer a client's permessage-deflate offer, each event compressed once for every socket.",
)
REALTIME_DRAIN_SECONDS = setting(
    "REALTIME_DRAIN_SECONDS",
    10.0,
    "Seconds a daphne process takes on SIGTERM to close its sockets (1001, spread over the "
    "window) and exit (realtime/drain.py); `make serve-prod` reads it too.",
    shown="10",
)
REALTIME_SUMMARY_INTERVAL = setting(
    "REALTIME_SUMMARY_INTERVAL",
    0.25,
    "Seconds between leaderboard and stats events of one sport, at least.",
)
REALTIME_SUMMARY_SUSTAINED_INTERVAL = setting(
    "REALTIME_SUMMARY_SUSTAINED_INTERVAL",
    1.0,
    "The same while changes keep coming (a crowd voting).",
)
REALTIME_SUMMARY_DELAY = setting(
    "REALTIME_SUMMARY_DELAY",
    0.1,
    "Seconds after a change its leaderboards and stats are computed, so the change's own "
    "events and answer go out first.",
)
REALTIME_VOTE_WINDOW = setting(
    "REALTIME_VOTE_WINDOW",
    0.15,
    "`vote.changed` per sport: the first count of a window at once, the rest merged into one "
    "event at its end (seconds).",
)
REALTIME_PROBE_INTERVAL = setting(
    "REALTIME_PROBE_INTERVAL",
    5.0,
    "Seconds between a daphne process's delivery probes (0: none; realtime/probe.py).",
    shown="5",
)
REALTIME_ACTIVITY_DELAY = setting(
    "REALTIME_ACTIVITY_DELAY",
    0.05,
    "Seconds the feed's activity of a vote follows its count (realtime/merge.py).",
)
REALTIME_ACTIVITY_WINDOW = setting(
    "REALTIME_ACTIVITY_WINDOW",
    0.5,
    "The feed's activity per sport: the first of a window goes out, the rest together at its "
    "end (seconds).",
)
# On in DEBUG and the tests (tests/conftest.py), off in production: a drifted payload fails
# tests, never a user's write.
REALTIME_VALIDATE_EVENTS = setting(
    "REALTIME_VALIDATE_EVENTS",
    DEBUG,
    "Check every published event's data against its model (realtime/event_payloads.py).",
    shown="as `DJANGO_DEBUG`",
)
