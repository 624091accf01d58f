from django.apps import AppConfig


class EngagementConfig(AppConfig):
    name = "project.engagement"
    label = "engagement"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.accounts.export import register_export_section
        from project.engagement import receivers
        from project.engagement.schemas import QuestOut
        from project.engagement.selectors import engagement_export
        from realtime.publish import register_payloads

        register_payloads({"quest.progress": QuestOut})
        receivers.register()
        register_export_section(engagement_export)
