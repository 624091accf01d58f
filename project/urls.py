from django.contrib import admin
from django.urls import include, path, re_path

from project.api import api
from project.views import api_not_found, spa_index

urlpatterns = [
    path("api/", api.urls),
    re_path(r"^api(?:/.*)?$", api_not_found),
    path("admin-django/", admin.site.urls),
    path("media/", include("project.media.urls")),
    # Every other path that is not a static asset or the websocket is a client-side route.
    re_path(r"^(?!static/|ws/|admin-django/).*$", spa_index),
]
