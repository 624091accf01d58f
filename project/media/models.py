from __future__ import annotations

from django.conf import settings
from django.db import models


class AvatarUpload(models.Model):
    """An upload address the server issued, and the avatar object it became once confirmed.

    ``key`` is where the confirmed avatar lives (``avatars/<userId>/<random>``); the client
    uploads to a staging copy of it (see ``project.media.storage.staging_key``), so an upload
    address that is still within its lifetime can never overwrite a checked avatar.
    ``user`` is nulled when the account is deleted: ``purge_uploads`` then removes the object.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="avatar_uploads",
    )
    key = models.CharField(max_length=200, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)
    content_type = models.CharField(max_length=32, blank=True, default="")

    class Meta:
        indexes = [
            models.Index(fields=["expires_at"], name="avatar_upload_expires_idx"),
            models.Index(fields=["user", "used_at"], name="avatar_upload_user_used_idx"),
        ]

    def __str__(self) -> str:
        return self.key
