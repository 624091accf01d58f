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
        from project.notify.delivery import register_delivery_channel
        from project.notify.prune import register_outbound_prune
        from project.push.services import push_delivered, push_export, push_prune
        from project.push.vapid import vapid_check

        # Accounts do not import push: the export gets the member's devices through its
        # registry; their deletion takes the devices along (the rows' foreign key cascades).
        register_export_section(push_export)
        # Notify does not import push: each notification it delivers is pushed to the member's
        # devices (at most one a minute about one nomination), and its daily prune takes the
        # pushes sent long ago along.
        register_delivery_channel(push_delivered)
        register_outbound_prune(push_prune)
        vapid_check()
