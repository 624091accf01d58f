from django.apps import AppConfig


class IntegrityConfig(AppConfig):
    name = "project.integrity"
    label = "integrity"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.accounts.selectors import register_suggestion_filter
        from project.integrity.schemas import FlagOut
        from project.integrity.selectors import not_flagged
        from project.integrity.services.detection import vote_committed_inspect
        from project.scouting.hooks import register_vote_committed
        from realtime.publish import register_payloads

        register_payloads({"integrity.flagged": FlagOut})
        # Scouting does not import integrity: each vote cast is inspected once it commits.
        register_vote_committed(vote_committed_inspect)
        # Accounts do not import integrity: a scout under an open flag is never suggested.
        register_suggestion_filter(not_flagged)
