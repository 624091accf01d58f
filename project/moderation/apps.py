from django.apps import AppConfig


class ModerationConfig(AppConfig):
    name = "project.moderation"
    label = "moderation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.accounts.export import register_export_section
        from project.moderation.schemas import ModerationChangedOut, ReportGroupOut, TakedownOut
        from project.moderation.selectors import report_export
        from realtime.publish import register_payloads

        register_export_section(report_export)

        register_payloads(
            {
                "moderation.changed": ModerationChangedOut,
                "report.created": ReportGroupOut,
                "takedown.created": TakedownOut,
            }
        )
