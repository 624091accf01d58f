from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "project.moderation"
    label = "moderation"
    default_auto_field = "django.db.models.BigAutoField"
