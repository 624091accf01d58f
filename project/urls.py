from django.contrib import admin
from django.urls import include, path, re_path

from project.api import api
from project.sharing.views import share_card
from project.views import api_not_found, service_worker, spa_index, web_manifest

# An unreachable database answers 503 + Retry-After (JSON), not 500, wherever it is noticed.
handler500 = "project.views.server_error"

urlpatterns = [
    path("api/", api.urls),
    # [\s\S], not ".": a path with an encoded newline (/api/users/1%0A3) is an API path too.
    re_path(r"^api(?:/[\s\S]*)?$", api_not_found),
    path("admin-django/", admin.site.urls),
    path("media/cards/<str:name>", share_card),
    path("media/", include("project.media.urls")),
    path("email/", include("project.notify.urls")),
    # The installable app's worker and manifest live at the root (the worker's scope is "/").
    path("sw.js", service_worker, name="service-worker"),
    path("manifest.webmanifest", web_manifest, name="web-manifest"),
    # Every other path that is not a static asset or the websocket is a client-side route.
    re_path(r"^(?!static/|ws/|admin-django/|email/).*$", spa_index),
]
