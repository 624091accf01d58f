from django.apps import AppConfig


class MediaConfig(AppConfig):
    name = "project.media"
    label = "media"
    default_auto_field = "django.db.models.BigAutoField"
