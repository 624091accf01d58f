from django.urls import re_path

from project.media import views
from project.media.storage import KEY_PATTERN, STAGING_PREFIX

urlpatterns = [
    re_path(rf"^(?P<key>{STAGING_PREFIX}{KEY_PATTERN})$", views.upload_post, name="media-upload"),
    re_path(rf"^(?P<key>{KEY_PATTERN})$", views.avatar_get, name="media-avatar"),
]
