from django.apps import AppConfig


class IntegrityConfig(AppConfig):
    name = "project.integrity"
    label = "integrity"
    default_auto_field = "django.db.models.BigAutoField"
