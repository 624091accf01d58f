"""WSGI entry point: the HTTP pool of the production shape (gunicorn gthread workers, see
deploy/README.md). Websockets are served by daphne (project.asgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")

application = get_wsgi_application()

from project.common.heap import tune_after_startup  # noqa: E402
from realtime.summaries import get_scheduler  # noqa: E402

# The summaries thread also waits for the week to turn over (no cron), in every server process.
get_scheduler().start()
tune_after_startup()
