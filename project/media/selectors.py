from __future__ import annotations

from project.media.models import AvatarUpload


def avatar_content_type(*, key: str) -> str | None:
    """The checked content type of a confirmed avatar, None when the key is no avatar (also
    once its account was deleted: ``user`` is NULL then, until the object is gone)."""
    return (
        AvatarUpload.objects.filter(key=key, user__isnull=False)
        .exclude(content_type="")
        .values_list("content_type", flat=True)
        .first()
    )


def upload_is_open(*, key: str) -> bool:
    """Whether an upload address for ``key`` was issued and not yet confirmed."""
    return AvatarUpload.objects.filter(key=key, used_at__isnull=True).exists()
