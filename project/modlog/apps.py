from django.apps import AppConfig


class ModlogConfig(AppConfig):
    name = "project.modlog"
    label = "modlog"
    default_auto_field = "django.db.models.BigAutoField"
