from django.apps import AppConfig


class NotifyConfig(AppConfig):
    """Reaching members outside the open tab: the outbound events a notification makes, the
    folded notification emails and the weekly digest built from them by the worker, and the
    signed one-click unsubscribe links those emails carry."""

    name = "project.notify"
    label = "notify"
    verbose_name = "Outbound notifications"
