from django.apps import AppConfig


class ScoutingConfig(AppConfig):
    name = "project.scouting"
    label = "scouting"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.scouting.board_selectors import SUMMARIES
        from realtime.summary_source import register_summary_source

        # The live layer pushes the boards and stats this app computes, without importing it.
        register_summary_source(SUMMARIES)
