from django.apps import AppConfig


class IntegrityConfig(AppConfig):
    name = "project.integrity"
    label = "integrity"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.integrity.schemas import FlagOut
        from realtime.publish import register_payloads

        register_payloads({"integrity.flagged": FlagOut})
