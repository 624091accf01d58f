"""Background work (project/jobs, docs/decisions.md).

Django's tasks API on its database backend: a task is a row written in the transaction that
causes it, run by `manage.py run_worker` (one process; `make run` starts one beside the
server). Nothing of it is kept in Redis.
"""

from __future__ import annotations

from project.settings.env import setting

TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["default", "email", "periodic", "push"],
    }
}
JOBS_MAX_ATTEMPTS = setting(
    "JOBS_MAX_ATTEMPTS",
    6,
    "Tries of an email or a push before it is parked for an admin or operator.",
)
JOBS_RETRY_DELAY = setting(
    "JOBS_RETRY_DELAY",
    30.0,
    "Seconds before the first retry; the n-th waits this times 2**(n-1).",
    shown="30",
)
JOBS_RETRY_MAX_DELAY = setting(
    "JOBS_RETRY_MAX_DELAY", 3600.0, "Seconds a retry waits at most.", shown="3600"
)
JOBS_HEARTBEAT = setting(
    "JOBS_HEARTBEAT",
    5.0,
    "Seconds between the worker's heartbeats (and its scheduler's and reaper's rounds).",
    shown="5",
)
JOBS_WORKER_DEAD_AFTER = setting(
    "JOBS_WORKER_DEAD_AFTER",
    30.0,
    "Seconds of silence after which a worker is dead and the tasks it was running are run again.",
    shown="30",
)
JOBS_POLL_INTERVAL = setting(
    "JOBS_POLL_INTERVAL",
    1.0,
    "Seconds the worker waits between looks at an empty queue.",
    shown="1",
)
