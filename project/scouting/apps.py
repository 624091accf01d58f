from django.apps import AppConfig


class ScoutingConfig(AppConfig):
    name = "project.scouting"
    label = "scouting"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.accounts.export import register_export_section
        from project.accounts.selectors import (
            register_scout_annotations,
            register_suggestion_filter,
        )
        from project.accounts.services import register_user_deletion_step
        from project.scouting.boards.live import SUMMARIES
        from project.scouting.boards.schemas import LeaderboardEventOut
        from project.scouting.export import scouting_export
        from project.scouting.schemas import (
            ActivityBatchOut,
            ActivityOut,
            NominationEventOut,
            NotificationOut,
            StatsOut,
        )
        from project.scouting.scouts import not_followed, scout_annotations
        from project.scouting.services.deletion import user_scouting_data_delete
        from realtime.publish import register_payloads
        from realtime.summary_source import register_summary_source

        register_user_deletion_step(user_scouting_data_delete)
        register_export_section(scouting_export)
        # Accounts do not import scouting: a scout's profile counts their followers and
        # nominations, and their suggestions leave out whom the viewer already follows.
        register_scout_annotations(scout_annotations)
        register_suggestion_filter(not_followed)

        # The live layer pushes the boards and stats this app computes, without importing it.
        register_summary_source(SUMMARIES)
        # What its live events carry (realtime/event_payloads.py: the SPA's types, checks).
        register_payloads(
            {
                "nomination.created": NominationEventOut,
                "nomination.updated": NominationEventOut,
                "activity.created": ActivityOut,
                "activity.batch": ActivityBatchOut,
                "notification.created": NotificationOut,
                "leaderboard.changed": LeaderboardEventOut,
                "stats.changed": StatsOut,
            }
        )
