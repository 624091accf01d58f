"""Logs, errors, metrics and the server processes.

Some of these are read by the process itself before Django's settings exist (the gunicorn
config, the heap tuning, Sentry's start-up, the readiness checks): they are declared here with
``external()`` and read where they are used.
"""

from __future__ import annotations

from project.sentry import init_from_env as init_sentry
from project.settings.base import DJANGO_ENV, PRODUCTION
from project.settings.env import external, setting

LOG_FORMAT = setting(
    "LOG_FORMAT",
    "json" if PRODUCTION else "text",
    "`json`: one JSON object per log line with the request's id (project/logs.py); `text`: "
    "plain lines.",
    shown="`json` with `DJANGO_ENV=production`, else `text`",
)
LOG_LEVEL = setting("LOG_LEVEL", "INFO", "The root logger's level.")
LOG_REPEAT_INTERVAL = setting(
    "LOG_REPEAT_INTERVAL",
    10.0,
    "Seconds within which a repeated log record (same logger, level and message) is counted, "
    "not written; the next one after carries the count. 0: write all.",
    shown="10",
)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "repeats": {
            "()": "project.common.logrepeat.RepeatFilter",
            "interval": LOG_REPEAT_INTERVAL,
        },
        "request_id": {"()": "project.logs.RequestIdFilter"},
        "disallowed_host": {"()": "project.logs.DisallowedHostLine"},
    },
    "formatters": {"json": {"()": "project.logs.JsonFormatter"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["repeats", "request_id"],
            **({"formatter": "json"} if LOG_FORMAT == "json" else {}),
        }
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
        # daphne's access log already has one line per request, 4xx included; django.request
        # would repeat every 4xx as a warning. Errors (5xx, with their traceback) still show.
        "django.request": {"level": "ERROR"},
        # A Host not in DJANGO_ALLOWED_HOSTS: one warning line, no traceback.
        "django.security.DisallowedHost": {"filters": ["disallowed_host"]},
    },
}

external(
    "SENTRY_DSN",
    "",
    "Report unhandled errors to Sentry at this DSN; unset: nothing is sent. Reports name no "
    "member (project/sentry.py).",
    reader="project/sentry.py",
)
external(
    "SENTRY_ENVIRONMENT",
    "`DJANGO_ENV`",
    "With `SENTRY_DSN`: the environment reports carry.",
    reader="project/sentry.py",
)
external(
    "SENTRY_RELEASE",
    "`scoutvote@<version>`",
    "With `SENTRY_DSN`: the release reports carry.",
    reader="project/sentry.py",
)
external(
    "SENTRY_TRACES_SAMPLE_RATE",
    "0",
    "With `SENTRY_DSN`: the share of requests traced.",
    reader="project/sentry.py",
)
# Error reports to Sentry only when SENTRY_DSN is set: nothing is sent otherwise, and what is
# sent names no member (project/sentry.py).
SENTRY_ENABLED = init_sentry(DJANGO_ENV)

external(
    "METRICS_PORT",
    "",
    "The port a server process serves its Prometheus metrics on (none: no metrics served).",
    reader="project/common/metrics.py, project/ops/gunicorn_conf.py",
)
external(
    "METRICS_ADDR",
    "127.0.0.1",
    "The address a server process serves its Prometheus metrics on.",
    reader="project/common/metrics.py, project/ops/gunicorn_conf.py",
)
external(
    "PROMETHEUS_MULTIPROC_DIR",
    "",
    "The HTTP pool only: the directory its gunicorn workers write their metrics to "
    "(multiprocess mode; emptied at the pool's start).",
    reader="project/common/metrics.py, project/ops/gunicorn_conf.py",
)
external(
    "READINESS_TIMEOUT",
    "1.0",
    "Seconds `/readyz` gives its checks together.",
    reader="project/health.py",
)
external(
    "READINESS_INTERVAL",
    "5",
    "Seconds between the readiness evaluations each server process makes on its own (0: "
    "only on `/readyz`).",
    reader="project/health.py",
)
external(
    "GC_FREEZE",
    "1",
    "Server processes: `gc.freeze()` after start-up unless `0` (docs/decisions.md#gc-freeze).",
    reader="project/common/heap.py",
)
external(
    "GC_THRESHOLD",
    "50000,20,100",
    "Server processes: the collector's three thresholds (CPython's are 700,10,10).",
    reader="project/common/heap.py",
)
external(
    "GC_PAUSE_LOG",
    "",
    "A file to which each generation-1/2 collection of a server process appends its pause "
    "(diagnostics).",
    reader="project/common/heap.py",
)
external(
    "NGINX_TRUSTED_BALANCERS",
    "",
    "`make serve-prod`: comma-separated addresses or CIDR networks of the balancers in front "
    "of this node's nginx, whose X-Real-IP nginx takes as the client's address.",
    reader="project/ops/prodshape.py",
)
