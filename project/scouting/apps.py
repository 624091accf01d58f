from django.apps import AppConfig


class ScoutingConfig(AppConfig):
    name = "project.scouting"
    label = "scouting"
    default_auto_field = "django.db.models.BigAutoField"
