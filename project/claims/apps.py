from django.apps import AppConfig


class ClaimsConfig(AppConfig):
    name = "project.claims"
    label = "claims"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.claims.retention import edited
        from project.claims.schemas import ClaimsChangedOut
        from project.scouting.hooks import register_player_changed
        from realtime.publish import register_payloads

        register_payloads({"claims.changed": ClaimsChangedOut})
        # Edits keep a player's identity: the retention job counts from the last one.
        register_player_changed(edited)
