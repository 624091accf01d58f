from django.apps import AppConfig


class ClaimsConfig(AppConfig):
    name = "project.claims"
    label = "claims"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.claims.schemas import ClaimsChangedOut
        from realtime.publish import register_payloads

        register_payloads({"claims.changed": ClaimsChangedOut})
