from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import pre_delete


def _user_deleted(sender: Any, instance: Any, **kwargs: Any) -> None:
    from project.media.services import user_avatars_delete

    user_avatars_delete(user_id=instance.pk)


class MediaConfig(AppConfig):
    name = "project.media"
    label = "media"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Accounts do not import media: the deletion of a user (user_delete, the Django admin)
        # takes its avatar objects along through this signal.
        pre_delete.connect(_user_deleted, sender=settings.AUTH_USER_MODEL, dispatch_uid="avatars")
