from django.apps import AppConfig


class PushConfig(AppConfig):
    """Web push: members' devices (push subscriptions), the VAPID keys the server signs with,
    and the background task that sends each notification to a member's devices."""

    name = "project.push"
    label = "push"
    verbose_name = "Web push"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from project.accounts.export import register_export_section
        from project.push.services import push_export
        from project.push.vapid import vapid_check

        # Accounts do not import push: the export gets the member's devices through its
        # registry; their deletion takes the devices along (the rows' foreign key cascades).
        register_export_section(push_export)
        vapid_check()
