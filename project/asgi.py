"""ASGI entry point: HTTP goes to Django (its WSGI handler in the request thread), websockets to
the realtime routing; ``/healthz`` and ``/readyz`` are answered on the event loop in front of
Django (project/health.py), and the process's metrics are served on ``METRICS_PORT`` when it is
set (project/common/metrics.py)."""

import os
import sys

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")

django_http = get_wsgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from project.common import metrics  # noqa: E402
from project.common.heap import tune_after_startup  # noqa: E402
from project.common.wsgi_http import WsgiHttp  # noqa: E402
from project.health import HealthAsgi, start_in_daphne  # noqa: E402
from project.sentry import wrap_asgi  # noqa: E402
from realtime import drain, probe  # noqa: E402
from realtime.routing import websocket_application  # noqa: E402
from realtime.summaries import get_scheduler  # noqa: E402

# The server's summaries thread also waits for the week to turn over (no cron).
get_scheduler().start()

application = ProtocolTypeRouter(
    {
        # Django's WSGI handler, one thread hop per request (project/common/wsgi_http.py).
        "http": HealthAsgi(WsgiHttp(django_http)),
        # Behind Sentry's ASGI middleware when SENTRY_DSN is set (project/sentry.py).
        "websocket": wrap_asgi(websocket_application),
    }
)

metrics.time_gc_pauses()
if metrics.serve() is not None:
    # A daphne process that serves metrics probes the live layer's delivery (realtime/probe.py).
    probe.start_in_daphne()

# A daphne process evaluates its readiness on a timer, /readyz called or not (project/health.py).
start_in_daphne()

if "twisted.internet.reactor" in sys.modules:
    # Under daphne: SIGTERM drains the process's sockets before it exits (realtime/drain.py).
    drain.install()

# Freeze the start-up heap and make young collections rarer (project/common/heap.py).
tune_after_startup()
