from django.apps import AppConfig


class UpdatesConfig(AppConfig):
    name = "project.updates"
    label = "updates"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.accounts.export import register_export_section
        from project.accounts.services import register_user_deletion_step
        from project.claims.selectors import register_player_export_section
        from project.scouting.hooks import register_player_anonymised
        from project.updates.schemas import PlayerUpdateChangedOut, PlayerUpdateQueueOut
        from project.updates.services import (
            player_updates_erase,
            player_updates_export,
            updates_export,
            user_updates_delete,
        )
        from realtime.publish import register_payloads

        register_user_deletion_step(user_updates_delete)
        register_export_section(updates_export)
        register_player_anonymised(player_updates_erase)
        register_player_export_section(player_updates_export)

        register_payloads(
            {
                "player_update.changed": PlayerUpdateChangedOut,
                "player_update_queue.changed": PlayerUpdateQueueOut,
            }
        )
