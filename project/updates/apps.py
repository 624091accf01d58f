from django.apps import AppConfig


class UpdatesConfig(AppConfig):
    name = "project.updates"
    label = "updates"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.updates.schemas import PlayerUpdateChangedOut, PlayerUpdateQueueOut
        from realtime.publish import register_payloads

        register_payloads(
            {
                "player_update.changed": PlayerUpdateChangedOut,
                "player_update_queue.changed": PlayerUpdateQueueOut,
            }
        )
