from django.apps import AppConfig


class CoachesConfig(AppConfig):
    name = "project.coaches"
    label = "coaches"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.accounts.export import register_export_section
        from project.claims.selectors import register_player_export_section
        from project.coaches import services
        from project.coaches.schemas import CoachesChangedOut, EndorsementsChangedOut
        from project.coaches.selectors import coach_export, player_endorsements_export
        from project.moderation.hooks import register_endorsement_removed
        from realtime.publish import register_payloads

        register_payloads(
            {
                "coaches.changed": CoachesChangedOut,
                "endorsements.changed": EndorsementsChangedOut,
            }
        )
        register_endorsement_removed(services.endorsement_publish)
        register_export_section(coach_export)
        register_player_export_section(player_endorsements_export)
