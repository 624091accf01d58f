from django.apps import AppConfig


class ModlogConfig(AppConfig):
    name = "project.modlog"
    label = "modlog"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.modlog.schemas import ModlogEntryOut
        from realtime.publish import register_payloads

        register_payloads({"modlog.created": ModlogEntryOut})
