from django.apps import AppConfig


class NotifyConfig(AppConfig):
    """Reaching members outside the open tab: the outbound events a notification makes, the
    folded notification emails and the weekly digest built from them by the worker, and the
    signed one-click unsubscribe links those emails carry."""

    name = "project.notify"
    label = "notify"
    verbose_name = "Outbound notifications"

    def ready(self) -> None:
        # Registers the system check of the address the emails' links are made from.
        from project.notify import checks  # noqa: F401
        from project.notify.delivery import notification_delivered, vote_outbound_statements
        from project.scouting.hooks import register_notification_created, register_vote_statements

        # Scouting does not import notify: a vote records its outbound event in its own round
        # trip, and every other notification records it when it is written.
        register_vote_statements(vote_outbound_statements)
        register_notification_created(notification_delivered)
