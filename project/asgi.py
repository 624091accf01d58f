"""ASGI entry point: HTTP goes to Django, websockets to the realtime routing."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "project.settings")

django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from project.common.heap import tune_after_startup  # noqa: E402
from realtime.routing import websocket_application  # noqa: E402
from realtime.summaries import get_scheduler  # noqa: E402

# The server's summaries thread also waits for the week to turn over (no cron).
get_scheduler().start()

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        "websocket": websocket_application,
    }
)

# Freeze the start-up heap and make young collections rarer (project/common/heap.py).
tune_after_startup()
