"""WSGI entry point: the HTTP pool of the production shape (gunicorn gthread workers, see
deploy/README.md). Websockets are served by daphne (project.asgi). ``/healthz`` and
``/readyz`` are answered in front of Django (project/health.py); the pool's metrics are served
by gunicorn's arbiter (project/ops/gunicorn_conf.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")

django_wsgi = get_wsgi_application()

from project.common import metrics  # noqa: E402
from project.common.heap import tune_after_startup  # noqa: E402
from project.health import HealthWsgi  # noqa: E402
from realtime.summaries import get_scheduler  # noqa: E402

application = HealthWsgi(django_wsgi)

# The summaries thread also waits for the week to turn over (no cron), in every server process.
get_scheduler().start()
metrics.time_gc_pauses()
tune_after_startup()
