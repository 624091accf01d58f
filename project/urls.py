import json
import re
from pathlib import Path

from django.contrib import admin
from django.urls import include, path, re_path

from project.api import api
from project.sharing.views import share_card
from project.updates.views import update_image
from project.views import api_not_found, service_worker, spa_index, web_manifest

# The paths Django answers itself, never with the SPA: the same list the service worker lets
# through to the server (frontend/sw/sw.ts imports it), so the two cannot disagree.
SERVER_PATHS = json.loads(Path(__file__).with_name("server_paths.json").read_text("utf-8"))
_SERVER_PREFIXES = "|".join(re.escape(prefix) for prefix in SERVER_PATHS["prefixes"])
_SERVER_FILES = "|".join(re.escape(name) for name in SERVER_PATHS["files"])
SPA_PATH = rf"^(?!(?:{_SERVER_PREFIXES})(?:/|$)|(?:{_SERVER_FILES})$).*$"

# An unreachable database answers 503 + Retry-After (JSON), not 500, wherever it is noticed.
handler500 = "project.views.server_error"

urlpatterns = [
    path("api/", api.urls),
    # [\s\S], not ".": a path with an encoded newline (/api/users/1%0A3) is an API path too.
    re_path(r"^api(?:/[\s\S]*)?$", api_not_found),
    path("admin-django/", admin.site.urls),
    path("media/cards/<str:name>", share_card),
    path("media/updates/<int:player_id>/<str:name>", update_image, name="update-image"),
    path("media/", include("project.media.urls")),
    path("email/", include("project.notify.urls")),
    # The installable app's worker and manifest live at the root (the worker's scope is "/").
    path("sw.js", service_worker, name="service-worker"),
    path("manifest.webmanifest", web_manifest, name="web-manifest"),
    # Every other path is a client-side route.
    re_path(SPA_PATH, spa_index),
]
